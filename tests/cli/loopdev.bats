#!/usr/bin/env bats
# Eight SDs, several skewed workloads and a curve, end to end on loop devices (real block
# devices, O_DIRECT) with every engine. Needs root and losetup; skips visibly otherwise and
# always detaches what it attached.

load helpers

setup() {
	SCRATCH=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ioramp-loop.XXXXXX")
	cd "$SCRATCH" || return 1
	LOOPS=()
	if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
		skip "needs root and losetup for loop devices"
	fi
	for i in 0 1 2 3 4 5 6 7; do
		truncate -s 64m "disk$i"
		dev=$(losetup -f --show "disk$i" 2>/dev/null) || skip "losetup cannot attach a loop device here"
		LOOPS+=("$dev")
	done
}

teardown() {
	for dev in "${LOOPS[@]}"; do losetup -d "$dev" 2>/dev/null; done
	cd / && rm -rf "$SCRATCH"
}

write_parm() {
	{
		echo "sd=default,threads=8,openflags=o_direct,range=(0,25)"
		for i in 0 1 2 3 4 5 6 7; do echo "sd=sd$i,lun=${LOOPS[$i]}"; done
		echo "wd=oltp,sd=sd*,xfersize=(4k,70,8k,30),rdpct=70,skew=60"
		echo "wd=scan,sd=sd*,xfersize=64k,rdpct=100,seekpct=seq,skew=25"
		echo "wd=log,sd=(sd0-sd3),xfersize=4k,rdpct=0,seekpct=seq,skew=15"
		echo "rd=rd1,wd=(oltp,scan,log),iorate=curve,curve=(20,60),elapsed=2,interval=1"
	} >loop.vdb
}

@test "eight loop devices, skewed workloads and a curve run with every engine" {
	write_parm
	# every engine that does I/O (null touches no device; its runs are tested on files)
	for e in uring aio sync; do
		run "$IORAMP" -f loop.vdb -o "out-$e" --engine "$e" --seed 5
		echo "$output" | tail -5
		[ "$status" -eq 0 ]
		[[ "$output" == *"Starting RD=rd1; I/O rate: Controlled curve"* ]]
		[[ "$output" == *"Starting RD=rd1_(60%)"* ]]
		[ "$(grep -c 'avg_2-2' <<<"$output")" -ge 3 ]
		[ -s "out-$e/results.json" ]
		grep -q 'sd7' "out-$e/flatfile.html" || [ -s "out-$e/sd7.html" ]
	done
}

@test "block 0 of a device is never written" {
	write_parm
	dd if=/dev/zero of="${LOOPS[0]}" bs=4k count=16 oflag=direct 2>/dev/null
	sed -i 's/rdpct=70/rdpct=0/; s/iorate=curve,curve=(20,60)/iorate=max/' loop.vdb
	run "$IORAMP" -f loop.vdb -o out --engine uring
	[ "$status" -eq 0 ]
	# the first 64 KiB (the largest transfer) of every device stays zero
	for dev in "${LOOPS[@]}"; do
		[ "$(dd if="$dev" bs=64k count=1 iflag=direct 2>/dev/null | tr -d '\0' | wc -c)" -eq 0 ]
	done
}

@test "a device with a file system is not written without --force" {
	mkfs.ext4 -q -F "${LOOPS[0]}" >/dev/null 2>&1 || skip "mkfs.ext4 is not available"
	write_parm
	run "$IORAMP" -f loop.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"sd=sd0: lun=${LOOPS[0]} carries a signature (ext4)"* ]]
	run "$IORAMP" -f loop.vdb -o out --engine null --force -e 2 -w 0
	[ "$status" -eq 0 ]
}

@test "formatsds=yes writes every device once, block 0 excepted" {
	write_parm
	sed -i '1i formatsds=yes' loop.vdb
	sed -i 's/iorate=curve,curve=(20,60)/iorate=max/' loop.vdb
	run "$IORAMP" -f loop.vdb -o out --engine uring -e 2 -w 0
	[ "$status" -eq 0 ]
	[[ "$output" == *"Starting RD=SD_format"* ]]
	# zeros in block 0 (the workloads' largest transfer, 64 KiB); data beyond range=(0,25),
	# where only the format writes
	[ "$(dd if="${LOOPS[7]}" bs=64k count=1 iflag=direct 2>/dev/null | tr -d '\0' | wc -c)" -eq 0 ]
	[ "$(dd if="${LOOPS[7]}" bs=128k skip=400 count=1 iflag=direct 2>/dev/null | tr -d '\0' | wc -c)" -gt 0 ]
}

@test "a device another program lets go of within a second is waited for, not refused" {
	write_parm
	sed -i 's/iorate=curve,curve=(20,60)/iorate=max/' loop.vdb
	# The holder prints once it has the device exclusively and lets go 0.2 s later, as a ring
	# the kernel tears down after its process exited does; the read returns when it holds it.
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_EXCL)
print("held", flush=True)
time.sleep(0.2)' "${LOOPS[3]}" | {
		read -r held
		[ "$held" = held ]
		run "$IORAMP" -f loop.vdb -o out --engine aio -w 0
		echo "$output" | tail -3
		[ "$status" -eq 0 ]
	}
}
