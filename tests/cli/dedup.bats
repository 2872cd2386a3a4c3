#!/usr/bin/env bats
# Dedup (dedupratio=, dedupunit=, dedupsets=): the files ioramp writes hold the ratio asked
# for, counted block by block after the run, with the counts VDbench 5.04.07 reports for the
# same parameters; bad values and what is not supported are refused with their place.

load helpers

# distinct FILE UNIT: how many distinct UNIT-byte blocks FILE holds.
distinct() {
	python3 -c 'import sys; f = open(sys.argv[1], "rb"); n = int(sys.argv[2]); print(len(set(iter(lambda: f.read(n), b""))))' "$1" "$2"
}

# zlib_ratio FILE: how much zlib (level 6) compresses FILE, two decimals.
zlib_ratio() {
	python3 -c 'import sys, zlib; d = open(sys.argv[1], "rb").read(); print("%.2f" % (len(d) / len(zlib.compress(d, 6))))' "$1"
}

@test "dedupratio=2: the format pass and the run leave 2,048 blocks of 1,023 distinct ones" {
	cat >d.vdb <<PARM
dedupratio=2
dedupunit=4k
sd=sd1,lun=$SCRATCH/d1,size=8m
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1
PARM
	run "$IORAMP" -f d.vdb -o out
	echo "$output" | head -3
	[ "$status" -eq 0 ]
	# VDbench's logfile for the same: unique_blocks 921, dedup_sets_used 102
	[[ "$output" == *"Dedup sd=sd1: dedupunit=4096 dedupratio=2: 2,048 blocks, 921 unique, 1,127 duplicates in 102 sets: ratio 2.00:1"* ]]
	[ "$(distinct d1 4096)" -eq 1023 ]
	# the flatfile's dedupratio column says n/a, as VDbench's does with dedup on
	grep -Eq ' 1 n/a [0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+ *$' out/flatfile.html
	[ "$(jq '.runs[-1].params.dedupratio' out/results.json)" -eq 2 ]
}

@test "dedup on two SDs, 8k units written 4k at a time, with compratio=2" {
	cat >d.vdb <<PARM
dedupratio=3
dedupunit=8k
dedupsets=100
compratio=2
sd=sd1,lun=$SCRATCH/d1,size=16m
sd=sd2,lun=$SCRATCH/d2,size=8m
wd=wd1,sd=sd*,xfersize=(4k,50,64k,50),rdpct=0,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1
PARM
	run "$IORAMP" -f d.vdb -o out
	[ "$status" -eq 0 ]
	# 2,048 blocks: floor(682.7 - 100) = 582 unique + 100 sets; 1,024: 241 + 100
	[ "$(distinct d1 8192)" -eq 682 ]
	[ "$(distinct d2 8192)" -eq 341 ]
	# the sets of one SD are not the other's: together 3,072 blocks of 1,023
	cat d1 d2 >both
	[ "$(distinct both 8192)" -eq 1023 ]
	# and the data still compresses about 2:1
	if command -v python3 >/dev/null; then
		ratio=$(zlib_ratio both)
		echo "zlib: $ratio"
		[ "$(echo "$ratio > 1.8 && $ratio < 2.3" | bc)" -eq 1 ]
	fi
}

# refused GENERAL TEXT [ARGS...]: GENERAL lines before an SD, WD and RD are refused with exit
# status 2 and TEXT in the output, before any file is made.
refused() {
	printf '%b\nsd=sd1,lun=%s/d1,size=8m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
		"$1" "$SCRATCH" >d.vdb
	run "$IORAMP" -f d.vdb -o out "${@:3}"
	echo "$output" | head -2
	[ "$status" -eq 2 ]
	[[ "$output" == *"$2"* ]]
	[ ! -e d1 ]
}

@test "dedup parameters: bad values and what is not supported are refused with their place" {
	refused 'dedupratio=30\ndedupunit=4k' "d.vdb:1:12: error: sd=sd1: dedupsets=5% asks for 102 sets, more than the 68 of its 2048 dedupunit= blocks that dedupratio=30 leaves for duplicates"
	refused 'dedupratio=2\ndedupunit=3000' "d.vdb:2:11: error: invalid dedupunit=3000; expected a multiple of 512 bytes"
	refused 'dedupratio=0.5\ndedupunit=4k' "d.vdb:1:12: error: invalid dedupratio=0.5"
	refused 'dedupratio=2\ndedupunit=4k\ndedupflipflop=yes' "d.vdb:3:15: error: not supported yet: dedupflipflop=yes"
	refused 'dedupratio=2\ndedupunit=4k' "d.vdb:2:11: error: not supported yet: dedup with data validation" -v
	printf 'dedupunit=4k\nsd=sd1,lun=%s/d1,size=8m,dedupratio=3\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' "$SCRATCH" >d.vdb
	run "$IORAMP" -f d.vdb -o out
	[ "$status" -eq 2 ]
	[[ "$output" == *"d.vdb:2:"*": error: not supported yet: dedupratio"* ]]
}
