#!/usr/bin/env bats
# I/O errors and lost devices, through the fault-injecting engine (--engine fault:INNER,...)
# on scratch files, and on a loop device that goes away during a run (root and losetup only;
# skipped visibly otherwise, always detached); stalls on modelled drives in virtual time. Runs
# are 1-3 s; no time is asserted.

load helpers

# fault.vdb: one 4 MiB file, 4k I/O half reads, ELAPSED s of 1 s intervals at 200 I/O/s.
write_parm() {
	local extra=${1:-} elapsed=${2:-2}
	{
		[ -n "$extra" ] && echo "$extra"
		echo "sd=sd1,lun=$SCRATCH/f1,size=4m,threads=4"
		echo "wd=wd1,sd=sd1,xfersize=4k,rdpct=50"
		echo "rd=rd1,wd=wd1,iorate=200,elapsed=$elapsed,interval=1"
	} >fault.vdb
	truncate -s 4m f1 # no format pass: the faults hit the run itself
}

# The number of interval lines (not avg_) of rd1 in a flatfile, via ioramp parseflat.
nr_flat_intervals() {
	"$IORAMP" parseflat -q -i "$1" -c interval | grep -cE '^[0-9]+$' || true
}

@test "I/O errors are logged with device, offset, size and errno, and fail the run" {
	write_parm "" 2
	run "$IORAMP" -f fault.vdb -o out --engine fault:sync,eio=0.02,seed=3 --seed 1
	echo "$output" | tail -3
	[ "$status" -eq 1 ]
	[[ "$output" == *"ioramp: error: rd=rd1: "*" I/O error"*"; first: sd=sd1 lun=$SCRATCH/f1 "*": Input/output error; see errorlog.html"* ]]
	[[ "$output" == *"Total Data Validation or I/O error count: "* ]]
	grep -Eq "op: (read|write) +lun: $SCRATCH/f1 +lba: +[0-9]+ 0x[0-9A-F]+ xfer: +4096 errno: EIO: 'Input/output error'" out/errorlog.html
	# counted per SD in results.json, and listed with the run
	[ "$(jq '[.runs[0].intervals[].sds[0].nr_errors] | add' out/results.json)" -gt 0 ]
	[ "$(jq '.runs[0].io_errors[0].errno' out/results.json)" -eq 5 ]
	[ "$(jq -r '.runs[0].io_errors[0] | "\(.sd) \(.lun) \(.size_bytes) \(.error)"' out/results.json)" = "sd1 $SCRATCH/f1 4096 EIO" ]
	[ "$(jq '.execution.status' out/results.json)" -eq 1 ]
	# every interval of the run is still reported
	[ "$(nr_flat_intervals out/flatfile.html)" -eq 2 ]
	# and the document, io_errors included, follows its schema
	if has_jsonschema; then
		run schema_valid out/results.json
		[ "$output" = valid ]
	else
		echo "# python3-jsonschema not installed: schema not checked" >&3
	fi
}

@test "with data validation on, one totals line counts the I/O errors too" {
	write_parm "data_errors=1000" 2
	# 64 KiB: sixteen key blocks are read again within the first I/Os, and one I/O in ten
	# fails, so both kinds come whatever the machine's speed
	sed -i 's/size=4m/size=64k/' fault.vdb
	truncate -s 64k f1
	run "$IORAMP" -f fault.vdb -o out --engine fault:sync,eio=0.1,seed=3 --seed 1 -v
	echo "$output" | tail -6
	[ "$status" -eq 1 ]
	[ "$(grep -c 'Total Data Validation or I/O error count' <<<"$output")" -eq 1 ]
	nr_io=$(sed -n 's/.*rd=rd1: \([0-9]*\) I\/O error.*/\1/p' <<<"$output")
	[ "$nr_io" -gt 0 ]
	[[ "$output" == *"key blocks marked in error:    0"* ]]
	[[ "$output" == *"Total Data Validation or I/O error count: $nr_io"* ]]
}

@test "data_errors=N stops the run after N errors" {
	write_parm "data_errors=5" 30
	run "$IORAMP" -f fault.vdb -o out --engine fault:null,eio=1
	[ "$status" -eq 1 ]
	[[ "$output" == *"I/O errors (data_errors= reached)"* ]]
	# it stopped long before elapsed=30: at most a couple of intervals
	[ "$(nr_flat_intervals out/flatfile.html)" -le 2 ]
	[ "$(grep -c 'errno: EIO' out/errorlog.html)" -ge 5 ]
}

@test "ENOSPC and short transfers are errors with their own text" {
	write_parm "data_errors=1000" 2
	run "$IORAMP" -f fault.vdb -o out --engine fault:sync,enospc_after=64k,short=0.05
	[ "$status" -eq 1 ]
	grep -q "op: write .* errno: ENOSPC: 'No space left on device'" out/errorlog.html
	grep -Eq "errno: EIO: 'short transfer: 2048 of 4096 bytes'" out/errorlog.html
	[ "$(jq '[.runs[0].io_errors[] | select(.error == "short")] | length' out/results.json)" -gt 0 ]
	[ "$(jq '[.runs[0].io_errors[] | select(.error == "ENOSPC" and .op == "write")] | length' out/results.json)" -gt 0 ]
}

@test "a device that vanishes ends the run at once with every completed interval written" {
	write_parm "data_errors=1000000" 30
	run "$IORAMP" -f fault.vdb -o out --engine fault:sync,vanish_after=2500ms
	echo "$output" | tail -3
	[ "$status" -eq 1 ]
	[[ "$output" == *"(a device is gone: run ended); first: sd=sd1 lun=$SCRATCH/f1 "*"No such device or address"* ]]
	grep -q "errno: ENXIO" out/errorlog.html
	# the run starts on the next whole second after the backends open, so interval 1 ends
	# before 2.5 s: it is reported everywhere, and the files are valid
	n=$(nr_flat_intervals out/flatfile.html)
	[ "$n" -ge 1 ] && [ "$n" -le 3 ]
	[ "$(jq '.runs[0].intervals | length' out/results.json)" -eq "$n" ]
	[ "$(jq '.runs[0].intervals[0].total.iops > 0' out/results.json)" = true ]
	[ -s out/report.html ]
}

# timeout= on modelled drives whose I/Os take seconds, in virtual time: every stall is exact.
@test "timeout=(s,abort): an SD that completes nothing ends the execution, named" {
	write_parm "timeout=(2,abort)" 30
	run "$IORAMP" -f fault.vdb -o out --engine model:read_us=5000000,write_us=5000000,dist=fixed
	echo "$output" | tail -4
	[ "$status" -eq 1 ]
	[[ "$output" == *"sd=sd1,lun=$SCRATCH/f1: no I/O completed in 2 seconds; 4 outstanding (timeout=)"* ]]
	[[ "$output" == *"fault.vdb:1:9: error: rd=rd1: sd=sd1 completed no I/O in 2 seconds with I/O outstanding; timeout=(2,abort) ended the execution"* ]]
	# it ended at the stall, after interval 2, not after elapsed=30, with both intervals written
	[ "$(nr_flat_intervals out/flatfile.html)" -eq 2 ]
	[ "$(jq '.execution.status' out/results.json)" -eq 1 ]
}

@test "timeout=s alone names a stall once and lets the run go on" {
	# the first I/Os complete after 3 s; the next ones cannot stall 2 s more before the end
	write_parm "timeout=2" 4
	run "$IORAMP" -f fault.vdb -o out --engine model:units=4,read_us=3000000,write_us=3000000,dist=fixed
	[ "$status" -eq 0 ]
	[ "$(grep -c 'no I/O completed in 2 seconds' <<<"$output")" -eq 1 ]
	[ "$(nr_flat_intervals out/flatfile.html)" -eq 4 ]
	# a slow device that completes something every interval is no stall
	write_parm "timeout=2" 3
	run "$IORAMP" -f fault.vdb -o out2 --engine model:read_us=100000,write_us=100000,dist=fixed
	[ "$status" -eq 0 ]
	[[ "$output" != *"no I/O completed"* ]]
}

@test "timeout= forms that do not run are refused before any I/O" {
	write_parm "timeout=(60,/bin/true)" 2
	run "$IORAMP" -f fault.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[[ "$output" == *"fault.vdb:1:9: error: not supported yet: timeout=(60,/bin/true); expected timeout=secs, (secs,abort) or (secs,secs2)"* ]]
	write_parm "timeout=0" 2
	run "$IORAMP" -f fault.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid timeout=0; expected a number of seconds above 0"* ]]
}

@test "a bad --engine is refused before any I/O" {
	write_parm "" 2
	run "$IORAMP" -f fault.vdb -o out --engine fault:sync,eio=2
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "ioramp: error: engine fault:sync,eio=2: invalid eio=2" ]
	run "$IORAMP" -f fault.vdb -o out --engine fault:sync,bogus=1
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"unknown option bogus; expected eio=, short=, corrupt=, enospc_after=, vanish_after=, delay= or seed="* ]]
	run "$IORAMP" -f fault.vdb -o out --engine iouring
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp: error: unknown engine iouring; expected uring, aio, sync, null, model[:PRESET][,OPTION=VALUE...] or fault:"* ]]
	[ ! -d out ]
}

@test "a loop device detached and emptied during a run ends it with exit 1" {
	if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
		skip "needs root and losetup for loop devices"
	fi
	truncate -s 64m disk
	dev=$(losetup -f --show disk 2>/dev/null) || skip "losetup cannot attach a loop device here"
	echo "$dev" >loopdev
	printf 'sd=sd1,lun=%s,threads=4,openflags=o_direct\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=200,elapsed=30,interval=1\n' \
		"$dev" >loop.vdb
	"$IORAMP" -f loop.vdb -o out >console.txt 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -Eq '^[0-9:.]{12} +2 ' console.txt 2>/dev/null && break
		sleep 0.1
	done
	# losetup -d on a device in use only marks it for autoclear: the backing file is then
	# emptied and the size reread, so that every I/O fails as on a pulled drive
	losetup -d "$dev"
	truncate -s 0 disk
	losetup -c "$dev" 2>/dev/null || true
	wait "$pid" || status=$?
	tail -3 console.txt
	[ "${status:-0}" -eq 1 ]
	grep -q "I/O errors" console.txt
	[ "$(nr_flat_intervals out/flatfile.html)" -ge 2 ]
	jq -e '.runs[0].io_errors | length > 0' out/results.json
}

teardown() {
	if [ -s "$SCRATCH/loopdev" ]; then
		losetup -d "$(cat "$SCRATCH/loopdev")" 2>/dev/null || true
	fi
	cd / && rm -rf "$SCRATCH"
}
