#!/usr/bin/env bats
# Output directory problems are found before the run (exit 2, a clear message) and never cost
# the earlier results in it: a file in the way, a read-only or full file system (small tmpfs
# mounts: root only, skipped visibly otherwise), bad parameters.

load helpers

setup() {
	SCRATCH=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ioramp-outdir.XXXXXX")
	cd "$SCRATCH" || return 1
	MNT=
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
		"$SCRATCH" >p.vdb
}

teardown() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	cd / && rm -rf "$SCRATCH"
}

# small_tmpfs SIZE [ro]: a tmpfs on $SCRATCH/fs holding out/flatfile.html from an earlier run.
small_tmpfs() {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs"
	mkdir -p fs
	mount -t tmpfs -o "size=$1" tmpfs fs 2>/dev/null || skip "cannot mount a tmpfs here"
	MNT=$SCRATCH/fs
	mkdir fs/out
	echo "earlier results" >fs/out/flatfile.html
	if [ "${2:-}" = ro ]; then
		mount -o remount,ro fs || skip "cannot remount read-only"
	fi
}

@test "a file where the output directory should be fails before the run" {
	touch afile
	run "$IORAMP" -f p.vdb -o afile --engine null
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "ioramp: error: -o afile: cannot write the reports there: Not a directory; expected a writable directory with 1 MiB free (nothing was run or deleted)" ]
	[[ "$output" != *"Starting RD"* ]]
	run "$IORAMP" -f p.vdb -o afile/sub --engine null
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp: error: -o afile/sub: cannot write the reports there: Not a directory;"* ]]
}

@test "a read-only output directory fails before the run and keeps its files" {
	small_tmpfs 4m ro
	run "$IORAMP" -f p.vdb -o fs/out --engine null
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp: error: -o fs/out: cannot write the reports there: Read-only file system;"* ]]
	[[ "$output" != *"Starting RD"* ]]
	[ "$(cat fs/out/flatfile.html)" = "earlier results" ]
}

@test "an output directory without room fails before the run and keeps its files" {
	small_tmpfs 512k
	run "$IORAMP" -f p.vdb -o fs/out --engine null
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp: error: -o fs/out: cannot write the reports there: No space left on device;"* ]]
	[ "$(cat fs/out/flatfile.html)" = "earlier results" ]
	# a new directory there is not left behind either
	run "$IORAMP" -f p.vdb -o fs/new --engine null
	[ "$status" -eq 2 ]
	[ ! -e fs/new ]
}

@test "bad parameters leave an earlier output directory untouched" {
	mkdir out
	echo "earlier results" >out/flatfile.html
	printf 'sd=sd1,lun=%s/f,size=1m,threads=0\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2\n' \
		"$SCRATCH" >bad.vdb
	run "$IORAMP" -f bad.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[ "$(cat out/flatfile.html)" = "earlier results" ]
	# a run that does write there replaces them (modelled drives: virtual time)
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	grep -q 'avg_2-2' out/flatfile.html
}
