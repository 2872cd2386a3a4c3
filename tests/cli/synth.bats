#!/usr/bin/env bats
# "ioramp trace synth": the stream a parameter file's first RD issues, checked against what the
# engine issues (--record on the null engine holds the scheduled times, so equal streams mean
# equal logic, not equal timing); distribution=variable and spike counted per second of the
# schedule; --record in scheduled order under load.

load helpers

# The (time op offset size file) lines of a fio v3 log.
ios_of() { awk '$3 == "read" || $3 == "write" { print $1, $3, $4, $5, $2 }' "$1"; }

write_mixed() {
	cat >s.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=64m
sd=sd2,lun=$SCRATCH/f2,size=64m
wd=wd1,sd=(sd1,sd2),xfersize=(4k,50,64k,50),rdpct=70,seekpct=30,skew=70
wd=wd2,sd=sd1,xfersize=8k,seekpct=0,skew=30
rd=rd1,wd=wd*,iorate=2000,elapsed=3,interval=1
PARM
}

@test "synth's stream is what the engine issues for the same file and seed" {
	write_mixed
	run "$IORAMP" trace synth s.vdb --seed 7 -o syn.log
	[ "$status" -eq 0 ]
	[ "$output" = "$(ios_of syn.log | wc -l) I/Os written to syn.log" ]
	run "$IORAMP" -f s.vdb -o out --engine null --record rec.log --seed 7
	[ "$status" -eq 0 ]
	# the worker of an SD may stop a few arrivals before synth's end: what it issued on each
	# SD is a prefix of synth's stream on that SD, and all the rest is synth's too
	for f in f1 f2; do
		n=$(ios_of rec.log | grep -c "/$f\$")
		[ "$n" -gt 1000 ]
		diff <(ios_of rec.log | grep "/$f\$") <(ios_of syn.log | grep "/$f\$" | head -n "$n")
	done
	# both declare the same files first
	diff <(head -5 rec.log) <(head -5 syn.log)
}

@test "the same seed gives the same stream, another seed another" {
	write_mixed
	"$IORAMP" trace synth s.vdb --seed 3 -o a.log
	"$IORAMP" trace synth s.vdb --seed 3 -o b.log
	"$IORAMP" trace synth s.vdb --seed 4 -o c.log
	cmp a.log b.log
	! cmp -s a.log c.log || false
}

@test "--duration cuts the stream; --all runs every RD back to back" {
	write_mixed
	sed -i 's/,skew=[0-9]*//' s.vdb
	echo "rd=rd2,wd=wd1,iorate=100,elapsed=2,interval=1" >>s.vdb
	"$IORAMP" trace synth s.vdb --duration 0.5 -o half.log
	ios_of half.log | awk '$1 >= 500000 { bad++ } END { exit bad > 0 }'
	[ "$(ios_of half.log | wc -l)" -gt 500 ]
	"$IORAMP" trace synth s.vdb --all -o all.log
	# rd2 starts when rd1's 3 s end and lasts 2 s: its I/Os are all wd1's
	[ "$(ios_of all.log | awk '$1 >= 3000000' | wc -l)" -gt 100 ]
	ios_of all.log | awk '$1 >= 5000000 { bad++ } END { exit bad > 0 }'
}

@test "an SD without size= is an error at its place" {
	printf 'sd=sd1,lun=/dev/nvme0n1\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10\n' >n.vdb
	run "$IORAMP" trace synth n.vdb -o x.log
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "n.vdb:1:12: error: sd=sd1 has no size=;"* ]]
	[ "${lines[1]}" = "sd=sd1,lun=/dev/nvme0n1" ]
	[ "${lines[2]}" = "           ^" ]
}

@test "iorate=max and curves have no schedule: refused at iorate=" {
	printf 'sd=sd1,lun=/x,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max\n' >m.vdb
	run "$IORAMP" trace synth m.vdb -o x.log
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "m.vdb:3:22: error: rd=rd1: iorate=max has no schedule to synthesize;"* ]]
	sed -i 's/iorate=max/iorate=curve/' m.vdb
	run "$IORAMP" trace synth m.vdb -o x.log
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"iorate=curve (its rates follow the max run's) has no schedule"* ]]
}

@test "usage errors exit 2" {
	run "$IORAMP" trace synth
	[ "$status" -eq 2 ]
	run "$IORAMP" trace synth s.vdb
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp trace synth: no -o OUT.iolog given" ]]
	run "$IORAMP" trace synth s.vdb --duration 0 -o x
	[ "$status" -eq 2 ]
}

# Per second of the schedule: the I/O count of each second of a log.
per_second() { ios_of "$1" | awk '{ c[int($1 / 1000000)]++ } END { for (s in c) print s, c[s] }' | sort -n; }

@test "distribution=(variable,spike): each second has the whole part of each generator's rate" {
	cat >v.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=10m
wd=wd1,sd=sd1,xfersize=4k,skew=70
wd=wd2,sd=sd1,xfersize=8k,skew=30
rd=rd1,wd=wd*,iorate=(50,2,5,2,0,1,1000,2),distribution=(exponential,variable,spike),elapsed=7,interval=1
PARM
	"$IORAMP" trace synth v.vdb -o v.log
	# 5 I/Os per second at 70/30 are 3.5 + 1.5: VDbench 5.04.07 issues 3 + 1
	[ "$(per_second v.log | tr '\n' ' ')" = "0 50 1 50 2 4 3 4 5 1000 6 1000 " ]
	# all at the start of their second
	ios_of v.log | awk '$1 % 1000000 { bad++ } END { exit bad > 0 }'
	# and the engine issues the same
	run "$IORAMP" -f v.vdb -o out --engine null --record rec.log
	[ "$status" -eq 0 ]
	[ "$(per_second rec.log | tr '\n' ' ')" = "0 50 1 50 2 4 3 4 5 1000 6 1000 " ]
	# VDbench's run says Variable, as its -s does, not the average rate
	[[ "$output" == *"Starting RD=rd1; I/O rate: Variable; elapsed=7; For loops: None"* ]]
	# the words by any prefix, as VDbench reads them: (e,v,sp) is the same [284]
	sed -i 's/(exponential,variable,spike)/(e,v,sp)/' v.vdb
	run "$IORAMP" -f v.vdb -o out2 --engine null --record rec2.log
	[ "$status" -eq 0 ]
	[ "$(per_second rec2.log | tr '\n' ' ')" = "0 50 1 50 2 4 3 4 5 1000 6 1000 " ]
}

@test "distribution=variable follows the pairs on average and drops to zero" {
	cat >v.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=10m
wd=wd1,sd=sd1,xfersize=4k
rd=rd1,wd=wd1,iorate=(20000,2,0,2,5000,2),distribution=variable,elapsed=12,interval=1
PARM
	"$IORAMP" trace synth v.vdb -o v.log
	per_second v.log >counts
	# the list repeats after 6 s; the idle seconds are empty
	awk '{ c[$1] = $2 } END {
		for (s = 0; s < 12; s++) {
			want = (s % 6 < 2) ? 20000 : (s % 6 < 4) ? 0 : 5000
			if (want == 0 && (s in c)) exit 1
			if (want && (c[s] < 0.95 * want || c[s] > 1.05 * want)) exit 1
		}
	}' counts
}

@test "--record is in scheduled order when several generators share a busy SD" {
	cat >hi.vdb <<PARM
sd=sd,lun=$SCRATCH/h%d,size=16m,count=(0,4),threads=1
wd=wa,sd=sd*,xfersize=4k,skew=50
wd=wb,sd=sd*,xfersize=8k,skew=50
rd=rd1,wd=w*,iorate=1000000,elapsed=2,interval=1
PARM
	run "$IORAMP" -f hi.vdb -o out --engine null --record rec.log --seed 3
	[ "$status" -eq 0 ]
	ios_of rec.log | awk '{ if ($1 < last) bad++; last = $1; n++ } END { exit (bad > 0 || n < 1000) }'
}
