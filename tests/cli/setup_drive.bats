#!/usr/bin/env bats
# What each SD's drive is, in results.json (runs[].sds[].drive) and in report.html's set-up
# table: a file's file system and the block device beneath, a loop device's signature from
# sysfs (root only; skips visibly otherwise), and modelled drives marked as such.

load helpers

LOOPS=()

teardown() {
	for dev in "${LOOPS[@]}"; do losetup -d "$dev" 2>/dev/null; done
	cd / && rm -rf "$SCRATCH"
}

# parm LUN: a two-second run on LUN.
parm() {
	printf '%s\n' "sd=sd1,lun=$1,size=4m" "wd=wd1,sd=sd1,rdpct=100" \
		"rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1" >d.vdb
}

# setup_row: the set-up table's row of sd1 in out/report.html.
setup_row() {
	grep '^<tr><td class="t">sd1</td>' out/report.html
}

@test "a file's drive: its file system, mount and the block device beneath, as the system says" {
	parm "$SCRATCH/f1"
	run "$IORAMP" -f d.vdb -o out --engine sync
	[ "$status" -eq 0 ]
	local j=out/results.json
	[ "$(jq -r '.runs[0].sds[0].drive.kind' $j)" = file ]
	[ "$(jq -r '.runs[0].sds[0].drive.is_modelled' $j)" = false ]
	# the file system and mount as findmnt sees them
	[ "$(jq -r '.runs[0].sds[0].drive.fs_type' $j)" = "$(findmnt -n -o FSTYPE -T "$SCRATCH/f1")" ]
	[ "$(jq -r '.runs[0].sds[0].drive.mount_point' $j)" = "$(findmnt -n -o TARGET -T "$SCRATCH/f1")" ]
	# the device beneath: the file's st_dev in sysfs, its block sizes and rotational flag
	local dev
	dev=$(stat -c '%Hd:%Ld' "$SCRATCH/f1")
	if [ -e "/sys/dev/block/$dev" ]; then
		local name sys
		name=$(basename "$(readlink -f "/sys/dev/block/$dev")")
		[ "$(jq -r '.runs[0].sds[0].drive.backing.device' $j)" = "$name" ]
		sys=$(readlink -f "/sys/dev/block/$dev")
		[ -e "$sys/partition" ] && sys=$(dirname "$sys")
		[ "$(jq -r '.runs[0].sds[0].drive.backing.logical_block_bytes' $j)" = "$(cat "$sys/queue/logical_block_size")" ]
		[ "$(jq -r '.runs[0].sds[0].drive.backing.is_rotational' $j)" = \
			"$([ "$(cat "$sys/queue/rotational")" = 1 ] && echo true || echo false)" ]
		setup_row | grep -q "; $name: "
	else
		[ "$(jq -r '.runs[0].sds[0].drive.backing' $j)" = null ]
	fi
	setup_row | grep -q "<td class=\"t\">file on $(findmnt -n -o FSTYPE -T "$SCRATCH/f1") ("
	if has_jsonschema; then
		run schema_valid $j
		[ "$output" = valid ]
	fi
}

@test "modelled drives: the model's preset and parameters, marked modelled, and nothing looked at" {
	parm "$SCRATCH/f1"
	run "$IORAMP" -f d.vdb -o out --engine model:units=3,read_us=70,write_us=90
	[ "$status" -eq 0 ]
	local j=out/results.json
	[ "$(jq -c '.runs[0].sds[0].drive | [.kind, .is_modelled, .units, .read_us, .write_us]' $j)" = \
		'["modelled",true,3,70,90]' ]
	[ "$(jq -r '.runs[0].sds[0].drive.spec' $j)" = "model:units=3,read_us=70,write_us=90" ]
	[ "$(jq -r '.runs[0].sds[0].drive | has("fs_type")' $j)" = false ]
	setup_row | grep -q '<td class="t"><b>modelled</b>: model:units=3,read_us=70,write_us=90, 3 units, 4 KiB read 70 µs, write 90 µs (not a measured drive)</td>'
	if has_jsonschema; then
		run schema_valid $j
		[ "$output" = valid ]
	fi
}

@test "a loop device's drive: its sysfs signature, block sizes and backing file" {
	if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
		skip "needs root and losetup for a loop device"
	fi
	truncate -s 64m disk0
	local dev
	dev=$(losetup -f --show --sector-size 4096 disk0 2>/dev/null) ||
		skip "losetup cannot attach a loop device here"
	LOOPS+=("$dev")
	parm "$dev"
	run "$IORAMP" -f d.vdb -o out --engine sync
	echo "$output" | tail -3
	[ "$status" -eq 0 ]
	local j=out/results.json name
	name=$(basename "$dev")
	[ "$(jq -r '.runs[0].sds[0].drive.kind' $j)" = block ]
	[ "$(jq -r '.runs[0].sds[0].drive.device' $j)" = "$name" ]
	[ "$(jq -r '.runs[0].sds[0].drive.disk' $j)" = "$name" ]
	[ "$(jq -r '.runs[0].sds[0].drive.logical_block_bytes' $j)" = 4096 ]
	[ "$(jq -r '.runs[0].sds[0].drive.physical_block_bytes' $j)" = \
		"$(cat /sys/block/$name/queue/physical_block_size)" ]
	[ "$(jq -r '.runs[0].sds[0].drive.is_rotational' $j)" = \
		"$([ "$(cat /sys/block/$name/queue/rotational)" = 1 ] && echo true || echo false)" ]
	[ "$(jq -r '.runs[0].sds[0].drive.backing_file' $j)" = "$SCRATCH/disk0" ]
	[ "$(jq -r '.runs[0].sds[0].drive.model' $j)" = null ] # a loop device has none
	setup_row | grep -q "<td class=\"t\">$name: of $SCRATCH/disk0 · 4096/[0-9]* B blocks · "
	if has_jsonschema; then
		run schema_valid $j
		[ "$output" = valid ]
	fi
}
