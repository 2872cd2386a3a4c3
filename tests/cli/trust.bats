#!/usr/bin/env bats
# Issue 16 (trust, round two): parameter and argument errors are caught before any I/O with
# their place and exit 2, never run with a made-up value.

load helpers

plain_parm() {
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=%s,elapsed=2,interval=1\n' \
		"$SCRATCH" "$1" >p.vdb
}

@test "iorate=-100 on the first run is refused at its place, exit 2, nothing written" {
	plain_parm -100
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:3:22: error: rd=rd1: iorate=-100 is 100% of the previous run"* ]]
	[ ! -e f ]
	# -s still lists it as VDbench does
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
}

@test "iorate=-50 after an iorate=max run is still 50% of it" {
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=(max,-50),elapsed=2,interval=1\n' \
		"$SCRATCH" >p.vdb
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
}

@test "--seed beyond 64 bits or negative is a usage error, exit 2" {
	plain_parm 100
	run "$IORAMP" -f p.vdb -s --seed 99999999999999999999999
	[ "$status" -eq 2 ]
	[[ "$output" == *"does not fit in 64 bits"* ]]
	run "$IORAMP" -f p.vdb -s --seed -1
	[ "$status" -eq 2 ]
	run "$IORAMP" -f p.vdb -s --seed 18446744073709551615
	[ "$status" -eq 0 ]
}

@test "--record into a missing directory is a usage error, exit 2" {
	plain_parm 100
	run "$IORAMP" -f p.vdb -o out --engine null --record "$SCRATCH/nonexistent/x"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--record $SCRATCH/nonexistent/x: cannot create"* ]]
}

@test "a limit is printed as an integer, not 1.04858e+06" {
	printf 'sd=sd1,lun=%s/f,size=1m,threads=99999999\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10\n' \
		"$SCRATCH" >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid threads=99999999; expected a value from 1 to 1048576"* ]]
}

@test "openflags=0x... with bits ioramp does not pass is refused at its place" {
	printf 'sd=sd1,lun=%s/f,size=1m,openflags=0xffffffff\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10\n' \
		"$SCRATCH" >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:1:$((${#SCRATCH} + 33)): error: openflags=0xffffffff: bits 0xffffafff are not supported"* ]]
	sed -i 's/0xffffffff/0x4000/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
}

@test "the run average counts the errors of the partial interval data_errors= ended" {
	truncate -s 1m f # no format pass
	printf 'data_errors=300\nsd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=500,elapsed=30,interval=1,warmup=0\n' \
		"$SCRATCH" >p.vdb
	run "$IORAMP" -f p.vdb -o out --engine fault:null,eio=0.2
	[ "$status" -eq 1 ]
	total=$(echo "$output" | sed -n 's/.*rd=rd1: \([0-9]*\) I\/O errors (data_errors= reached).*/\1/p')
	[ "$total" -ge 300 ]
	# every error past the warmup is in the average: the whole intervals', the partial last
	# one's and the drain's (the average showed 0 while hundreds were logged)
	q='.runs[] | select(.name == "rd1") | .intervals'
	avg=$(jq '.runs[] | select(.name == "rd1") | .average.total.nr_errors' out/results.json)
	warm=$(jq "[$q[] | select(.is_warmup) | .total.nr_errors] | add // 0" out/results.json)
	whole=$(jq "[$q[] | select(.is_warmup | not) | .total.nr_errors] | add // 0" \
		out/results.json)
	echo "total $total avg $avg warmup $warm whole $whole"
	[ $((avg + warm)) -eq "$total" ]
	[ "$avg" -gt "$whole" ]
}

@test "permission denied on a lun says how to get access" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run ioramp as another user"
	command -v runuser >/dev/null || skip "runuser not installed"
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	chmod 755 "$SCRATCH"
	truncate -s 1m f
	chmod 600 f
	printf 'sd=sd1,lun=%s/f\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' \
		"$SCRATCH" >p.vdb
	chmod 644 p.vdb
	run runuser -u nobody -- "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ] || skip "nobody cannot run $IORAMP"
	run runuser -u nobody -- "$IORAMP" -f p.vdb -o "$SCRATCH/out" --engine null
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot open: Permission denied; expected a file this user may open"* ]]
	dev=$(for d in /dev/loop*; do [ -b "$d" ] && [ "$(stat -c %a "$d")" = 600 ] && echo "$d" && break; done)
	[ -n "$dev" ] || skip "no root-only block device to try"
	printf 'sd=sd1,lun=%s\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' "$dev" >p.vdb
	run runuser -u nobody -- "$IORAMP" -f p.vdb -o "$SCRATCH/out" --engine null
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot open: Permission denied; expected to run as root, as a member of the device's group"* ]]
}

@test "after failed writes under validation, the lost coverage is said with the key map's figures" {
	truncate -s 64m f
	printf 'data_errors=1000\nsd=sd1,lun=%s/f,size=64m\nwd=wd1,sd=sd1,rdpct=50\nrd=rd1,wd=wd1,iorate=max,elapsed=3,interval=1\n' \
		"$SCRATCH" >p.vdb
	run "$IORAMP" -f p.vdb -o out -v --engine fault:sync,enospc_after=128k
	[ "$status" -eq 1 ]
	[[ "$output" =~ ioramp:\ warning:\ sd=sd1:\ [0-9,]+\ failed\ writes\ left\ their\ key\ blocks\ without\ a\ known\ key\;\ the\ key\ map\ knows\ [0-9,]+\ of\ 16,384\ blocks ]]
	grep -q "validation covers only those" out/logfile.html
}

# many_rds N: a parameter file of N short RDs (modelled drives: virtual time).
many_rds() {
	{
		printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\n' "$SCRATCH"
		for i in $(seq 1 "$1"); do
			printf 'rd=rd%d,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$i"
		done
	} >"p$1.vdb"
}

@test "peak RSS grows less than 65 KB per RD in one process (averages spilled to disk)" {
	[ -x /usr/bin/time ] || skip "needs GNU time for the peak RSS"
	# AddressSanitizer's quarantine keeps freed memory: its RSS says nothing of ioramp's
	! grep -q __asan_init "$IORAMP" || skip "a sanitized build"
	truncate -s 1m f
	many_rds 10
	many_rds 40
	for n in 10 40; do
		/usr/bin/time -f %M -o "rss$n" "$IORAMP" -f "p$n.vdb" -o "out$n" --engine model \
			--seed 1 >/dev/null 2>&1
		[ "$(jq '.runs | length' "out$n/results.json")" -eq "$n" ]
	done
	# the distribution chart still reads the spilled histograms back
	grep -q 'aria-label="Service time distribution"' out40/report.html
	[ "$(jq '[.runs[].average.histograms.service | length > 0] | all' out40/results.json)" = true ]
	per_rd=$(( ($(cat rss40) - $(cat rss10)) / 30 ))
	echo "peak RSS $(cat rss10) KB with 10 RDs, $(cat rss40) KB with 40: $per_rd KB per RD"
	# 485 KB per RD with the averages as jansson trees, 80 with their histograms on disk,
	# 35-47 with whole averages on disk and results.json streamed (the rest: curves, runs'
	# descriptions, the parsed parameters)
	[ "$per_rd" -lt 65 ]
}

@test "a closed stdout (>&-) writes the console nowhere, never into a report" {
	plain_parm 100
	run sh -c "'$IORAMP' -f p.vdb -o out --engine model >&-"
	[ "$status" -eq 0 ]
	# the first file opened took descriptor 1 and got the console's lines
	[ "$(grep -c 'interval        i/o' out/summary.html)" -eq 1 ]
	# summary.html ends with its own "execution completed successfully" (as VDbench's);
	# the console's line names the output directory
	! grep -q 'Output directory' out/summary.html || false
	grep -q 'execution completed successfully. Output directory' out/logfile.html
	jq -e . out/results.json >/dev/null
}

@test "stdout on a full device (/dev/full) fails the run, said on stderr" {
	[ -w /dev/full ] || skip "no /dev/full"
	plain_parm 100
	run sh -c "'$IORAMP' -f p.vdb -o out --engine model >/dev/full"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ioramp: error: standard output: cannot write ("*"); its lines are lost"* ]]
	jq -e ".execution.status == 1" out/results.json >/dev/null # the exit status, reports whole
	grep -q "</html>" out/report.html
	run sh -c "'$IORAMP' --help >/dev/full"
	[ "$status" -eq 1 ]
	[[ "$output" == *"standard output: cannot write (No space left on device)"* ]]
}

@test "a NUL byte in a parameter file is a located error, never a line cut short" {
	truncate -s 1m f
	# cut at the NUL, the line would run with threads=8 instead of 2, without a word
	printf 'sd=sd1,lun=%s/f,size=1m\0,threads=2\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' \
		"$SCRATCH" >nul.vdb
	run "$IORAMP" -f nul.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == "nul.vdb:1:$((${#SCRATCH} + 22)): error: a NUL byte in the line; expected text"* ]]
	run "$IORAMP" -f nul.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[ ! -e out ]
}

@test "the hostile-input checklist (bench/hostile) handles every case" {
	run env IORAMP="$IORAMP" "$BATS_TEST_DIRNAME/../../bench/hostile"
	echo "$output" | grep 'NOT handled' || true
	[ "$status" -eq 0 ]
	local last=${lines[${#lines[@]} - 1]}
	[[ "$last" =~ ^tried\ ([0-9]+),\ handled\ ([0-9]+)$ ]]
	[ "${BASH_REMATCH[1]}" -ge 30 ] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]
}
