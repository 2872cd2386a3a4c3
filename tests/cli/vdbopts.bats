#!/usr/bin/env bats
# VDbench's other command-line options (vdbench.pdf 1.6): -t and -tf, -m, -l, -r, -co, -cy,
# -cn, and -p, -k, -d taken with a note. Runs on modelled drives (virtual time) or -s.

load helpers

two_rds() {
	cat >p.vdb <<EOF
sd=sd1,lun=$SCRATCH/f1,size=10m
wd=wd1,sd=sd1,xfersize=4k
rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1
rd=rd2,wd=wd1,iorate=200,elapsed=2,interval=1
rd=rd3,wd=wd1,iorate=300,elapsed=2,interval=1
EOF
}

two_fs_rds() {
	cat >fs.vdb <<EOF
fsd=fsd1,anchor=$SCRATCH/fsa,depth=1,width=2,files=4,size=64k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=2
rd=rd1,fwd=fwd1,fwdrate=100,format=yes,elapsed=2,interval=1
rd=rd2,fwd=fwd1,fwdrate=100,format=no,elapsed=2,interval=1
EOF
}

@test "-t runs VDbench's quick test: its parameter file, 1k 50% reads at 100 a second" {
	TMPDIR=$SCRATCH run "$IORAMP" -t -o out --engine model
	[ "$status" -eq 0 ]
	[[ "$output" == *"Starting RD=rd1; I/O rate: 100; elapsed=5; For loops: None"* ]]
	grep -q '^sd=sd1,lun=/tmp/quick_vdbench_test,size=40m$' "$SCRATCH/ioramp-parmfile"
	grep -q 'wd=wd1,sd=sd1,xf=1k,rdpct=50' out/parmfile.html
	TMPDIR=$SCRATCH/none run "$IORAMP" -t -s
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp: error: -t: cannot write $SCRATCH/none/ioramp-parmfile: No such file or directory" ]
	run "$IORAMP" -tf -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Simulating RD=format_for_rd1"* ]]
	[[ "$output" == *"Simulating RD=rd1; elapsed=5; fwdrate=100; For loops: None"* ]]
}

@test "-r starts at the named RD, raw and file-system; an unknown name is refused" {
	two_rds
	run "$IORAMP" -f p.vdb -s -r rd2
	[ "$status" -eq 0 ]
	[[ "$output" != *"RD=rd1;"* ]]
	[[ "$output" == *"Simulating RD=rd2;"*"Simulating RD=rd3;"* ]]
	run "$IORAMP" -f p.vdb -s -rrd3
	[[ "$output" != *"RD=rd2;"* && "$output" == *"Simulating RD=rd3;"* ]]
	run "$IORAMP" -f p.vdb -s -r rd9
	[ "$status" -eq 2 ]
	[[ "$output" == *"-r rd9: no rd=rd9 in the parameter files; expected one of rd1, rd2, rd3"* ]]
	two_fs_rds
	run "$IORAMP" -f fs.vdb -s -r rd2
	[ "$status" -eq 0 ]
	[[ "$output" != *"RD=rd1;"* && "$output" != *"format_for_rd1"* ]]
	[[ "$output" == *"Simulating RD=rd2;"* ]]
}

@test "-l N runs every RD N times; -l with a time until then; a bad value is refused" {
	two_rds
	run "$IORAMP" -f p.vdb -o out -l 2 --engine model
	[ "$status" -eq 0 ]
	[ "$(grep -c 'Starting RD=rd1;' <<<"$output")" -eq 2 ]
	[ "$(grep -c 'Starting RD=rd3;' <<<"$output")" -eq 2 ]
	# a pass is 9 s of virtual time (three RDs of 2 s, a second between): 10 s is two passes
	run "$IORAMP" -f p.vdb -o out2 -l10s --engine model
	[ "$status" -eq 0 ]
	[ "$(grep -c 'Starting RD=rd2;' <<<"$output")" -eq 2 ]
	# loop= in the file, with VDbench's s suffix (which its numbers otherwise lack)
	(echo "loop=10s" && cat p.vdb) >l.vdb
	run "$IORAMP" -f l.vdb -o out3 --engine model
	[ "$status" -eq 0 ]
	[ "$(grep -c 'Starting RD=rd3;' <<<"$output")" -eq 2 ]
	run "$IORAMP" -f p.vdb -s -l 3x
	[ "$status" -eq 2 ]
	[[ "$output" == *"-l 3x: expected a count or a time such as -l 10, -l 30m or -l 24h"* ]]
}

@test "-m N is hd=default,jvms=N: that many slaves" {
	two_rds
	run "$IORAMP" -f p.vdb -o out -m 2 --engine model -r rd3
	[ "$status" -eq 0 ]
	[[ "$output" == *"-l localhost-0 -p 5570"*"-l localhost-1 -p 5570"* ]]
	run "$IORAMP" -f p.vdb -s -m 0
	[ "$status" -eq 2 ]
	[[ "$output" == *"-m 0: expected a JVM count from 1 to 64"* ]]
}

@test "-co, -cy, -cn force format=only, yes or no in every file-system RD" {
	two_fs_rds
	run "$IORAMP" -f fs.vdb -s -co
	[ "$status" -eq 0 ]
	[[ "$output" == *"Simulating RD=format_for_rd1"*"Simulating RD=format_for_rd2"* ]]
	[[ "$output" != *"Simulating RD=rd1;"* && "$output" != *"Simulating RD=rd2;"* ]]
	run "$IORAMP" -f fs.vdb -s -cn
	[[ "$output" != *"format_for_"* && "$output" == *"Simulating RD=rd2;"* ]]
	run "$IORAMP" -f fs.vdb -s -cy
	[[ "$output" == *"Simulating RD=format_for_rd2"* ]]
	run "$IORAMP" -f fs.vdb -s -c
	[ "$status" -eq 2 ]
	[[ "$output" == *"-c is not supported; format=yes in an rd= deletes the file structure"* ]]
}

@test "-p, -k and -d mean nothing here: taken with a note, the run goes on" {
	two_rds
	run "$IORAMP" -f p.vdb -s -p 5571 -k -d 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"ioramp: note: -p ignored: ioramp has no slave JVMs to connect to"* ]]
	[[ "$output" == *"ioramp: note: -k ignored: Solaris kstat statistics"* ]]
	[[ "$output" == *"ioramp: note: -d ignored"* ]]
	[[ "$output" == *"Simulating RD=rd3;"* ]]
	# a word after -d that is no number is not its value
	run "$IORAMP" -d -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Simulating RD=rd3;"* ]]
}

@test "-l N in file-system mode runs every RD N times too, each in results.json" {
	cat >fsl.vdb <<EOF2
fsd=fsd1,anchor=$SCRATCH/fsl,depth=1,width=2,files=4,size=64k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=100,format=yes,elapsed=2,interval=1
EOF2
	run "$IORAMP" -f fsl.vdb -o out -l 2
	[ "$status" -eq 0 ]
	[ "$(grep -c 'Starting RD=rd1;' <<<"$output")" -eq 2 ]
	[ "$(grep -c 'Starting RD=format_for_rd1' <<<"$output")" -eq 2 ]
	[ "$(jq '[.runs[] | select(.rd == "rd1")] | length' out/results.json)" -eq 2 ]
}
