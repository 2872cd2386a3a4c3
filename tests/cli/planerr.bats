#!/usr/bin/env bats
# Issue 16 item 7: sizes that cannot run are refused at their parameter, exit 2, before any I/O
# of any RD (they used to fail as "cannot set up worker 0: Invalid argument" once earlier RDs
# had written, or after the format, or ran into ENOSPC).

load helpers

# refused FILE PLACE TEXT: exit 2 with the error at PLACE, no run started, no file left.
refused() {
	run "$IORAMP" -f "$1" -o out --engine null
	[ "$status" -eq 2 ]
	[[ "$output" == *"$1:$2: error: "*"$3"* ]]
	[[ "$output" != *"cannot set up worker"* ]]
	[[ "$output" != *"rd1"*"reached"* ]]
	[ ! -e f ]
}

@test "hotband=(0,1) on a small SD: refused at hotband= before the first RD runs" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'wd=wd2,sd=sd1,hotband=(0,1)' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' \
		'rd=rd2,wd=wd2,iorate=100,elapsed=2,interval=1' >p.vdb
	refused p.vdb 3:23 "rd=rd2, wd=wd2 on sd=sd1: hotband=(0,1) covers"
	[ ! -e out/flatfile.html ] || ! grep -q rd1 out/flatfile.html
}

@test "hitarea= larger than the SD with rhpct=: refused at hitarea=" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m,hitarea=2m" 'wd=wd1,sd=sd1,rhpct=50' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	refused p.vdb "1:$((${#SCRATCH} + 31))" "hitarea=2m leaves no room in the 1m used"
}

@test "forhitarea= beyond the SD is blamed on the loop" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1,rhpct=50' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,forhitarea=(64k,4m)' >p.vdb
	refused p.vdb 3:58 "hitarea=4m leaves no room"
}

@test "xfersize= larger than size= is refused before the format" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=64k" 'wd=wd1,sd=sd1,xfersize=128k' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	refused p.vdb 2:24 "xfersize 128k is larger than the 64k used of sd=sd1"
	[[ "$output" != *SD_format* ]]
}

@test "offset= past the end of the lun: refused at offset=" {
	truncate -s 1m g
	printf '%s\n' "sd=sd1,lun=$SCRATCH/g,offset=2m" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	refused p.vdb "1:$((${#SCRATCH} + 22))" "offset=2m is at or past the end of the 1m"
	[ "$(stat -c %s g)" -eq 1048576 ]
}

@test "offset= inside the lun: I/O stays between offset= and the lun's end" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,offset=512k,size=1m" \
		'wd=wd1,sd=sd1,rdpct=0,seekpct=0' \
		'rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(stat -c %s f)" -eq 1048576 ]
}

@test "an SD name longer than 240 characters is refused where it is written" {
	local name
	name=$(printf 's%.0s' $(seq 300))
	printf '%s\n' "sd=$name,lun=$SCRATCH/f,size=1m" "wd=wd1,sd=$name" \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:1:4: error: sd= name of 300 characters; expected at most 240"* ]]
	name=$(printf 's%.0s' $(seq 240))
	printf '%s\n' "sd=$name,lun=$SCRATCH/f,size=1m" "wd=wd1,sd=$name" \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 0 ]
	[ -e "out/$name.histogram.html" ]
}

@test "whpct= with the default hitarea (1m) on a 1m SD: refused at whpct=, before an earlier RD writes" {
	printf '%s\n' "sd=sd0,lun=$SCRATCH/f0,size=1m" "sd=sd1,lun=$SCRATCH/f,size=1m" \
		'wd=wd0,sd=sd0' 'wd=wd1,sd=sd1,whpct=50' \
		'rd=rd0,wd=wd0,iorate=100,elapsed=2,interval=1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	refused p.vdb 4:21 "rd=rd1, wd=wd1 on sd=sd1: hitarea=1m leaves no room in the 1m used"
	[ ! -e f0 ]
}

@test "hitarea= larger than a WD's range=: refused at hitarea=" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m,hitarea=64k" \
		'wd=wd1,sd=sd1,rhpct=50,range=(0,5)' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	refused p.vdb "1:$((${#SCRATCH} + 31))" "hitarea=64k leaves no room in the 48k used"
}

@test "a 5,000-character SD name after a runnable SD: refused where written, no file made" {
	local name
	name=$(printf 's%.0s' $(seq 5000))
	printf '%s\n' "sd=sd0,lun=$SCRATCH/f0,size=1m" "sd=$name,lun=$SCRATCH/f,size=1m" \
		'wd=wd0,sd=sd0' "wd=wd1,sd=$name" \
		'rd=rd0,wd=wd0,iorate=100,elapsed=2,interval=1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	refused p.vdb 2:4 "sd= name of 5000 characters; expected at most 240"
	[ ! -e f0 ]
}

# VDbench 5.04.07 runs rdpct=(50,70) in a WD with the first value (observed: read% 50.0) and
# lists elapsed=(4,6) as elapsed=4; ioramp runs them the same way, with a located warning.
@test "a list where one number is taken: the first value, with a located warning" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1,xfersize=4k,rdpct=(0,70)' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=(2,6),interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	[[ "$output" == *"p.vdb:2:33: warning: rdpct=(0,70) takes one value: VDbench uses the first, 0,"* ]]
	[[ "$output" == *"p.vdb:3:34: warning: elapsed=(2,6) takes one value"* ]]
	# two intervals, writes only (read% 0.00)
	[ "$(jq '[.runs[0].intervals[]] | length' out/results.json)" -eq 2 ]
	grep ' avg_2-2 ' out/totals.html | awk '{ exit !($6 == "0.00") }'
}

@test "a file saved with a UTF-8 byte-order mark: refused at 1:1 saying so" {
	printf '\xef\xbb\xbfsd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\n' "$SCRATCH" >p.vdb
	printf 'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' >>p.vdb
	refused p.vdb 1:1 "the file starts with a UTF-8 byte-order mark (BOM)"
}

# listed FILE [ARGS...]: ioramp -s on FILE; $output keeps the Simulating and Total lines only,
# without the time of day, one per line, and $lines the same lines.
listed() {
	local f=$1
	shift
	run "$IORAMP" -f "$f" "$@" -s
	[ "$status" -eq 0 ] || { printf '%s\n' "$output"; return 1; }
	output=$(printf '%s\n' "$output" | grep -E '^[0-9:.]{12} (Simulating|Total)' | cut -c14-)
	mapfile -t lines <<<"$output"
}

# VDbench 5.04.07 (observed with -s) reads a later -N in a list as the end of a range from the
# item before it: (10,-50,10) is (10-50,10), iorate=(100,-300,100) runs 100, 200 and 300.
@test "a later -N in a list ends a range from the item before it; without a step it is refused" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=(100,-300,100),elapsed=2,interval=1,forrdpct=(10,-30,10,70)' >p.vdb
	listed p.vdb
	[ "$(printf '%s\n' "$output" | grep -c 'Simulating')" -eq 12 ]
	[[ "$output" == *"For loops: rdpct=30 iorate=300"* ]]
	[[ "$output" == *"For loops: rdpct=70 iorate=100"* ]]
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,forseekpct=(0,-1)' >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:3:59: error: range 0,-1 in forseekpct= (read as 0-1) has no step"* ]]
}

@test "forcompratio= with data validation (-v, validate=, dedup): refused at the loop, as VDbench does" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,forcompratio=(1,2)' >p.vdb
	listed p.vdb
	run "$IORAMP" -f p.vdb -v -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:3:60: error: rd=rd1: forcompratio= cannot be used with data validation"* ]]
	dv_refused() { run "$IORAMP" -f q.vdb -s; [ "$status" -eq 2 ]; [[ "$output" == *"q.vdb:$1: error: rd=rd1: $2= cannot"* ]]; }
	{ echo 'validate=yes'; cat p.vdb; } >q.vdb
	dv_refused 4:60 forcompratio
	{ printf '%s\n' dedupratio=2 dedupunit=4k; sed 's/forcompratio=(1,2)/compression=50/' p.vdb; } >q.vdb
	dv_refused 5:59 forcompression
	{ echo 'validate=no'; cat p.vdb; } >q.vdb
	listed q.vdb
}

@test "concatenatesds=yes with rd sd=single: refused at sd=, as VDbench finds no sd=single" {
	printf '%s\n' concatenatesds=yes "sd=sd1,lun=$SCRATCH/f,size=1m" "sd=sd2,lun=$SCRATCH/g,size=1m" \
		'wd=wd1,sd=(sd1,sd2),threads=2' \
		'rd=rd1,wd=wd1,sd=single,iorate=100,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:5:18: error: rd=rd1: sd=single cannot be used with concatenatesds=yes; expected SD names"* ]]
}

@test "SD align= not a multiple of 512 is refused; align=0 or less is the default" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m,align=1000" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:1:$((${#SCRATCH} + 29)): error: invalid align=1000; expected a multiple of 512 bytes"* ]]
	sed -i 's/align=1000/align=0/' p.vdb
	listed p.vdb
	sed -i 's/align=0/align=-512/' p.vdb
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 0 ]
}

# VDbench 5.04.07 -s (observed): a WD's xfersize distribution passes when its total rounds to
# 100 and refuses a size that is not a multiple of 512, though a single xfersize=1000 runs.
@test "WD xfersize distribution: a total that rounds to 100 runs, sizes must be multiples of 512" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1,xfersize=(4k,50,8k,49.5)' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	listed p.vdb
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 0 ]
	sed -i 's/49.5/49.49/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:2:24: error: xfersize=(4k,50,8k,49.49): the percentages add up to 99.49; expected 100"* ]]
	sed -i 's/(4k,50,8k,49.49)/(4k,50,1000,50)/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:2:24: error: xfersize=(4k,50,1000,50): 1000 is not a multiple of 512 bytes"* ]]
}

# VDbench 5.04.07 -s and runs (observed): iorate=(curve,100) is a curve with the default
# points, curve=abc runs the max run alone, curve=(20%) is a point of 20 I/Os per second.
@test "iorate=(curve,...), curve= without a number and curve=(P%) run as VDbench runs them" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=(curve,100),elapsed=2,interval=1,forthreads=(1,2)' >p.vdb
	listed p.vdb
	[[ "${lines[1]}" == "Simulating RD=rd1_(10%); I/O rate: 1000; elapsed=2; For loops: threads=1" ]]
	[[ "${lines[14]}" == "Total amount of Run Definitions: 14;"* ]]
	run "$IORAMP" -f p.vdb -s
	[[ "$output" == *"p.vdb:3:22: warning: iorate=(curve,100) runs a curve: VDbench ignores the values after curve"* ]]
	sed -i 's/iorate=(curve,100)/iorate=(curve,curve)/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:3:23: error: iorate=(curve,curve): curve must be alone"* ]]
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=curve,curve=abc,elapsed=2,interval=1' \
		'rd=rd2,wd=wd1,iorate=curve,curve=(20%,0.5%,50),elapsed=2,interval=1' >p.vdb
	listed p.vdb
	[ "${lines[0]}" = "Simulating RD=rd1; I/O rate: Uncontrolled curve; elapsed=2; For loops: None" ]
	[ "${lines[1]}" = "Simulating RD=rd2; I/O rate: Uncontrolled curve; elapsed=2; For loops: None" ]
	[ "${lines[2]}" = "Simulating RD=rd2_(-20%); I/O rate: 20; elapsed=2; For loops: None" ]
	[ "${lines[3]}" = "Simulating RD=rd2_(0%); I/O rate: 1; elapsed=2; For loops: None" ]
	[ "${lines[4]}" = "Simulating RD=rd2_(50%); I/O rate: 5000; elapsed=2; For loops: None" ]
	run "$IORAMP" -f p.vdb -s
	[[ "$output" == *"p.vdb:3:34: warning: curve=abc holds no number: VDbench runs the curve's max run alone"* ]]
}

@test "an hd= name defined twice is refused at the second, as VDbench refuses it" {
	printf '%s\n' 'hd=h1,system=localhost' 'hd=h1,system=localhost' \
		"sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:2:4: error: hd=h1 is defined twice (first on line 1); expected each hd= name once"* ]]
}

# VDbench 5.04.07 -s (observed) checks a WD's SDs, host=, iorate= without priority= and
# xfersize=(min,max,align) only when an RD runs the WD.
@test "a WD no RD runs may name missing SDs and hosts; the same WD in use is refused" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'wd=wd2,sd=(sd1,nosuch),host=nohost,iorate=10,xfersize=(1k,8k,1k)' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	listed p.vdb
	[ "${lines[0]}" = "Simulating RD=rd1; I/O rate: 100; elapsed=2; For loops: None" ]
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 0 ]
	sed -i 's/^rd=rd1,wd=wd1,/rd=rd1,wd=wd*,/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:3:43: error: wd=wd2: a workload iorate= also needs priority="* ]]
	sed -i 's/iorate=10,/iorate=10,priority=1,/; s/^wd=wd1,sd=sd1$/wd=wd1,sd=sd1,priority=2/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:3:16: error: could not find sd=nosuch for wd=wd2; expected a defined sd name"* ]]
}

# VDbench 5.04.07 (observed) runs seekpct=150 as random and any negative seekpct as eof: a
# 64k SD read 4k at a time ends its run after 16 I/Os (on a modelled drive, in virtual time:
# the count, not the clock, is asserted).
@test "seekpct= above 100 is random, below 0 is eof; a suffix is refused" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=64k" 'wd=wd1,sd=sd1,xfersize=4k,rdpct=100,seekpct=-5' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=6,interval=1,forseekpct=(150)' >p.vdb
	listed p.vdb
	[ "${lines[0]}" = "Simulating RD=rd1; I/O rate: 100; elapsed=6; For loops: seekpct=150" ]
	sed -i 's/,forseekpct=(150)//' p.vdb
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	[[ "$output" == *"triggers end of run"* ]]
	[ "$(jq '[.runs[-1].intervals[].total.nr_ios] | add' out/results.json)" = 16 ]
	[ "$(jq '.runs[-1].is_eof' out/results.json)" = true ]
	sed -i 's/seekpct=-5/seekpct=1k/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:2:45: error: invalid seekpct=1k; expected a plain number"* ]]
}

# VDbench 5.04.07 -s lists range=(50,10) and hotband=(20,10); its run fails ("'range='
# parameter. Second value must be higher than first value"); pause=-1 runs with no pause.
@test "range= or hotband= with low not below high: -s lists it, a run is refused at the value" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1,hotband=(20,10)' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,pause=-1' >p.vdb
	listed p.vdb
	refused p.vdb 2:23 "wd=wd1: hotband=(20,10) cannot run (VDbench -s lists it); expected (low,high) with low below high"
	sed -i 's/hotband=(20,10)/range=(10,20,30)/' p.vdb
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 0 ]
	rm -f f
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m,range=(50,50)" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	listed p.vdb
	refused p.vdb "1:$((${#SCRATCH} + 29))" "sd=sd1: range=(50,50) cannot run"
}

# VDbench 5.04.07 runs histogram=(default,1m,100u) with two buckets, 0-1ms and 1ms-max (observed).
@test "histogram= bounds not above the one before are dropped, with a warning" {
	printf '%s\n' 'histogram=(default,1m,100u)' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 0 ]
	[[ "$output" == *"p.vdb:1:11: warning: histogram=(default,1m,100u): a bound not above the one before is dropped"* ]]
	[ "$(grep -c '^ *[0-9.]* < ' out/histogram.html)" -eq 2 ]
	grep -q '^ *1.000 < *max ' out/histogram.html
}

# VDbench 5.04.07 -s lists these; its run fails ("no work created", "max_xfersize still zero",
# "Invalid 'openflags=' parameter for Linux", "Workload priorities must be defined in numeric
# sequence starting at 1"; observed).
@test "SD threads=0, WD xfersize=0, openflags=bogus, priority=-1: -s lists them, a run is refused at the value" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m,threads=0" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	listed p.vdb
	refused p.vdb "1:$((${#SCRATCH} + 31))" "invalid threads=0; expected a value from 1 to 1048576"
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1,xfersize=(0,50,4k,50)' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,openflags=bogus' >p.vdb
	listed p.vdb
	refused p.vdb 3:57 "invalid openflags=bogus"
	sed -i 's/,openflags=bogus//' p.vdb
	refused p.vdb 2:24 "invalid xfersize=(0,50,4k,50); expected sizes from 1 to 1g"
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1,priority=-1' 'wd=wd2,sd=sd1,priority=1' \
		'rd=rd1,wd=wd*,iorate=100,elapsed=2,interval=1' >p.vdb
	listed p.vdb
	refused p.vdb 2:24 "invalid priority=-1; expected a value from 1 to 1000"
	sed -i 's/priority=-1/priority=0/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:2:24: error: invalid priority=0"* ]]
}

# VDbench 5.04.07 -s lists these and runs them, with meanings we have not observed; ioramp's
# -s lists them and its run refuses them at the value. size=0 runs as the lun's own size.
@test "maxdata=50%, hitarea=10%, a WD iorate=max: listed by -s, refused before a run; size=0 runs" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m,hitarea=10%" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,maxdata=50%' >p.vdb
	listed p.vdb
	refused p.vdb 3:55 "maxdata=50%: a percentage cannot run in ioramp (VDbench -s lists it)"
	sed -i 's/,maxdata=50%//' p.vdb
	refused p.vdb "1:$((${#SCRATCH} + 31))" "hitarea=10%: a percentage cannot run in ioramp"
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1,iorate=max,priority=1' \
		'wd=wd2,sd=sd1,priority=2' 'rd=rd1,wd=wd*,iorate=100,elapsed=2,interval=1' >p.vdb
	listed p.vdb
	refused p.vdb 2:22 "wd=wd1: a workload's iorate=max cannot run in ioramp"
	truncate -s 1m g
	printf '%s\n' "sd=sd1,lun=$SCRATCH/g,size=0" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 0 ]
}

# VDbench 5.04.07 -s lists warmup=-1 and adds it to the total time (observed: 4 + -1 = 3 s).
@test "a negative warmup=: -s lists it as VDbench does, a run is refused at the value" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=1m" 'wd=wd1,sd=sd1' \
		'rd=rd1,wd=wd1,iorate=100,elapsed=4,interval=1,warmup=-1' >p.vdb
	listed p.vdb
	[ "${lines[0]}" = "Simulating RD=rd1; I/O rate: 100; elapsed=4; For loops: None" ]
	[[ "${lines[1]}" == "Total amount of Run Definitions: 1; total elapsed time 3 seconds,"* ]]
	refused p.vdb 3:54 "rd=rd1: warmup=-1 cannot run (VDbench -s lists it); expected 0 or more seconds"
}
