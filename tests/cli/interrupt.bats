#!/usr/bin/env bats
# Interruptions: SIGINT and SIGTERM drain the I/O in flight (held 300 ms by the fault engine's
# delay=) and leave every output valid with the completed intervals; SIGKILL leaves the
# flatfile and status.html of the completed intervals, written and flushed per interval.

load helpers

write_parm() {
	printf 'sd=sd1,lun=%s/f,size=1m,threads=8\nwd=wd1,sd=sd1,rdpct=70\nrd=rd1,wd=wd1,iorate=100,elapsed=600,interval=1\n' \
		"$SCRATCH" >long.vdb
	truncate -s 1m f
}

# Starts a long run in the background (pid in $pid) and waits for interval N on the console.
start_and_wait() {
	local n=$1
	shift
	"$IORAMP" -f long.vdb -o out "$@" >console.txt 2>&1 &
	pid=$!
	for _ in $(seq 150); do
		grep -Eq "^[0-9:.]{12} +$n " console.txt 2>/dev/null && return 0
		sleep 0.1
	done
	cat console.txt
	return 1
}

# The interval numbers of the flatfile, one per line, through ioramp parseflat.
flat_intervals() {
	"$IORAMP" parseflat -q -i out/flatfile.html -c interval | grep -E '^[0-9]+$'
}

# Every output of an interrupted run is valid and holds the completed intervals.
check_outputs() {
	local code=$1 n
	n=$(flat_intervals | wc -l)
	[ "$n" -ge 3 ]
	[ "$(flat_intervals | tail -1)" -eq "$n" ]
	"$IORAMP" parseflat -q -i out -c interval rate -a | grep -q '^avg_2-'
	jq -e . out/results.json >/dev/null
	[ "$(jq '.execution.status' out/results.json)" -eq "$code" ]
	[ "$(jq '.runs[0].is_interrupted' out/results.json)" = true ]
	[ "$(jq '.runs[0].intervals | length' out/results.json)" -eq "$n" ]
	[ "$(jq '.runs[0].average.total.nr_ios > 0' out/results.json)" = true ]
	[ -s out/report.html ]
	grep -q '</html>' out/report.html
	grep -q 'avg_2-' out/totals.html
	[ "$(grep -c 'errno' out/errorlog.html)" -eq 0 ] # drained I/O completed, none failed
}

# Interrupts a run at its third interval with signal $1 (the I/O in flight held by the fault
# engine on backend $2): every output is written and valid, the exit code is 128 + the
# signal, and stderr says where the results are.
interrupt_and_check() {
	local sig=$1 backend=$2 code=$3
	write_parm
	start_and_wait 3 --engine "fault:$backend,delay=300ms"
	kill -"$sig" "$pid"
	wait "$pid" || status=$?
	[ "${status:-0}" -eq "$code" ]
	check_outputs "$code"
	grep -q "^interrupted (SIG$sig); results in .*out" console.txt
}

@test "SIGINT drains the I/O in flight, writes every output, says where and exits 130" {
	interrupt_and_check INT sync 130
}

@test "SIGTERM drains the I/O in flight, writes every output, says where and exits 143" {
	interrupt_and_check TERM null 143
}

@test "SIGHUP drains like SIGTERM, writes every output, says where and exits 129" {
	interrupt_and_check HUP null 129
}

@test "SIGINT before an interval could be averaged: no avg_ line, no NaN, average null" {
	write_parm
	# every interval is warmup, so whenever the signal lands none is averaged
	sed -i 's/elapsed=600,/elapsed=600,warmup=300,/' long.vdb
	start_and_wait 1 --engine null
	kill -INT "$pid"
	wait "$pid" || status=$?
	[ "${status:-0}" -eq 130 ]
	grep -q "^interrupted (SIGINT); results in .*out" console.txt
	! grep -q 'avg_' console.txt || false
	! grep -l 'NaN' out/*.html || false
	! "$IORAMP" parseflat -q -i out -c interval -a | grep -q '^avg_' || false
	[ "$(jq '.runs[0].average' out/results.json)" = null ]
	[ "$(jq '.runs[0].is_interrupted' out/results.json)" = true ]
}

@test "SIGKILL after three intervals leaves their flatfile and status.html lines" {
	write_parm
	start_and_wait 3 --engine null
	kill -KILL "$pid"
	wait "$pid" || status=$?
	[ "${status:-0}" -eq 137 ]
	n=$(flat_intervals | wc -l)
	[ "$n" -ge 3 ]
	[ "$(flat_intervals | head -3 | tr '\n' ' ')" = "1 2 3 " ]
	# status.html has VDbench's events (no interval lines there), flushed as they happened
	grep -q '	Starting	rd=rd1	For loops: None' out/status.html
	grep -q '	Warmup done	rd=rd1' out/status.html
	# and the per-interval reports have the same intervals
	for k in 1 2 3; do
		grep -Eq "^[0-9:.]{12} +$k " out/summary.html
		grep -Eq "^[0-9:.]{12} +$k " out/sd1.html
	done
}

@test "a closed stdout (ioramp | head -2) drains like SIGTERM, writes every output, exits 141" {
	write_parm
	# head exits after two lines; the next console line raises SIGPIPE, which stops the run
	# at the end of its interval (elapsed=600 would otherwise run ten minutes)
	set +o pipefail
	{
		rc=0
		"$IORAMP" -f long.vdb -o out --engine null 2>err.txt || rc=$?
		echo "$rc" >rc.txt
	} | head -2 >/dev/null
	[ "$(cat rc.txt)" -eq 141 ]
	jq -e . out/results.json >/dev/null
	[ "$(jq '.execution.status' out/results.json)" -eq 141 ]
	[ "$(jq '.runs[0].is_interrupted' out/results.json)" = true ]
	grep -q '</html>' out/report.html
	[ -s out/flatfile.html ]
	grep -q "^interrupted (SIGPIPE); results in .*out" err.txt
}

# Interrupts the format of a new 8 MiB file with signal $1 once the file has grown (its
# writes held 300 ms each by the fault engine: the format has 64 of them): the file is left
# shorter than size=, and the next run formats the rest, every block of it written.
interrupt_format() {
	printf 'sd=sd1,lun=%s/nf,size=8m\nwd=wd1,sd=sd1,rdpct=100,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
		"$SCRATCH" >fmt.vdb
	"$IORAMP" -f fmt.vdb -o out1 --engine fault:sync,delay=300ms >console1.txt 2>&1 &
	pid=$!
	for _ in $(seq 150); do
		[ "$(stat -c %s nf 2>/dev/null || echo 0)" -gt 0 ] && break
		sleep 0.1
	done
	grep -q 'Starting RD=SD_format' console1.txt
	kill -"$1" "$pid"
	wait "$pid" || status=$?
	[ "${status:-0}" -eq "$2" ]
	[ "$(stat -c %s nf)" -lt $((8 << 20)) ] # not the full-length sparse file it was
	run "$IORAMP" -f fmt.vdb -o out2 --engine sync
	[ "$status" -eq 0 ]
	[[ "$output" == *"Starting RD=SD_format"* ]]
	[ "$(stat -c %s nf)" -eq $((8 << 20)) ]
	[ $(($(stat -c %b nf) * $(stat -c %B nf))) -ge $((8 << 20)) ] # no hole left
	run "$IORAMP" -f fmt.vdb -o out3 --engine sync
	[ "$status" -eq 0 ]
	[[ "$output" != *"SD_format"* ]] # formatted once it is complete
}

@test "SIGINT during the format of a new file: the next run formats it again" {
	interrupt_format INT 130
}

@test "SIGKILL during the format of a new file: the next run formats it again" {
	interrupt_format KILL 137
}

@test "SIGINT inside an interval: its errors and the drain's join the average and the total is said" {
	printf 'data_errors=1000000000\nsd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=600,interval=1,warmup=0\n' \
		"$SCRATCH" >long.vdb
	truncate -s 1m f
	# null at full speed with one I/O in five failing: thousands of errors in any instant
	start_and_wait 3 --engine fault:null,eio=0.2
	kill -INT "$pid"
	wait "$pid" || status=$?
	[ "${status:-0}" -eq 130 ]
	total=$(sed -n 's/.*Total Data Validation or I\/O error count: \([0-9]*\)$/\1/p' console.txt)
	[ -n "$total" ]
	q='.runs[0].intervals'
	avg=$(jq '.runs[0].average.total.nr_errors' out/results.json)
	warm=$(jq "[$q[] | select(.is_warmup) | .total.nr_errors] | add // 0" out/results.json)
	whole=$(jq "[$q[] | select(.is_warmup | not) | .total.nr_errors] | add // 0" \
		out/results.json)
	echo "total $total avg $avg warmup $warm whole $whole"
	# every error past the warmup is in the average, the partial interval's included
	[ $((avg + warm)) -eq "$total" ]
	[ "$avg" -gt "$whole" ]
	grep -q "^interrupted (SIGINT); results in .*out" console.txt
}
