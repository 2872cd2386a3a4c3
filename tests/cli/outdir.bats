#!/usr/bin/env bats
# Output directory problems are found before the run (exit 2, a clear message) and never cost
# the earlier results in it: a file in the way, a read-only or full file system (small tmpfs
# mounts: root only, skipped visibly otherwise), bad parameters.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	SCRATCH=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ioramp-outdir.XXXXXX")
	cd "$SCRATCH" || return 1
	MNT=
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
		"$SCRATCH" >p.vdb
}

teardown() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid"
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	cd / && rm -rf "$SCRATCH"
}

# A flatfile of an earlier run, as ioramp begins its pages.
earlier() {
	printf '<title>Vdbench out/flatfile.html</title><pre>\nearlier results\n'
}

# small_tmpfs SIZE [ro]: a tmpfs on $SCRATCH/fs holding out/flatfile.html from an earlier run.
small_tmpfs() {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs"
	mkdir -p fs
	mount -t tmpfs -o "size=$1" tmpfs fs 2>/dev/null || skip "cannot mount a tmpfs here"
	MNT=$SCRATCH/fs
	mkdir fs/out
	earlier >fs/out/flatfile.html
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
	[ "$(cat fs/out/flatfile.html)" = "$(earlier)" ]
}

@test "an output directory without room fails before the run and keeps its files" {
	small_tmpfs 512k
	run "$IORAMP" -f p.vdb -o fs/out --engine null
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp: error: -o fs/out: cannot write the reports there: No space left on device;"* ]]
	[ "$(cat fs/out/flatfile.html)" = "$(earlier)" ]
	# a new directory there is not left behind either
	run "$IORAMP" -f p.vdb -o fs/new --engine null
	[ "$status" -eq 2 ]
	[ ! -e fs/new ]
}

@test "bad parameters leave an earlier output directory untouched" {
	mkdir out
	earlier >out/flatfile.html
	printf 'sd=sd1,lun=%s/f,size=1m,threads=0\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2\n' \
		"$SCRATCH" >bad.vdb
	run "$IORAMP" -f bad.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[ "$(cat out/flatfile.html)" = "$(earlier)" ]
	# a run that does write there replaces them (modelled drives: virtual time)
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	grep -q 'avg_2-2' out/flatfile.html
}

@test "-o on an existing directory removes only what ioramp wrote; anything else in the way refuses it, nothing touched" {
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	echo "my index" >out/index.html
	echo "my notes" >out/notes.txt
	before=$(ls out | sort)
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "ioramp: error: -o out: out/index.html is in the way: a file ioramp did not write, under a name ioramp writes (*.html, results.json, curves.csv); move it or choose another -o (nothing was run or deleted)" ]
	[[ "$output" != *"Starting RD"* ]]
	[ "$(ls out | sort)" = "$before" ]
	[ "$(cat out/index.html)" = "my index" ]
	rm out/index.html
	echo '{"mine": 1}' >out/results.json
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp: error: -o out: out/results.json is in the way: a file ioramp did not write,"* ]]
	[ "$(cat out/results.json)" = '{"mine": 1}' ]
	rm out/results.json
	mkdir out/x.html
	before=$(ls out | sort)
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp: error: -o out: out/x.html is in the way: a directory ioramp did not write,"* ]]
	[ "$(ls out | sort)" = "$before" ]
	rmdir out/x.html
	# with nothing in the way: its own reports replaced, the user's other files kept
	touch out/sd1.html.tmp
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	[ "$(cat out/notes.txt)" = "my notes" ]
	[ ! -e out/sd1.html.tmp ]
	jq -e '.runs | length == 1' out/results.json
	# file-system mode: its pages and results.json are ioramp's too
	printf 'fsd=fsd1,anchor=%s/anchor,depth=1,width=2,files=2,size=4k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=1\nrd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1\n' \
		"$SCRATCH" >f.vdb
	run "$IORAMP" -f f.vdb -o out
	[ "$status" -eq 0 ]
	[ -e out/fwd1.html ]
	run "$IORAMP" -f f.vdb -o out
	[ "$status" -eq 0 ]
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	[ ! -e out/fwd1.html ]
	[ "$(cat out/notes.txt)" = "my notes" ]
}

@test "an output file system that fills mid-run ends in an error naming each report cut short, exit 1" {
	small_tmpfs 1200k
	rm fs/out/flatfile.html
	# half an hour of one-second intervals on a modelled drive (virtual time): about 1.8 MB of
	# interval reports (more than the 1200k) before the 4.7 MB results.json
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=1800,interval=1\n' \
		"$SCRATCH" >hour.vdb
	run --separate-stderr "$IORAMP" -f hour.vdb -o fs/out --engine model
	[ "$status" -eq 1 ]
	[[ "$output" != *"completed successfully"* ]]
	for f in flatfile.html results.json summary.html; do
		grep -qx "ioramp: error: fs/out/$f: cannot write the report: No space left on device; the results in fs/out are incomplete" <<<"$stderr"
	done
	[[ "$stderr" == *"ioramp: error: fs/out: cannot write the sdreport pages: No space left on device;"* ]]
	[[ "$output" == *"fs/out/flatfile.html: cannot write the report: No space left on device"* ]]
	[ ! -e fs/out/results.json ]
	[ ! -e fs/out/results.json.tmp ]
}

@test "file-system mode: an output file system that fills mid-run is an error naming the report, results.json not left cut" {
	small_tmpfs 1200k
	rm fs/out/flatfile.html
	printf 'fsd=fsd1,anchor=%s/anchor,depth=1,width=2,files=4,size=4k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=1\nrd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=600,interval=1\n' \
		"$SCRATCH" >fsd.vdb
	"$IORAMP" -f fsd.vdb -o fs/out >console.txt 2>stderr.txt &
	pid=$!
	wait_line() {
		for _ in $(seq 150); do
			grep -Eq "^[0-9:.]{12} +$1 " console.txt && return 0
			sleep 0.1
		done
		return 1
	}
	wait_line 2
	dd if=/dev/zero of=fs/filler bs=64k 2>/dev/null || true # the file system is full now
	wait_line 4
	kill -TERM "$pid"
	wait "$pid" || status=$?
	pid=
	[ "$status" -eq 1 ]
	grep -qx "ioramp: error: fs/out/results.json: cannot write the report: No space left on device; the results in fs/out are incomplete" stderr.txt
	[ ! -e fs/out/results.json ]
	! grep -q "completed successfully" console.txt || false
}

@test "a second ioramp on the -o of one still running is refused; the first one's reports stay whole" {
	truncate -s 1m f
	sed 's/elapsed=2/elapsed=600/' p.vdb >long.vdb
	"$IORAMP" -f long.vdb -o out --engine null >first.txt 2>&1 &
	pid=$!
	for _ in $(seq 150); do # the first interval on the console: it holds out/ now
		grep -Eq '^[0-9:.]{12} +1 ' first.txt && break
		sleep 0.1
	done
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[[ "$output" == "ioramp: error: -o out: out is in use: another ioramp is writing its reports there now;"* ]]
	# the first one's files were not deleted under it
	[ -s out/flatfile.html ] && [ -s out/logfile.html ]
	kill -INT "$pid"
	wait "$pid" || true
	pid=
	jq -e '.runs[0].is_interrupted' out/results.json
	# free again once it ended
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 0 ]
}
