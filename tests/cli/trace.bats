#!/usr/bin/env bats
# "ioramp trace": stat, compare, profile and convert on the traces of traces/; exit codes,
# key output lines, JSON that parses, profiles VDbench accepts, recordings fio replays.

load helpers

TRACES=$BATS_TEST_DIRNAME/../../traces

# Pretty-prints JSON on stdin, failing on invalid input: jq if present, else python3.
json_check() {
	if command -v jq >/dev/null; then jq . >/dev/null; else python3 -m json.tool >/dev/null; fi
}

@test "trace without a subcommand is a usage error" {
	run "$IORAMP" trace
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: ioramp trace stat"* ]]
}

@test "trace --help prints the usage on stdout" {
	run "$IORAMP" trace --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: ioramp trace stat [OPTIONS] [--device DEV] [--json] FILE..." ]]
}

@test "unknown subcommand, format, action or device are usage errors" {
	run "$IORAMP" trace frob
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp trace: unknown subcommand frob" ]]
	run "$IORAMP" trace stat --format nope "$TRACES/msr.csv"
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp trace: unknown --format nope" ]]
	run "$IORAMP" trace stat --action Z "$TRACES/blkparse.txt"
	[ "$status" -eq 2 ]
	run "$IORAMP" trace stat --device x "$TRACES/blkparse.txt"
	[ "$status" -eq 2 ]
	run "$IORAMP" trace stat
	[ "$status" -eq 2 ]
	run "$IORAMP" trace compare "$TRACES/msr.csv"
	[ "$status" -eq 2 ]
}

@test "stat of a blkparse trace: devices, total, counts" {
	run "$IORAMP" trace stat "$TRACES/blkparse.txt"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "trace $TRACES/blkparse.txt: format blkparse, action Q, 2 devices" ]]
	[ "${lines[1]}" = "device 8,16" ]
	[[ "$output" == *$'\ntotal\n  records         240 (reads 180, writes 60); flushes 3, discards 2\n'* ]]
	[[ "$output" == *"  read            75.00 % of I/Os,"* ]]
	[[ "$output" == *"  top sizes       4K 33.3 %, 8K 33.3 %, 16K 33.3 %"* ]]
}

@test "stat --device keeps one device; --action C reads completions" {
	run "$IORAMP" trace stat --device 8,32 --action C "$TRACES/blkparse.txt.gz"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"format blkparse, action C, 1 device" ]]
	# the flushes follow odd I/Os (8,32), the discards even ones (8,16)
	[[ "$output" == *"  records         120 (reads 120, writes 0); flushes 3, discards 0"* ]]
}

@test "stat --json parses and holds the figures" {
	run "$IORAMP" trace stat --json "$TRACES/msr.csv.gz" "$TRACES/percpu.blktrace.0"
	[ "$status" -eq 0 ]
	echo "$output" | json_check
	if command -v jq >/dev/null; then
		[ "$(echo "$output" | jq -r .schema)" = "ioramp-trace-stat/1" ]
		[ "$(echo "$output" | jq '.files | length')" = 2 ]
		[ "$(echo "$output" | jq .files[0].total.records)" = 240 ]
		[ "$(echo "$output" | jq -r .files[1].format)" = blktrace ]
		[ "$(echo "$output" | jq -r '.files[1].devices[0].device')" = "8,16" ]
	fi
}

@test "a missing file fails with exit 1 and names it" {
	run "$IORAMP" trace stat no-such.csv
	[ "$status" -eq 1 ]
	[ "$output" = "no-such.csv: error: cannot open: No such file or directory" ]
}

@test "a malformed line fails with file:line; --skip-bad counts and goes on" {
	printf '1,0,8,0,5\n1,0,8,2,5\n2,8,8,1,5\n' >bad.csv
	run "$IORAMP" trace stat bad.csv
	[ "$status" -eq 1 ]
	[ "$output" = "bad.csv:2: error: bad IOType '2'; expected 0 (read) or 1 (write)" ]
	run "$IORAMP" trace stat --skip-bad bad.csv
	[ "$status" -eq 0 ]
	[[ "$output" == *"bad.csv: warning: 1 malformed lines skipped"* ]]
	[[ "$output" == *"  records         2 (reads 1, writes 1)"* ]]
}

@test "a truncated binary trace names the byte offset" {
	head -c 500 "$TRACES/blktrace.bin" >cut.bin
	run "$IORAMP" trace stat cut.bin
	[ "$status" -eq 1 ]
	[[ "$output" =~ ^cut\.bin\+[0-9]+:\ error:\ truncated\ (record|payload) ]]
}

@test "compare prints every figure with B - A" {
	run "$IORAMP" trace compare "$TRACES/msr.csv" "$TRACES/blkreplay.load"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "A: $TRACES/msr.csv" ]
	[[ "$output" == *$'\nrecords                         240.000          240.000           +0.000\n'* ]]
	[[ "$output" == *$'\nseq_pct '* ]]
	[[ "$output" == *$'\nhot_10_pct '* ]]
	run "$IORAMP" trace compare --json "$TRACES/msr.csv" "$TRACES/blkreplay.load"
	[ "$status" -eq 0 ]
	echo "$output" | json_check
}

@test "profile writes plain VDbench parameters" {
	run "$IORAMP" trace profile -o p.vdb "$TRACES/msr.csv"
	[ "$status" -eq 0 ]
	grep -q '^sd=sd1,lun=\$lun,threads=3$' p.vdb
	grep -q '^wd=rr,sd=sd1,xfersize=(4k,' p.vdb
	grep -q '^rd=rd1,wd=(rr,rw,sr),iorate=1003.8,elapsed=10,interval=1$' p.vdb
	# parameter lines hold no blank: VDbench ignores everything after one
	! grep -v '^\*' p.vdb | grep -q ' '
}

@test "VDbench accepts the profiles (vdbench -s)" {
	local vdb=${VDBENCH:-/opt/vdbench/vdbench}
	[ -x "$vdb" ] && command -v java >/dev/null || skip "VDbench not installed at $vdb"
	for t in msr.csv blkparse.txt fio3.iolog; do
		"$IORAMP" trace profile -o "p-$t.vdb" "$TRACES/$t"
		run "$vdb" -f "p-$t.vdb" -s "lun=$SCRATCH/lun" -o "$SCRATCH/out-$t"
		[ "$status" -eq 0 ]
		[[ "$output" == *"Vdbench simulation completed successfully"* ]]
	done
}

@test "convert writes a fio v3 iolog that fio replays" {
	command -v fio >/dev/null || skip "fio not installed"
	truncate -s 64M data.img
	run "$IORAMP" trace convert --target "$SCRATCH/data.img" -o rec.iolog "$TRACES/blkreplay.load"
	[ "$status" -eq 0 ]
	[ "$(head -1 rec.iolog)" = "fio version 3 iolog" ]
	run "$IORAMP" trace stat rec.iolog
	[[ "$output" == *"  records         240 (reads 180, writes 60)"* ]]
	run fio --name=replay --read_iolog=rec.iolog --ioengine=psync --output-format=terse
	[ "$status" -eq 0 ]
	IFS=';' read -r -a f <<<"${lines[-1]}"
	[ "${f[4]}" = 0 ] # error
	[ "$((f[5] + f[46]))" -gt 0 ] # KiB read + written
}
