#!/usr/bin/env bats
# concatenatesds=yes: the SDs of a workload as one lun (src/engine/concat_run.c), on modelled
# drives in virtual time; each I/O counts on the member it falls in. The address map itself is
# tests/unit/test_engine_concat.c; VDbench 5.04.07's behaviour is in tests/parm/FINDINGS.md.

load helpers

# sd_ios RESULTS: "name=nr_ios" per SD over every interval of the last run.
sd_ios() {
	python3 - "$1" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][-1]
tot = {}
for iv in run["intervals"]:
    for sd in iv["sds"]:
        tot[sd["name"]] = tot.get(sd["name"], 0) + sd["nr_ios"]
print(" ".join("%s=%d" % kv for kv in tot.items()))
PY
}

@test "a sequential pass over a concatenation: each member gets its blocks, none straddles, block 0 untouched" {
	# 1 MiB + 512 bytes, then 2 MiB: 768 blocks of 4 KiB in the concatenation, block 0 never
	# done; the block across the boundary goes to sd2 (VDbench: "lba straddles two SDs")
	printf 'concatenatesds=yes\nsd=sd1,lun=%s/a,size=1049088\nsd=sd2,lun=%s/b,size=2m\n' \
		"$SCRATCH" "$SCRATCH" >p.vdb
	printf 'wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=0,seekpct=eof,threads=2\n' >>p.vdb
	printf 'rd=rd1,wd=wd1,iorate=max,elapsed=100,interval=1\n' >>p.vdb
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	run sd_ios out/results.json
	[ "$output" = "sd1=255 sd2=512" ]
}

@test "random I/O over a concatenation splits as the members' sizes" {
	printf 'concatenatesds=yes\nsd=sd1,lun=%s/a,size=8m\nsd=sd2,lun=%s/b,size=24m\n' \
		"$SCRATCH" "$SCRATCH" >p.vdb
	printf 'wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=50,seekpct=100,threads=4\n' >>p.vdb
	printf 'rd=rd1,wd=wd1,iorate=2000,elapsed=10,interval=1\n' >>p.vdb
	run "$IORAMP" -f p.vdb -o out --engine model --seed 7
	[ "$status" -eq 0 ]
	run sd_ios out/results.json
	a=$(echo "$output" | sed 's/.*sd1=\([0-9]*\).*/\1/')
	b=$(echo "$output" | sed 's/.*sd2=\([0-9]*\).*/\1/')
	# 1:3 by size; 20000 I/Os put one standard deviation of sd1's share at 0.3%
	[ $((a + b)) -ge 19000 ]
	[ $((a * 1000 / (a + b))) -ge 235 ]
	[ $((a * 1000 / (a + b))) -le 265 ]
	# one pool of threads=4 for the concatenation, held by its first member
	run python3 -c 'import json,sys; print([s["threads"] for s in json.load(open("out/results.json"))["runs"][0]["sds"]])'
	[ "$output" = "[4, 0]" ]
}

@test "streams= over a concatenation: one sequential stream per piece, each member its share" {
	printf 'concatenatesds=yes\n' >p.vdb
	for i in 1 2 3; do printf 'sd=sd%s,lun=%s/f%s,size=8m\n' $i "$SCRATCH" $i >>p.vdb; done
	printf 'wd=wd1,sd=(sd1,sd2,sd3),xfersize=4k,rdpct=100,seekpct=0,streams=3,threads=6\n' >>p.vdb
	printf 'rd=rd1,wd=wd1,iorate=max,elapsed=4,interval=1\n' >>p.vdb
	run "$IORAMP" -f p.vdb -o out --engine model --seed 1
	[ "$status" -eq 0 ]
	run sd_ios out/results.json
	for sd in sd1 sd2 sd3; do
		n=$(echo "$output" | tr ' ' '\n' | sed -n "s/^$sd=//p")
		[ "$n" -gt 1000 ]
	done
}

@test "concatenatesds=yes with data validation is refused before any file is made" {
	printf 'concatenatesds=yes\nsd=sd1,lun=%s/a,size=1m\nsd=sd2,lun=%s/b,size=1m\n' \
		"$SCRATCH" "$SCRATCH" >p.vdb
	printf 'wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=50,threads=2\n' >>p.vdb
	printf 'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' >>p.vdb
	run "$IORAMP" -f p.vdb -o out -v
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:1:16: error: not supported yet: concatenatesds=yes with data validation"* ]]
	[ ! -e a ] && [ ! -e b ]
}

@test "workloads on different SD lists of one concatenation are refused with the WD's line" {
	printf 'concatenatesds=yes\nsd=sd1,lun=%s/a,size=1m\nsd=sd2,lun=%s/b,size=1m\n' \
		"$SCRATCH" "$SCRATCH" >p.vdb
	printf 'wd=wd1,sd=(sd1,sd2),threads=2\nwd=wd2,sd=sd1,threads=2\n' >>p.vdb
	printf 'rd=rd1,wd=wd*,iorate=100,elapsed=2,interval=1\n' >>p.vdb
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:5:"*"every wd= on the same sd= list"* ]]
	[ ! -e out/summary.html ]
}
