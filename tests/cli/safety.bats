#!/usr/bin/env bats
# Write safety on real block devices (loop devices): a mounted device, a mounted partition, a
# device under a mounted device-mapper device are never written (the mount point is named);
# a file system or partition table signature needs --force; a device no workload writes is
# opened read-only. Needs root and losetup (mkfs.ext4, sfdisk, dmsetup for some tests); skips
# visibly otherwise, and always unmounts and detaches what it set up.

load helpers

setup() {
	SCRATCH=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ioramp-safety.XXXXXX")
	cd "$SCRATCH" || return 1
	LOOP=
	MNT=
	DM=
	if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
		skip "needs root and losetup for loop devices"
	fi
}

teardown() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid"
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	[ -n "$DM" ] && dmsetup remove "$DM" 2>/dev/null
	if [ -n "$LOOP" ]; then
		partx -d "$LOOP" 2>/dev/null
		losetup -d "$LOOP" 2>/dev/null
	fi
	cd / && rm -rf "$SCRATCH"
}

# attach [losetup options]: a 64 MiB loop device in $LOOP.
attach() {
	truncate -s 64m disk
	LOOP=$(losetup -f --show "$@" disk 2>/dev/null) || skip "losetup cannot attach a loop device here"
}

# parm DEV RDPCT: a short run on DEV.
parm() {
	printf 'sd=sd1,lun=%s,threads=2,openflags=o_direct\nwd=wd1,sd=sd1,xfersize=4k,rdpct=%s\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
		"$1" "$2" >safe.vdb
}

mount_ext4() {
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is not available"
	mkfs.ext4 -q -F "$1" >/dev/null 2>&1 || skip "mkfs.ext4 failed on $1"
	mkdir -p mnt
	mount -t ext4 "$1" mnt 2>/dev/null || skip "mount does not work here"
	MNT=$SCRATCH/mnt
}

@test "a mounted device is never written; the message names the mount point" {
	attach
	mount_ext4 "$LOOP"
	parm "$LOOP" 50
	run "$IORAMP" -f safe.vdb -o out --force
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "safe.vdb:1:12: error: sd=sd1: lun=$LOOP is in use (mounted on $MNT); ioramp never writes to a mounted or held device" ]
	[ ! -d out ]
	# reading it is harmless: allowed
	parm "$LOOP" 100
	run "$IORAMP" -f safe.vdb -o out
	[ "$status" -eq 0 ]
}

@test "a device with a mounted partition is never written" {
	command -v sfdisk >/dev/null || skip "sfdisk is not available"
	truncate -s 64m disk
	printf 'label: dos\n,32M,L\n,,L\n' | sfdisk -q disk >/dev/null || skip "sfdisk failed"
	LOOP=$(losetup -f --show -P disk 2>/dev/null) || skip "losetup cannot attach a loop device here"
	# without udev the partition nodes may need partx
	[ -b "${LOOP}p1" ] || partx -a "$LOOP" 2>/dev/null || true
	[ -b "${LOOP}p1" ] || skip "no partition devices for $LOOP here"
	mount_ext4 "${LOOP}p1"
	parm "$LOOP" 50
	run "$IORAMP" -f safe.vdb -o out --force
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"lun=$LOOP is in use (partition ${LOOP}p1, mounted on $MNT); ioramp never writes"* ]]
	# the other partition is not mounted, but carries nothing either: only the signature rule
	parm "${LOOP}p2" 50
	run "$IORAMP" -f safe.vdb -o out
	[ "$status" -eq 0 ]
}

@test "a device under a mounted device-mapper device is never written" {
	command -v dmsetup >/dev/null || skip "dmsetup is not available"
	attach
	DM=ioramp-safety-$$
	echo "0 $((64 * 2048)) linear $LOOP 0" | dmsetup create "$DM" 2>/dev/null ||
		{ DM=; skip "device mapper does not work here"; }
	mount_ext4 "/dev/mapper/$DM"
	parm "$LOOP" 50
	run "$IORAMP" -f safe.vdb -o out --force
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"lun=$LOOP is in use (held by /dev/dm-"*", mounted on $MNT)"* ]]
}

@test "a file system signature is written only with --force, and named" {
	attach
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is not available"
	mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
	parm "$LOOP" 50
	run "$IORAMP" -f safe.vdb -o out
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "safe.vdb:1:12: error: sd=sd1: lun=$LOOP carries a signature (ext4) and a workload writes to it; expected --force to overwrite it" ]
	[ ! -d out ]
	run "$IORAMP" -f safe.vdb -o out --force
	[ "$status" -eq 0 ]
}

@test "a partition table is written only with --force, and named" {
	command -v sfdisk >/dev/null || skip "sfdisk is not available"
	attach
	printf 'label: gpt\n,16M,L\n' | sfdisk -q "$LOOP" >/dev/null 2>&1 || skip "sfdisk failed on $LOOP"
	parm "$LOOP" 0
	run "$IORAMP" -f safe.vdb -o out
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"lun=$LOOP carries a signature (gpt partition table) and a workload writes to it; expected --force"* ]]
	# reading needs no --force
	parm "$LOOP" 100
	run "$IORAMP" -f safe.vdb -o out
	[ "$status" -eq 0 ]
	parm "$LOOP" 0
	run "$IORAMP" -f safe.vdb -o out --force
	[ "$status" -eq 0 ]
}

# open_mode RDPCT: runs a workload on $LOOP and prints the access mode of ioramp's fd of it
# while it runs (from /proc/PID/fdinfo: 0 read-only, 2 read-write).
open_mode() {
	local fd flags
	printf 'sd=sd1,lun=%s,threads=2,openflags=o_direct\nwd=wd1,sd=sd1,xfersize=4k,rdpct=%s\nrd=rd1,wd=wd1,iorate=100,elapsed=600,interval=1\n' \
		"$LOOP" "$1" >long.vdb
	"$IORAMP" -f long.vdb -o "out$1" --engine sync >console.txt 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -Eq '^[0-9:.]{12} +1 ' console.txt 2>/dev/null && break
		sleep 0.1
	done
	for fd in /proc/$pid/fd/*; do
		if [ "$(readlink "$fd")" = "$LOOP" ]; then
			flags=$(awk '/^flags:/ { print $2 }' "/proc/$pid/fdinfo/${fd##*/}")
			echo $((0$flags & 3))
		fi
	done
	kill -INT "$pid"
	wait "$pid" || true
}

@test "a device no workload writes is opened read-only" {
	attach
	[ "$(open_mode 100 | sort -u)" = 0 ]
	[ "$(open_mode 50 | sort -u)" = 2 ]
}

@test "a device ioramp writes is held exclusively for the whole run: mount and a second writer are refused, readers are not" {
	attach
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is not available"
	mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1 || skip "mkfs.ext4 failed on $LOOP"
	mkdir -p mnt
	printf 'sd=sd1,lun=%s,threads=2,openflags=o_direct,range=(50,100)\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=50,elapsed=600,interval=1\n' \
		"$LOOP" >long.vdb
	"$IORAMP" -f long.vdb -o out1 --force >console.txt 2>&1 &
	pid=$!
	for _ in $(seq 150); do
		grep -Eq '^[0-9:.]{12} +1 ' console.txt && break
		sleep 0.1
	done
	grep -Eq '^[0-9:.]{12} +1 ' console.txt # writing it now
	! mount -t ext4 "$LOOP" mnt 2>mount.err || MNT=$SCRATCH/mnt
	[ -z "$MNT" ]
	parm "$LOOP" 50
	run "$IORAMP" -f safe.vdb -o out2 --force
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "safe.vdb:1:12: error: sd=sd1: lun=$LOOP is in use (held exclusively by a file system, swap, md, device mapper or another program); ioramp never writes to a mounted or held device" ]
	[ ! -d out2 ]
	parm "$LOOP" 100
	run "$IORAMP" -f safe.vdb -o out3 --force
	[ "$status" -eq 0 ]
	kill -TERM "$pid"
	wait "$pid" || status=$?
	pid=
	[ "$status" -eq 143 ]
	# released at the end: another writer may have it at once (the io_uring ring's registered
	# files are unregistered by the worker, not left to the kernel's deferred ring teardown)
	python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))' "$LOOP"
	parm "$LOOP" 50
	run "$IORAMP" -f safe.vdb -o out4 --force
	[ "$status" -eq 0 ]
}
