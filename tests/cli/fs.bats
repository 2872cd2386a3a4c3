#!/usr/bin/env bats
# File-system mode (fsd=, fwd=): the -s listing, the anchor tree the format pass lays out, the
# safety rules and that each operation does its system calls. Real small trees in the scratch
# directory; counts of files, directories and operations are asserted, never a rate or a time.

load helpers

tree_parm() {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/dir1,depth=2,width=2,files=3,size=(4k,50,16k,50)
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=100,format=yes,elapsed=2,interval=1
PARM
}

@test "fs: -s lists anchors and runs as VDbench does" {
	tree_parm
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	# VDbench 5.04.07's line for this file, sizes included
	[[ "$output" == *"Anchor size: anchor=$SCRATCH/a/dir1: dirs:            6; files:           12; bytes:   132.000k (135,168)"* ]]
	[[ "$output" == *"Simulating RD=format_for_rd1"* ]]
	[[ "$output" == *"Simulating RD=rd1; elapsed=2; fwdrate=100; For loops: None"* ]]
	[[ "$output" == *"Total amount of Run Definitions: 2; total elapsed time 2 seconds"* ]]
	[ ! -e "$SCRATCH/a" ] # -s touches nothing
}

@test "fs: format lays out VDbench's tree; files only in the deepest directories" {
	tree_parm
	mkdir -p "$SCRATCH/a"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	d=$SCRATCH/a/dir1
	[ -f "$d/vdb_control.file" ]
	[ "$(find "$d" -type d -name 'vdb.*.dir' | wc -l)" -eq 6 ]
	[ "$(find "$d" -type f -name 'vdb_f*.file' | wc -l)" -eq 12 ]
	[ "$(find "$d" -mindepth 2 -maxdepth 2 -type f | wc -l)" -eq 0 ]
	# VDbench's numbering: leaf (1,1) holds 0-2, (2,1) 3-5, (1,2) 6-8, (2,2) 9-11
	[ -f "$d/vdb.1_1.dir/vdb.2_1.dir/vdb_f0000.file" ]
	[ -f "$d/vdb.1_2.dir/vdb.2_1.dir/vdb_f0003.file" ]
	[ -f "$d/vdb.1_1.dir/vdb.2_2.dir/vdb_f0008.file" ]
	[ -f "$d/vdb.1_2.dir/vdb.2_2.dir/vdb_f0011.file" ]
	# every file has the size VDbench 5.04.07 gives it (observed on this tree): 16k for
	# 0, 5-7 and 9-11, 4k for the others
	[ "$(cd "$d" && find . -name 'vdb_f*.file' -printf '%f %s\n' | sort | awk '{ printf "%s ", $2 / 1024 }')" = \
		"16 4 4 4 4 16 16 16 4 16 16 16 " ]
	[[ "$output" == *"FILE_CREATES        Files created:                                   12"* ]]
	[[ "$output" == *"DIRECTORY_CREATES   Directories created:                              6"* ]]
	[[ "$output" == *"..Interval.. .ReqstdOps... ...cpu%...  read ....read....."* ]]
	[[ "$output" == *"avg_2-2"* ]]
}

@test "fs: the run writes summary, logfile, parmfile and totals in -o, as a raw run" {
	tree_parm
	mkdir -p "$SCRATCH/a"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	for f in summary logfile parmfile totals anchors; do [ -s "out/$f.html" ]; done
	grep -q 'avg_2-2' out/summary.html
	grep -q 'Starting RD=rd1; elapsed=2; fwdrate=100' out/logfile.html
	grep -q 'FILE_CREATES        Files created:' out/logfile.html
	! grep -q 'FILE_CREATES' out/summary.html || false # VDbench's summary: interval lines only
	grep -q 'fwd=fwd1,fsd=fsd1,operation=read' out/parmfile.html
	grep -q '<a name="_[0-9]*"></a><i><b>[0-9:.]* Starting RD=rd1; elapsed=2; fwdrate=100; For loops: None</b></i>' out/totals.html
	[ "$(grep -c 'avg_2-2' out/totals.html)" -eq 1 ]
	[ "$(grep -c 'avg_2-1' out/totals.html)" -eq 1 ] # the format run's
	[[ "$output" == *"Vdbench execution completed successfully. Output directory: $PWD/out "* ]]
	# -o rules as raw runs: name+ takes the next free name001
	run "$IORAMP" -f p.vdb -o 'more+'
	[ "$status" -eq 0 ]
	[ -s more001/summary.html ]
	[[ "$output" == *"Output directory: $PWD/more001 "* ]]
	# a file in the way is refused before anything runs, exit 2 as for raw runs
	touch afile
	run "$IORAMP" -f p.vdb -o afile
	[ "$status" -eq 2 ]
	[[ "$output" == *"-o afile: cannot write the reports there: Not a directory"* ]]
}

# VDbench 5.04.07 (observed, fsd with 4 files of 64k, read at fwdrate=100, format=yes, 3 s):
# swat_mon.bin is Swat's binary record format, not Java serialization: big-endian records of
# 0xEEEE, type, version and length in 8-byte words; a header with the start in ms twice and the
# time zone's ID, a class record and 34 column names, then per interval (the format's one and
# the run's three, never an average) the class record and 36 longs: the end in ms, the
# interval in microseconds, each column x 1,000,000 (2368 bytes, as VDbench's).
@test "fs: swat_mon.bin in VDbench's record format, one data record per interval; the slave in logfile.html" {
	mkdir -p "$SCRATCH/s"
	cat >sw.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/s/a,depth=1,width=1,files=4,size=64k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=1
rd=rd1,fwd=fwd1,fwdrate=100,format=yes,elapsed=3,interval=1
PARM
	TZ=Etc/UTC run "$IORAMP" -f sw.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(stat -c %s out/swat_mon.bin)" -eq 2368 ]
	python3 - out/swat_mon.bin >got <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
i = 0
while i < len(b):
    magic, typ, ver, words = struct.unpack('>HBBI', b[i:i + 8])
    assert magic == 0xeeee and words * 8 <= len(b) - i
    body = b[i + 8:i + 8 * words]
    if typ == 1:
        n = struct.unpack('>H', body[24:26])[0]
        print('header', ver, body[26:26 + 2 * n].decode('utf-16-be'))
    elif typ == 0x2d:
        n = struct.unpack('>H', body[4:6])[0]
        print('class', body[6:6 + 2 * n].decode('utf-16-be'))
    elif typ == 0x2e:
        cnt, j, names = struct.unpack('>I', body[:4])[0], 4, []
        for _ in range(cnt):
            n = struct.unpack('>H', body[j:j + 2])[0]
            names.append(body[j + 2:j + 2 + 2 * n].decode('utf-16-be'))
            j += 2 + 2 * n
        print('names', cnt, names[0], names[7], names[-1])
    else:
        cnt = struct.unpack('>I', body[:4])[0]
        v = struct.unpack('>%dq' % cnt, body[8:8 + 8 * cnt])
        print('data', cnt, v[1], v[2], v[9])
    i += 8 * words
PY
	# the figures of summary.html's interval lines: read rate x 10^6, the transfer size
	local r1 r2 r3
	read -r r1 r2 r3 < <(awk '$2 ~ /^[0-9]+$/ && $7 == "100.0" { printf "%d ", $8 * 1000000 } END { print "" }' out/summary.html)
	cat >want <<W
header 1 Etc/UTC
class Utils.FwdNamedData/Vdbench
names 34 Read_rate Xfersize Put_resp
class Utils.FwdNamedData/Vdbench
data 36 1000000 0 65536000000
class Utils.FwdNamedData/Vdbench
data 36 1000000 $r1 4096000000
class Utils.FwdNamedData/Vdbench
data 36 1000000 $r2 4096000000
class Utils.FwdNamedData/Vdbench
data 36 1000000 $r3 4096000000
W
	diff want got
	# logfile.html (observed): the slave starts after the anchors' lines, before the run links;
	# the slaves synchronize before each run
	sed -E 's/^[0-9:.]{12} //' out/logfile.html | grep -oE '^(Anchor size|Starting slave|Slave localhost-0|All slaves|Link to Run|Waiting for sync|Synchronization of|<a name)' |
		paste -sd'|' >order
	[ "$(cat order)" = "Anchor size|Starting slave|Slave localhost-0|All slaves|Link to Run|Waiting for sync|Synchronization of|<a name|Waiting for sync|Synchronization of|<a name" ]
	[ "$(grep -c '^<a name=' out/logfile.html)" -eq 2 ]
	grep -B2 '^<a name=' out/logfile.html | grep -c 'Synchronization of all slaves complete$' | grep -qx 2
	# the console (observed): the slave's start and "All slaves" after the anchors' sizes, before
	# the anchors made and the first run; logfile.html has them, with the connection, there too
	sed -E 's/^[0-9:.]{12} //' <<<"$output" | grep -oE '^(Anchor size|Starting slave|Slave localhost-0|All slaves|localhost-0: Created anchor|Starting RD)' |
		paste -sd'|' >order
	[ "$(cat order)" = "Anchor size|Starting slave|All slaves|localhost-0: Created anchor|Starting RD|Starting RD" ]
	[ "$(grep -c 'Starting slave: ' out/logfile.html)" -eq 1 ]
	sed -E 's/^[0-9:.]{12} //' out/logfile.html | grep -oE '^(Anchor size|Starting slave|Slave localhost-0|All slaves|localhost-0: Created anchor)' |
		paste -sd'|' >order
	[ "$(cat order)" = "Anchor size|Starting slave|Slave localhost-0|All slaves|localhost-0: Created anchor" ]
}

@test "fs: results.json holds mode filesystem, each run's intervals, average and operations" {
	tree_parm
	sed -i 's/elapsed=1,interval=1/elapsed=2,interval=1/' p.vdb
	mkdir -p "$SCRATCH/a"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	run python3 -c '
import json, sys
d = json.load(open("out/results.json"))
assert d["mode"] == "filesystem", d["mode"]
assert d["status"] == 0
assert [r["rd"] for r in d["runs"]] == ["rd1"], d["runs"]
r = d["runs"][0]
assert r["fwdrate"] == 100 and r["elapsed"] == 2
assert len(r["intervals"]) == 2
for s in r["intervals"] + [r["average"]]:
    for k in ("ops_rate", "read_rate", "read_resp_ms", "write_rate", "write_resp_ms", "mbs"):
        assert k in s, k
    assert set(s["operations"]) >= {"read", "write", "getattr", "create"}
    assert s["operations"]["write"]["rate"] == 0 and s["write_rate"] == 0
'
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "fs: flatfile.html has VDbench's file-system columns, a row per interval and average" {
	tree_parm
	sed -i 's/elapsed=1,interval=1/elapsed=2,interval=1/' p.vdb
	mkdir -p "$SCRATCH/a"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	hdr=$(grep -v '^\*' out/flatfile.html | sed -n 2p)
	[[ "$hdr" == *" Run Interval Xfersize Threads Reqrate Rate Rate_std Rate_max Resp Resp_std Resp_max MB/sec MB_read MB_write Read_rate "* ]]
	[[ "$hdr" == *" Getattr_rate Getattr_rate_std Getattr_rate_max Getattr_resp Getattr_resp_std Getattr_resp_max Setattr_rate "* ]]
	[[ "$hdr" == *" Access_resp_max Compratio Dedupratio cpu_used cpu_user cpu_kernel cpu_wait cpu_idle "* ]]
	[ "$(echo "$hdr" | awk '{print NF}')" -eq 89 ]
	all=$(grep -v '^\*' out/flatfile.html | sed -n '3,$p')
	[ "$(echo "$all" | wc -l)" -eq 5 ]
	[ "$(echo "$all" | awk 'NF != 89' | wc -l)" -eq 0 ]
	# the format run's rows first (VDbench writes them): its one interval did the 12 writes
	# of 4k or 16k (Rate, Write_rate 12; Xfersize their average), its average is over no
	# interval (avg_2-1: NaN rates, as VDbench)
	echo "$all" | awk 'NR == 1 && !($3 == "format_for_rd1" && $4 == 1 && $7 == 9999988 && $8 == 12 && $23 == 12 && ($5 == 4096 || $5 == 16384 || ($5 > 4096 && $5 < 16384))) { exit 1 }'
	echo "$all" | awk 'NR == 2 && !($3 == "format_for_rd1" && $4 == "avg_2-1" && $5 == 0 && $8 == "NaN" && $85 == "NaN") { exit 1 }'
	rows=$(echo "$all" | sed -n '3,$p')
	# columns: 3 Run, 4 Interval, 5 Xfersize, 7 Reqrate, 8 Rate, 10 Rate_max, 23 Write_rate
	echo "$rows" | awk 'NR <= 2 && !($3 == "rd1" && $4 == NR && $5 == 4096 && $7 == 100 && $10 == 0 && $23 == 0) { exit 1 }'
	# the average row (avg_2-2: interval 2 only) takes its Rate and Rate_max from interval 2
	i2=$(echo "$rows" | awk 'NR == 2 { print $8 }')
	echo "$rows" | awk -v r="$i2" 'NR == 3 && !($4 == "avg_2-2" && $8 == r && $10 == r && $9 == 0) { exit 1 }'
}

@test "fs: each fwd has its own report page with its own operations" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/dir1,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=1
fwd=fwd2,fsd=fsd1,operation=getattr,threads=1
rd=rd1,fwd=fwd*,fwdrate=100,format=yes,elapsed=2,interval=1
PARM
	mkdir -p "$SCRATCH/a"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	grep -q 'HREF="fwd1.html"' out/summary.html
	grep -q 'HREF="fwd2.html"' out/summary.html
	grep -q 'Starting RD=rd1; elapsed=2; fwdrate=100; For loops: None' out/fwd1.html
	# field 8 is the read rate: fwd1 reads, fwd2 only does getattr
	awk '$2 == "avg_2-2" { found = 1; if ($8 + 0 <= 0) exit 1 } END { exit !found }' out/fwd1.html
	awk '$2 == "avg_2-2" { found = 1; if ($8 + 0 != 0) exit 1 } END { exit !found }' out/fwd2.html
}

@test "fs: an anchor is created only inside a directory that exists" {
	tree_parm
	run "$IORAMP" -f p.vdb -o out
	# refused before anything is written: located, exit 2, no output directory
	[ "$status" -eq 2 ]
	[[ "$output" == "p.vdb:1:17: error: fsd=fsd1: anchor=$SCRATCH/a/dir1: its parent directory $SCRATCH/a does not exist"* ]]
	[ ! -e "$SCRATCH/a" ] && [ ! -e out ]
	# an anchor that is a file
	mkdir -p "$SCRATCH/a" && touch "$SCRATCH/a/dir1"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 2 ]
	[[ "$output" == *"anchor=$SCRATCH/a/dir1 is not a directory"* ]]
	[ ! -e out ]
}

@test "fs: format=clean removes only what ioramp names (vdb.*.dir, vdb_f*.file)" {
	mkdir -p "$SCRATCH/c/vdb.1_1.dir"
	echo keep >"$SCRATCH/c/mine.txt"
	echo keep >"$SCRATCH/c/vdb.1_1.dir/notes"
	touch "$SCRATCH/c/vdb_f0000.file"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/c,depth=1,width=1,files=1,size=4k
fwd=fwd1,fsd=fsd1,operation=read
rd=rd1,fwd=fwd1,fwdrate=10,format=clean,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ -f "$SCRATCH/c/mine.txt" ]
	[ -f "$SCRATCH/c/vdb.1_1.dir/notes" ] # a directory of ours that holds other files stays
	[ ! -e "$SCRATCH/c/vdb_f0000.file" ]
}

@test "fs: delete and rmdir do their system calls on the formatted tree" {
	mkdir -p "$SCRATCH/d"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/d/t,depth=1,width=2,files=5,size=4k
fwd=default,fsd=fsd1,threads=1
fwd=fwd0,operation=read
fwd=fwd1,operation=delete
fwd=fwd2,operation=rmdir
rd=format,fwd=fwd0,fwdrate=1,format=yes,elapsed=2,interval=1
rd=rd_delete,fwd=fwd1,fwdrate=max,elapsed=30,interval=1
rd=rd_rmdir,fwd=fwd2,fwdrate=max,elapsed=30,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(find "$SCRATCH/d/t" -name 'vdb_f*.file' | wc -l)" -eq 0 ]
	[ "$(find "$SCRATCH/d/t" -name 'vdb.*.dir' | wc -l)" -eq 0 ]
	[ -f "$SCRATCH/d/t/vdb_control.file" ]
	# as VDbench: with nothing left to delete (and no thread creating more) the threads end
	# and so does the run, long before its elapsed=30 intervals, saying why
	[[ "$output" == *"Vdbench is trying to delete a file, but no files are available, and no"* ]]
	[[ "$output" == *"Shutting down threads for operation=delete"* ]]
	[[ "$output" == *"Shutting down threads for operation=rmdir"* ]]
	for rd in rd_delete rd_rmdir; do
		last=$(sed -n "/Starting RD=$rd;/,/Miscellaneous/p" <<<"$output" | awk '$2 ~ /^avg_/ { sub(/.*-/, "", $2); print $2 }')
		[ -n "$last" ] && [ "$last" -lt 30 ] || { echo "$rd ran $last intervals"; false; }
	done
}

@test "fs: getattr, create and mkdir count their operations" {
	mkdir -p "$SCRATCH/g"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/g/t,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=mkdir
fwd=fwd2,fsd=fsd1,operation=create
rd=rd1,fwd=(fwd1,fwd2),fwdrate=max,format=(yes,directories),elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(find "$SCRATCH/g/t" -name 'vdb_f*.file' | wc -l)" -eq 4 ]
}

@test "fs: bad fs parameters are located errors with exit 2" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/x,depth=1,width=2,files=2,size=(4k,60,8k,30)
fwd=fwd1,fsd=fsd1,operation=read
rd=rd1,fwd=fwd1,fwdrate=10,elapsed=1
PARM
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:1:"*"error: sizes="*"add up to 90; expected 100"* ]]
	printf 'fsd=fsd1,anchor=/tmp/x,size=4k\nfwd=fwd1,fsd=fsd1,operation=readx\nrd=rd1,fwd=fwd1\n' >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"q.vdb:2:"*"'readx' is not an operation"* ]]
	printf 'fsd=fsd1,anchor=/tmp/x,size=4k\nfwd=fwd1,fsd=fsdz\nrd=rd1,fwd=fwd1\n' >r.vdb
	run "$IORAMP" -f r.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"r.vdb:2:"*"fsd=fsdz names no fsd"* ]]
}

@test "fs: anchors.html holds each run's anchor status" {
	tree_parm
	mkdir -p "$SCRATCH/a"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	grep -q "Anchor status report" out/anchors.html
	grep -q "Starting RD=format_for_rd1" out/anchors.html
	# at the start of rd1 the format has made all 12 files and 6 directories
	[ "$(grep -A2 'Starting RD=rd1' out/anchors.html | grep -c "$SCRATCH/a/dir1 *12 *6 .* 12 *6 ")" -eq 1 ]
}

# Runs p.vdb in the background, waits for interval $1's line on the console (output, not
# time, is awaited), sends SIGINT: exit 130.
interrupt_at_interval() {
	mkdir -p "$SCRATCH/a"
	"$IORAMP" -f p.vdb -o out >console.txt 2>err.txt &
	pid=$!
	for _ in $(seq 150); do
		grep -Eq "^[0-9:.]{12} +$1 " console.txt && break
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid" || status=$?
	[ "${status:-0}" -eq 130 ]
}

@test "fs: SIGINT ends the run at its last whole interval and writes every report" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/dir1,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=1
rd=rd1,fwd=fwd1,fwdrate=100,format=yes,elapsed=600,interval=1
rd=rd2,fwd=fwd1,fwdrate=100,format=no,elapsed=600,interval=1
PARM
	interrupt_at_interval 2
	grep -q "^interrupted (SIGINT); results in .*out" err.txt
	! grep -q 'completed successfully' console.txt || false
	jq -e . out/results.json >/dev/null
	[ "$(jq '.status' out/results.json)" -eq 130 ]
	# rd1 only: no later run starts after the signal
	[ "$(jq '.runs | length' out/results.json)" -eq 1 ]
	[ "$(jq '.runs[0].is_interrupted' out/results.json)" = true ]
	[ "$(jq '.runs[0].intervals | length' out/results.json)" -ge 2 ]
	grep -Eq '^[0-9:.]{12} +avg_2-' out/summary.html
	grep -Eq 'avg_2-' out/totals.html
}

@test "fs: SIGINT before an interval was averaged: no avg_ line for the run, average null" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/dir1,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=1
rd=rd1,fwd=fwd1,fwdrate=100,format=yes,elapsed=600,warmup=300,interval=1
PARM
	# every interval of rd1 is warmup, so whenever the signal lands none is averaged
	interrupt_at_interval 1
	# the format's average (no counted interval: NaN, as VDbench) and none for rd1
	[ "$(grep -c 'avg_' console.txt)" -eq 1 ]
	[ "$(grep -c 'avg_' out/totals.html)" -eq 1 ]
	! grep -q ' rd1  avg_' out/flatfile.html || false
	[ "$(jq '.runs[0].average' out/results.json)" = null ]
	[ "$(jq '.runs[0].limited_by' out/results.json)" = null ]
}

# The pages VDbench writes for fs runs (<fsd>.html, <fwd>.html, format.html and their
# histograms, histogram.html), masked as tests/data/fsfiles/mask does, against golden copies
# that tests/data/fsfiles/regen-vdbench.sh checks with VDbench 5.04.07. IORAMP_UPDATE_GOLDEN=1
# rewrites them. prep.vdb lays the trees out first, so run.vdb has a fixed number of intervals.
@test "fs: per-fsd and per-fwd pages and histograms in VDbench's layout (golden)" {
	local data=$TESTS/data/fsfiles f b n=0
	# a relative anchor: anchors.html lists the trees in VDbench's HashMap order of their
	# names, which an absolute scratch path would change from one run to the next
	mkdir fsroot
	TZ=UTC run "$IORAMP" -f "$data/prep.vdb" -o prep dir=fsroot
	[ "$status" -eq 0 ]
	TZ=UTC run "$IORAMP" -f "$data/run.vdb" -o out dir=fsroot
	[ "$status" -eq 0 ]
	for f in out/fsd*.html out/fwd*.html out/histogram.html out/totals.html out/summary.html \
		out/anchors.html out/flatfile.html out/localhost.html out/localhost-0.html \
		out/skew.html out/parmscan.html out/errorlog.html out/localhost.var_adm_msgs.html; do
		b=$(basename "$f")
		"$data/mask" "$SCRATCH" "$f" >"$b.masked"
		if [ -n "${IORAMP_UPDATE_GOLDEN:-}" ]; then
			cp "$b.masked" "$data/golden/$b.masked"
		fi
		diff -u "$data/golden/$b.masked" "$b.masked"
		n=$((n + 1))
	done
	[ "$n" -eq "$(ls "$data/golden" | wc -l)" ]
	# the histograms count the requested operations of the counted intervals (avg_2-3 of
	# rd1: two seconds), so their total is the avg line's ReqstdOps rate times two
	rate=$(awk '$2 == "avg_2-3" { print $3; exit }' out/summary.html)
	count=$(awk '/Starting RD=rd1/ { on = 1 } /Starting RD=rd2/ { on = 0 }
		on && / < / { c += $4 } END { print c }' out/histogram.html)
	[ "$(echo "$rate * 2" | bc | cut -d. -f1)" -eq "$count" ]
	# fsd2 serves only fwd2's getattr: no reads on its page; fwd1's page has no getattr
	awk '$2 == "avg_2-3" { found = 1; if ($8 + 0 != 0 || $20 + 0 <= 0) exit 1 }
		END { exit !found }' out/fsd2.html
	awk '$2 == "avg_2-3" { found = 1; if ($8 + 0 <= 0 || $20 + 0 != 0) exit 1 }
		END { exit !found }' out/fwd1.html
	# rd2 does not use fwd2: its histogram has rd2's anchor and no section after it
	[ "$(sed -n '/Starting RD=rd2/,$p' out/fwd2.histogram.html | grep -c 'Total of all')" -eq 0 ]
}

@test "fs: the format run has its pages and flatfile rows: every file written once" {
	local data=$TESTS/data/fsfiles
	run "$IORAMP" -f "$data/prep.vdb" -o prep "dir=$SCRATCH"
	[ "$status" -eq 0 ]
	grep -q '^Report for fwd format$' prep/format.html
	grep -q 'Starting RD=format_for_prep</b></i>$' prep/format.html
	grep -q 'HREF="format.html">format</A>' prep/summary.html
	grep -q 'HREF="fsd2.html">fsd2</A>' prep/summary.html
	# 2 anchors x 4 files of 8k, one write each: the interval rows' writes add up to 8 (the
	# flatfile's Write_rate, column 23, times the 1 s interval), 4 on each fsd's page
	[ "$(grep -v '^\*' prep/flatfile.html | awk '$3 == "format_for_prep" && $4 ~ /^[0-9]+$/ { w += $23 } END { print w }')" -eq 8 ]
	for f in fsd1 fsd2; do
		[ "$(awk '$2 ~ /^[0-9]+$/ { w += $10 } END { print w }' prep/$f.html)" -eq 4 ]
	done
	[ "$(awk '$2 ~ /^[0-9]+$/ { w += $10 } END { print w }' prep/format.html)" -eq 8 ]
	# the format's average leaves its first interval out, as VDbench; one interval: NaN
	grep -v '^\*' prep/flatfile.html | awk '$3 == "format_for_prep" && $4 ~ /^avg_2-/ { found = 1 }
		END { exit !found }'
}

# distribution=all as VDbench 5.04.07 lays it out (observed): files= in every directory,
# numbered in directory order, level 1 first, the level-1 position varying fastest.
@test "fs: distribution=all puts files in every directory, numbered as VDbench does" {
	mkdir -p "$SCRATCH/t"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/t/all,depth=2,width=2,files=2,size=4k,distribution=all
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=1
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"anchor=$SCRATCH/t/all: dirs:            6; files:           12; bytes:      49152 (49,152)"* ]]
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	d=$SCRATCH/t/all
	[ "$(cd "$d" && find . -name 'vdb_f*.file' | sort | tr '\n' ' ')" = \
		"./vdb.1_1.dir/vdb.2_1.dir/vdb_f0004.file ./vdb.1_1.dir/vdb.2_1.dir/vdb_f0005.file ./vdb.1_1.dir/vdb.2_2.dir/vdb_f0008.file ./vdb.1_1.dir/vdb.2_2.dir/vdb_f0009.file ./vdb.1_1.dir/vdb_f0000.file ./vdb.1_1.dir/vdb_f0001.file ./vdb.1_2.dir/vdb.2_1.dir/vdb_f0006.file ./vdb.1_2.dir/vdb.2_1.dir/vdb_f0007.file ./vdb.1_2.dir/vdb.2_2.dir/vdb_f0010.file ./vdb.1_2.dir/vdb.2_2.dir/vdb_f0011.file ./vdb.1_2.dir/vdb_f0002.file ./vdb.1_2.dir/vdb_f0003.file " ]
	[[ "$output" == *"FILE_CREATES        Files created:                                   12"* ]]
	# the reads found the files of the upper levels too: opens and no failures
	awk '$2 == "avg_2-2" { found = 1; if ($8 + 0 <= 0) exit 1 } END { exit !found }' out/fwd1.html
}

# totalsize=: -s lists the whole tree as VDbench does; the format creates files (in number
# order; VDbench picks its own) until their bytes reach the total, and says so.
@test "fs: totalsize= stops the format once the files reach the total" {
	mkdir -p "$SCRATCH/t"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/t/tot,depth=1,width=2,files=5,size=4k,totalsize=18k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=1
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"anchor=$SCRATCH/t/tot: dirs:            2; files:           10; bytes:      40960 (40,960)"* ]]
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[[ "$output" == *"Created totalsize=  18.0k using            5 of           10 files for anchor=$SCRATCH/t/tot"* ]]
	# 4 files are 16k, under 18k; the fifth reaches it
	[ "$(find "$SCRATCH/t/tot" -name 'vdb_f*.file' | wc -l)" -eq 5 ]
	# the five VDbench 5.04.07 makes on this tree (observed): its Random(0) pick, not the first
	[ "$(cd "$SCRATCH/t/tot" && find . -name 'vdb_f*.file' | sort | tr '\n' ' ')" = \
		"./vdb.1_1.dir/vdb_f0002.file ./vdb.1_1.dir/vdb_f0003.file ./vdb.1_2.dir/vdb_f0005.file ./vdb.1_2.dir/vdb_f0006.file ./vdb.1_2.dir/vdb_f0007.file " ]
	[[ "$output" == *"FILE_CREATES        Files created:                                    5"* ]]
	# the work run reads only what exists: no open fails, every open is a read open
	# (the control file's file status, "= N" being N more like the line above)
	[ "$(awk '/^file status/ { on = 1; next } /^checksum/ { on = 0 }
		on && $1 == "=" { for (i = 0; i < $2; i++) print prev; next } on { print; prev = $0 }' \
		"$SCRATCH/t/tot/vdb_control.file" | grep -c '^f$')" -eq 5 ]
	# two sizes, two trees (VDbench's picks, observed): the draws go on past files taken
	# until the bytes reach the total
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/t/a,depth=1,width=2,files=5,size=(4k,50,8k,50),totalsize=30k
fsd=fsd2,anchor=$SCRATCH/t/b,depth=1,width=2,files=10,size=(4k,50,8k,50),totalsize=50k
fwd=fwd1,fsd=fsd*,operation=read,xfersize=4k,threads=1
rd=rd1,fwd=fwd1,fwdrate=10,format=only,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out2
	[ "$status" -eq 0 ]
	[ "$(cd "$SCRATCH/t/a" && find . -name 'vdb_f*' -printf '%f:%s ' | tr ' ' '\n' | sort | tr '\n' ' ')" = \
		"vdb_f0002.file:4096 vdb_f0003.file:4096 vdb_f0005.file:8192 vdb_f0006.file:8192 vdb_f0007.file:8192 " ]
	[ "$(cd "$SCRATCH/t/b" && find . -name 'vdb_f*' -printf '%f ' | tr ' ' '\n' | sort | tr '\n' ' ')" = \
		"vdb_f0004.file vdb_f0006.file vdb_f0007.file vdb_f0011.file vdb_f0012.file vdb_f0014.file vdb_f0017.file vdb_f0019.file " ]
	# anchors.html's Total size group: those files
	grep -Eq "^$SCRATCH/t/a +10 +2 +60.0k +5 +2 +32.0k " out2/anchors.html
	grep -Eq "^$SCRATCH/t/b +20 +2 +128.0k +8 +2 +56.0k " out2/anchors.html
}

@test "fs: two anchors or more: the estimated totals line, as VDbench" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/t/a,depth=2,width=2,files=2,size=4k,distribution=all
fsd=fsd2,anchor=$SCRATCH/t/b,depth=1,width=2,files=5,size=6k
fwd=fwd1,fsd=fsd*,operation=read
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *" Estimated totals for all 2 anchors: dirs: 8; files: 22; bytes: 108.000k "* ]]
}

@test "fs: format=(no,complete) takes the tree as formatted without looking" {
	mkdir -p "$SCRATCH/t"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/t/c,depth=1,width=2,files=5,size=4k
fwd=fwd1,fsd=fsd1,operation=getattr,threads=1
rd=prep,fwd=fwd1,fwdrate=10,format=(only),elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o prep
	[ "$status" -eq 0 ]
	rm "$SCRATCH/t/c/vdb.1_2.dir/vdb_f0009.file"
	sed -i 's/^rd=prep.*/rd=rd1,fwd=fwd1,fwdrate=10,format=(no,complete),elapsed=2,interval=1\nrd=rd2,fwd=fwd1,fwdrate=10,format=no,elapsed=2,interval=1/' p.vdb
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# anchors.html: rd1 starts with all 10 files taken as there, rd2 looks and finds 9
	grep -A2 'Starting RD=rd1' out/anchors.html | grep -q "$SCRATCH/t/c *10 *2 .* 10 *2 "
	grep -A2 'Starting RD=rd2' out/anchors.html | grep -q "$SCRATCH/t/c *10 *2 .* 9 *2 "
}

@test "fs: format=limited ends the format at elapsed=; format=(restart,only) goes on" {
	mkdir -p "$SCRATCH/t"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/t/l,depth=1,width=2,files=50,size=4k
fwd=fwd1,fsd=fsd1,operation=read
rd=rd1,fwd=fwd1,fwdrate=max,format=(only,limited),elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Simulating RD=format_for_rd1"* ]]
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# never more than elapsed=2 intervals (a fast machine is done within the first)
	grep -Eq 'avg_2-[12] ' out/summary.html
	sed -i 's/format=(only,limited)/format=(restart,only)/' p.vdb
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(find "$SCRATCH/t/l" -name 'vdb_f*.file' -size 4k | wc -l)" -eq 100 ]
}

@test "fs: format= combinations VDbench refuses are located errors with exit 2" {
	for fmt in limited '(yes,limited)' complete; do
		printf 'fsd=fsd1,anchor=%s/x,size=4k\nfwd=fwd1,fsd=fsd1\nrd=rd1,fwd=fwd1,format=%s\n' \
			"$SCRATCH" "$fmt" >q.vdb
		run "$IORAMP" -f q.vdb -s
		[ "$status" -eq 2 ]
		[[ "$output" == *"q.vdb:3:"*"error: format=$fmt: "* ]]
	done
	[[ "$output" == *"expected format=(no,complete)"* ]]
	# format=directories alone is a format run (directories only), as VDbench lists it
	printf 'fsd=fsd1,anchor=%s/x,size=4k\nfwd=fwd1,fsd=fsd1\nrd=rd1,fwd=fwd1,fwdrate=max,format=directories,elapsed=2,interval=1\n' "$SCRATCH" >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Simulating RD=format_for_rd1"* ]]
	# shared=yes: other hosts use the tree; VDbench refuses a format that cleans it
	printf 'fsd=fsd1,anchor=%s/x,size=4k,shared=yes\nfwd=fwd1,fsd=fsd1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes\n' "$SCRATCH" >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"q.vdb:3:"*"format=yes is not allowed for shared FSDs (fsd=fsd1 has shared=yes)"* ]]
	sed -i 's/format=yes/format=(clean,only)/' q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
}

# fwdrate=curve: the raw runs' curves.csv, report.html and end-of-curve block, from the
# file-system runs' figures. Asserted: the relations that hold by construction (each point's
# target is its share of the max run's rate, target_met and limited_by agree with the rates),
# never a rate.
@test "fs: fwdrate=curve writes curves.csv and report.html with IOPS at latency and validity" {
	mkdir -p "$SCRATCH/t"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/t/c,depth=1,width=2,files=4,size=64k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=curve,curve=(20,50),format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[[ "$output" == *"Curve rd1: 2 points; peak "* ]]
	# the max run's line says curve, as VDbench 5.04.07's
	[[ "$output" == *" Starting RD=rd1; elapsed=2; fwdrate=curve. For loops: None"* ]]
	[[ "$output" == *"IOPS at latency (service time; points joined by straight lines):"* ]]
	[ -s out/report.html ]
	grep -q 'IOPS at latency' out/report.html
	grep -q 'rd1_(50%)' out/report.html
	head -1 out/curves.csv | grep -q '^curve,curve_name,run,pct,target_iops,iops,.*,target_met,limited_by$'
	run python3 - <<'PY'
import csv, json, math
max_rate = [r["average"]["ops_rate"] for r in json.load(open("out/results.json"))["runs"] if r["rd"] == "rd1"][0]
rows = list(csv.DictReader(open("out/curves.csv")))
assert [r["run"] for r in rows] == ["rd1_(20%)", "rd1_(50%)"], rows
for r in rows:
    t = math.floor(max_rate * float(r["pct"]) / 100)
    step = 100 if t > 1000 else 10
    assert float(r["target_iops"]) == math.ceil(t / step) * step, (r, max_rate)
    met = float(r["iops"]) >= 0.98 * float(r["target_iops"])
    assert r["target_met"] == ("yes" if met else "no"), r
    assert (r["limited_by"] == "") == met and r["limited_by"] in ("", "device", "generator"), r
    assert float(r["svc_mean_us"]) > 0 and float(r["resp_mean_us"]) >= float(r["svc_mean_us"]) * 0.99, r
# results.json: every work run has its validity, the curve its max run and points, the
# same figures as curves.csv
d = json.load(open("out/results.json"))
runs = d["runs"]
assert [r["rd"] for r in runs] == ["rd1", "rd1_(20%)", "rd1_(50%)"], [r["rd"] for r in runs]
assert runs[0]["target_iops"] is None and runs[0]["is_target_met"] is True
assert runs[0]["limited_by"] is None
[c] = d["curves"]
assert c["rd"] == "rd1" and c["max_run"] == 0 and c["max"]["pct"] is None, c
assert [p["run"] for p in c["points"]] == [1, 2], c
for p, row in zip(c["points"], rows):
    r = runs[p["run"]]
    assert p["name"] == r["rd"] == row["run"], (p, r["rd"], row)
    assert p["pct"] == float(row["pct"]) and p["target_iops"] == float(row["target_iops"]), (p, row)
    assert r["target_iops"] == p["target_iops"] and r["is_target_met"] == p["is_target_met"]
    assert r["limited_by"] == p["limited_by"], (r["limited_by"], p)
    assert p["is_target_met"] == (p["iops"] >= 0.98 * p["target_iops"]), p
    assert (p["limited_by"] is None) == p["is_target_met"], p
    assert p["limited_by"] in (None, "device", "generator"), p
    assert ("yes" if p["is_target_met"] else "no") == row["target_met"], (p, row)
    assert abs(p["iops"] - r["average"]["ops_rate"]) < 0.01, (p, r["average"])
PY
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

# sizes= as VDbench 5.04.07 assigned them on these two trees (observed, file by file): three
# sizes over 40 files, and two over a distribution=all tree.
@test "fs: sizes= gives each file the size VDbench gives it" {
	mkdir -p "$SCRATCH/t"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/t/three,depth=1,width=4,files=10,size=(1k,20,2k,30,4k,50)
fsd=fsd2,anchor=$SCRATCH/t/all,depth=2,width=2,files=3,size=(1k,30,2k,70),distribution=all
fwd=fwd1,fsd=fsd*,operation=read,xfersize=1k,threads=1
rd=rd1,fwd=fwd1,fwdrate=20,format=only,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	sizes() { (cd "$1" && find . -name 'vdb_f*.file' -printf '%f %s\n' | sort | awk '{ printf "%s ", $2 / 1024 }'); }
	[ "$(sizes "$SCRATCH/t/three")" = "4 2 2 2 1 4 4 4 1 4 4 4 4 4 4 2 4 4 2 2 2 4 2 2 4 4 1 4 4 2 2 2 2 4 1 4 2 4 2 2 " ]
	[ "$(sizes "$SCRATCH/t/all")" = "2 2 1 2 1 2 2 2 1 2 2 2 2 2 2 2 2 2 " ]
}

# shared=yes as VDbench 5.04.07 runs it on one host (observed): formatted in two steps, no
# vdb_control.file, and the FWD's threads split the files (thread k takes k, k+n, ...), so
# none ever finds a file busy with another.
@test "fs: shared=yes: the threads split the files, no control file" {
	mkdir -p "$SCRATCH/t"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/t/sh,depth=1,width=2,files=4,size=4k,shared=yes
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=4
rd=clean,fwd=fwd1,fwdrate=max,format=(clean,only),elapsed=2,interval=1
rd=make,fwd=fwd1,fwdrate=max,format=(restart,only),elapsed=2,interval=1
rd=rd1,fwd=fwd1,fwdrate=max,format=no,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(find "$SCRATCH/t/sh" -name 'vdb_f*.file' | wc -l)" -eq 8 ]
	[ ! -e "$SCRATCH/t/sh/vdb_control.file" ]
	grep -q 'READ_OPENS' out/logfile.html
	! grep -q 'FILE_BUSY' out/logfile.html || false
	# without shared=yes the control file is written again
	sed -i 's/,shared=yes//' p.vdb
	sed -i '/^rd=clean/d; s/format=(restart,only)/format=(yes,only)/' p.vdb
	run "$IORAMP" -f p.vdb -o out2
	[ "$status" -eq 0 ]
	[ -f "$SCRATCH/t/sh/vdb_control.file" ]
}

@test "fs: -s prints anchor bytes in VDbench's units (bytes below 100,000, then k, m, g, t)" {
	i=0
	: >p.vdb
	for s in 99999 100000 1023k 1m 1023m 1g 1000g 1t; do
		i=$((i + 1))
		echo "fsd=fsd$i,anchor=$SCRATCH/a$i,depth=1,width=1,files=1,size=$s" >>p.vdb
	done
	printf 'fwd=fwd1,fsd=fsd*,operation=read\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=5,interval=1\n' >>p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	# VDbench 5.04.07's figures for these sizes (observed on its -s)
	for want in "a1: dirs:            1; files:            1; bytes:      99999 (99,999)" \
		"a2: dirs:            1; files:            1; bytes:    97.656k (100,000)" \
		"a3: dirs:            1; files:            1; bytes:  1023.000k (1,047,552)" \
		"a4: dirs:            1; files:            1; bytes:     1.000m (1,048,576)" \
		"a5: dirs:            1; files:            1; bytes:  1023.000m (1,072,693,248)" \
		"a6: dirs:            1; files:            1; bytes:     1.000g (1,073,741,824)" \
		"a7: dirs:            1; files:            1; bytes:  1000.000g (1,073,741,824,000)" \
		"a8: dirs:            1; files:            1; bytes:     1.000t (1,099,511,627,776)"; do
		[[ "$output" == *"anchor=$SCRATCH/$want"* ]] || { echo "missing: $want"; false; }
	done
}

@test "fs: the output directory holds every file VDbench writes for a file-system run" {
	tree_parm
	mkdir -p "$SCRATCH/a"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	for f in anchors config errorlog flatfile format.histogram format fsd1.histogram fsd1 \
		fwd1.histogram fwd1 histogram localhost-0 localhost-0.stdout localhost \
		localhost.var_adm_msgs logfile parmfile parmscan skew status summary totals; do
		[ -s "out/$f.html" ] || { echo "missing: $f.html"; false; }
	done
	# summary.html links them as VDbench does
	for l in status parmscan errorlog localhost skew config; do
		grep -q "HREF=\"$l.html\"" out/summary.html || { echo "no link to $l"; false; }
	done
	# the host and slave pages hold the summary's run blocks: the same interval lines
	[ "$(grep -c ' avg_' out/localhost.html)" -eq 2 ]
	[ "$(grep -c ' avg_' out/localhost-0.html)" -eq 2 ]
	[ "$(grep -c ' avg_' out/summary.html)" -eq 2 ]
	grep -q 'Link to host FSD reports:        <A HREF="localhost.fsd1.html">fsd=fsd1</A>' out/localhost.html
	# status.html: each run's start, end, and the end of the execution
	[ "$(grep -c $'\tStarting\trd=' out/status.html)" -eq 2 ]
	[ "$(grep -c $'\tWorkload done\trd=' out/status.html)" -eq 2 ]
	[ "$(tail -1 out/status.html | cut -f2)" = "Vdbench complete" ]
	# parmscan.html: every keyword of the file traced
	grep -q ' keyw: anchor=' out/parmscan.html
	grep -q ' parm: fsd1$' out/parmscan.html
	# skew.html: the tables of the work run (the format's only when it had a counted interval)
	[ "$(sed -n '/Starting RD=rd1;/,$p' out/skew.html | grep -c ' Host:  ')" -eq 1 ]
	grep -q ' fsd1  ' out/skew.html
	grep -q ' fwd1  ' out/skew.html
	# the slave log: each run's setup with its threads, and its end
	grep -q 'Started 2 threads for fwd=fwd1,fsd=fsd1,operation=read' out/localhost-0.stdout.html
	[ "$(grep -c ' End of run$' out/localhost-0.stdout.html)" -eq 2 ]
	grep -q '^Vdbench error log, created ' out/errorlog.html
}

@test "fs: flatfile's requested-operation std and max: n/a beside a metadata FWD, figures for read and write" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/t,depth=1,width=2,files=2,size=8k
fwd=default,fsd=fsd1,xfersize=4k,threads=1
fwd=fwd1,operation=read
fwd=fwd2,operation=write
fwd=fwd3,operation=getattr
rd=rw,fwd=(fwd1,fwd2),fwdrate=20,format=yes,elapsed=2,interval=1
rd=rg,fwd=(fwd1,fwd3),fwdrate=20,format=no,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# columns: 3 Run, 9 Rate_std, 10 Rate_max, 12 Resp_std, 13 Resp_max (as VDbench 5.04.07)
	rows=$(grep -v '^\*' out/flatfile.html | sed -n '3,$p')
	[ "$(echo "$rows" | awk '$3 == "rw"' | wc -l)" -eq 3 ]
	[ "$(echo "$rows" | awk '$3 == "rw" && ($9 == "n/a" || $10 == "n/a" || $12 == "n/a" || $13 == "n/a")' | wc -l)" -eq 0 ]
	[ "$(echo "$rows" | awk '$3 == "rg"' | wc -l)" -eq 3 ]
	[ "$(echo "$rows" | awk '$3 == "rg" && !($9 == "n/a" && $10 == "n/a" && $12 == "n/a" && $13 == "n/a")' | wc -l)" -eq 0 ]
}

# VDbench's HashMap order of anchors: String.hashCode() of the anchor with a trailing '/', its
# bucket in a table of 16 (observed: .../f2 before .../f1, .../multi_host.dir2 before .../multi_host)
java_order() {
	python3 -c '
import sys
def b(s):
    h = 0
    for c in s: h = (31 * h + ord(c)) & 0xffffffff
    return (h ^ (h >> 16)) & 15
print(" ".join(sorted(sys.argv[1:], key=b)))' "$@"
}

@test "fs: anchors in VDbench's order, its logfile lines, a format's max_ line and the jvms= note" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
hd=default,jvms=2
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=1,files=2,size=4k
fsd=fsd2,anchor=$SCRATCH/a/f2,depth=1,width=1,files=2,size=4k
fwd=fwd1,fsd=fsd*,operation=read,xfersize=4k,threads=1
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	want=$(java_order "$SCRATCH/a/f1" "$SCRATCH/a/f2")
	got=$(grep -o 'Created anchor directory: .*' out/logfile.html | cut -d' ' -f4 | tr '\n' ' ')
	[ "$got" = "$want " ]
	# anchors.html: the first block in FSD order, each run's in VDbench's
	got=$(grep "^$SCRATCH/a/f" out/anchors.html | awk '{print $1}' | sed -n 3,4p | tr '\n' ' ')
	[ "$got" = "$want " ]
	[ "$(grep "^$SCRATCH/a/f" out/anchors.html | awk '{print $1}' | sed -n 1p)" = "$SCRATCH/a/f1" ]
	# logfile.html before the Anchor size lines; the run anchor's blank line above the notices
	grep -q " Creating anchor for $SCRATCH/a/f2,fsd=fsd2$" out/logfile.html
	grep -q " rd1 fsd to format: fsd1$" out/logfile.html
	[ "$(grep -c ' rd1 format on host: localhost$' out/logfile.html)" -eq 2 ]
	grep -A2 'Starting RD=format_for_rd1</b>' out/logfile.html | sed -n 2p | grep -qx ''
	grep -A2 'Starting RD=format_for_rd1</b>' out/logfile.html | sed -n 3p | grep -q 'Created\|mkdir complete'
	# the format's two mkdirs fall in its first interval: the max_ line still shows their response
	# (VDbench's, observed), the rate column blank; the console has no localhost-1
	[[ "$output" == *"ioramp: note: jvms= has no effect in file-system mode"* ]]
	[ ! -e out/localhost-1.html ]
	grep -q 'Query host configuration completed' out/status.html
}

@test "fs: threads= split over FSDs and operations as VDbench: threads / (FSDs x operations), at least one, noted" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fsd=fsd2,anchor=$SCRATCH/a/f2,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=(fsd1,fsd2),operation=read,xfersize=4k,threads=3
fwd=fwd2,fsd=(fsd1,fsd2),operation=getattr,threads=5
fwd=fwd3,fsd=fsd1,operation=read,xfersize=4k,threads=4
rd=rd1,fwd=(fwd1,fwd2),fwdrate=40,format=yes,elapsed=2,interval=1
rd=rd2,fwd=fwd3,fwdrate=40,format=no,elapsed=2,interval=1
rd=rd3,fwd=fwd2,fwdrate=40,format=no,elapsed=2,interval=1,operations=(read,getattr)
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# observed on VDbench 5.04.07 with these FWDs: 3 -> 1 + 1, 5 -> 2 + 2, and with
	# operations=(read,getattr) 5 -> 1 on each FSD and operation; fwd3 on one FSD: 4
	slave() { grep -o 'Started .*' out/localhost-0.stdout.html | sed -n "$1"; }
	[ "$(slave '/rd=rd1 /p')" = "Started 6 FwgThreads for rd=rd1 For loops: None" ]
	[ "$(grep -o 'Started [0-9]* threads for fwd=fwd[12],.*' out/localhost-0.stdout.html |
		head -4 | tr '\n' '|')" = "Started 1 threads for fwd=fwd1,fsd=fsd1,operation=read|Started 2 threads for fwd=fwd2,fsd=fsd1,operation=getattr|Started 1 threads for fwd=fwd1,fsd=fsd2,operation=read|Started 2 threads for fwd=fwd2,fsd=fsd2,operation=getattr|" ]
	[ "$(slave '/rd=rd2 /p')" = "Started 4 FwgThreads for rd=rd2 For loops: None" ]
	[ "$(slave '/rd=rd3 /p')" = "Started 4 FwgThreads for rd=rd3 For loops: None" ]
	grep -q ' slv=localhost-0 fwd=fwd2 fsd=fsd2 anchor=.* threads= 2 skew= 0.00 operation=getattr $' out/logfile.html
	# the note, once per RD and FWD, its explanation once, on the console and in logfile.html
	[ "$(grep -c '^[0-9:.]* Note: fwd=fwd1,threads=3,...$' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^[0-9:.]* Note: fwd=fwd2,threads=5,...$' <<<"$output")" -eq 2 ]
	[[ "$output" == *" Note: Mismatch between threads requested (3) and used (2)"* ]]
	[[ "$output" == *" Note: Mismatch between threads requested (5) and used (4)"* ]]
	[ "$(grep -c 'Note: rd=' <<<"$output")" -eq 3 ] # rd1: fwd1, fwd2; rd3: fwd2
	[ "$(grep -c 'fwd_thread_adjust=no' <<<"$output")" -eq 1 ]
	[ "$(grep -c 'Note: Mismatch' out/logfile.html)" -eq 3 ]
	! grep -q 'Note: rd=rd2' out/logfile.html || false
	# -s prints it too, before the anchor sizes (VDbench's order)
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[ "$(grep -c 'Note: Mismatch' <<<"$output")" -eq 3 ]
	[ "$(grep -n -m1 'Note: fwd=fwd1' <<<"$output" | cut -d: -f1)" -lt \
		"$(grep -n -m1 'Anchor size' <<<"$output" | cut -d: -f1)" ]
}

@test "fs: fwd_thread_adjust=no refuses a threads= that does not split, at its place, exit 2" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fwd_thread_adjust=no
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fsd=fsd2,anchor=$SCRATCH/a/f2,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=(fsd1,fsd2),operation=read,threads=3
rd=rd1,fwd=fwd1,fwdrate=40,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 2 ]
	[[ "$output" == "p.vdb:1:19: error: fwd_thread_adjust=no: rd=rd1, fwd=fwd1 asks threads=3 and would run 2"* ]]
	[ ! -e out ] && [ ! -e "$SCRATCH/a/f1" ]
	sed -i 's/threads=3/threads=4/' p.vdb
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
}

@test "fs: the slave log's anchor set-up, task count, statistics and control file lines, as VDbench's" {
	mkdir -p "$SCRATCH/a"
	local A=$SCRATCH/a/f1
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$A,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=2
fwd=fwd2,fsd=fsd1,operation=getattr,threads=1
fwd=fwd3,fsd=fsd1,operation=delete,threads=1
rd=rd1,fwd=(fwd1,fwd2),fwdrate=20,format=yes,elapsed=2,interval=1
rd=rd2,fwd=fwd3,fwdrate=20,format=no,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# each line as VDbench 5.04.07 writes it for these runs (observed on the same shapes)
	sed -E 's/^[0-9:.]{12} [0-9:.]{12} //' out/localhost-0.stdout.html >log.txt
	want() { grep -qxF -- "$1" log.txt || { echo "missing: $1"; return 1; }; }
	want "Deleting old file structure."
	want "Starting initializeFileAnchor for rd=format_for_rd1 For loops: None anchor=fsd1"
	want "Completed the creation of the directory list for $A: 2 directories."
	want "Generated 4 file names; total anchor size: 16k (16,384)"
	want "Writing control file for anchor=$A at start of run."
	want "Completed control file for anchor=$A at start of run.  dirs: 2/0 files: 4/0 sizes: 16k/0/0/0"
	want "Started 8 threads for fwd=format,fsd=fsd1"
	want "Started 8 FwgThreads for rd=format_for_rd1 For loops: None"
	want "task_run_all(): 9 tasks"
	want "task_run_all(): 2 tasks"
	want "Message to master: anchor=$A mkdir complete."
	want "Message to master: anchor=$A create complete."
	want "FILE_CREATES        Files created:                                    4"
	want "Completed control file for anchor=$A at end of run.  dirs: 2/2 files: 4/4 sizes: 16k/16k/4/16k"
	want "Reading control file for anchor=$A"
	want "No deletes and creates. Control file not cleared."
	want "During anchor creation for anchor=$A there were 2 directories and 4 files"
	want "Reusing existing FileAnchor structure."
	want "task_run_all(): 4 tasks"
	want "Completed control file for anchor=$A at start of run.  dirs: 2/2 files: 4/4 sizes: 16k/16k/0/0"
	want "Completed control file for anchor=$A at end of run.  dirs: 2/2 files: 4/0 sizes: 16k/0/0/0"
	# the order of one run's set-up: the anchor block, then the threads, then the start
	line_of() { grep -n -m1 -F -- "$1" log.txt | cut -d: -f1; }
	[ "$(line_of 'rd=rd1 For loops: None anchor=fsd1')" -lt "$(line_of 'Started 2 threads for fwd=fwd1')" ]
	[ "$(line_of 'Started 2 threads for fwd=fwd1')" -lt "$(line_of 'Starting RD=rd1;')" ]
	[ "$(line_of 'Starting RD=rd1;')" -lt "$(line_of 'task_run_all(): 4 tasks')" ]
	[ "$(grep -c '^Miscellaneous statistics:$' log.txt)" -eq 3 ]
	! grep -q '/sec$' log.txt || false
}

@test "fs: a tree beyond VDbench's numbering (depth=20,width=20) is a located error, never a hang" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/f1,depth=20,width=20,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1
PARM
	# before the fix this counted 10^26 directories' file sizes and ignored SIGTERM
	run timeout 20 "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == "p.vdb:1:5: error: fsd=fsd1: depth=20, width=20, files=2 make more than 2147483647 directories"* ]]
	# a fordepth= value too
	sed -i -e 's/depth=20,width=20/depth=2,width=2/' -e 's/interval=1$/interval=1,fordepth=(2,40)/' p.vdb
	run timeout 20 "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 2 ]
	[[ "$output" == *"depth=40, width=2, files=2 make more than"* ]]
	[ ! -e out ]
}

@test "fs: two FSDs on one anchor in an RD are refused as VDbench refuses them, before anything" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fsd=fsd2,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd*,operation=read
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 2 ]
	# VDbench 5.04.07, at run time: "Concurrent use of anchor=... using multiple FSDs
	# (fsd1/fsd2) in one RD is not allowed."
	[[ "$output" == "p.vdb:2:17: error: rd=rd1: concurrent use of anchor=$SCRATCH/a/f1 using multiple FSDs (fsd1/fsd2) in one RD is not allowed"* ]]
	[ ! -e out ] && [ ! -e "$SCRATCH/a/f1" ]
}

@test "fs: cpu% is the machine's, as VDbench's, not ioramp's own" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=1,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=getattr,threads=1
rd=rd1,fwd=fwd1,fwdrate=1,format=yes,elapsed=2,interval=1
PARM
	# a spinning process: while it runs no core is idle, so the machine's cpu% total is at
	# least one core's share; ioramp's own, at one getattr a second, is about 0
	(while :; do :; done) &
	spin=$!
	run "$IORAMP" -f p.vdb -o out
	kill "$spin"
	[ "$status" -eq 0 ]
	share=$((100 / $(nproc)))
	for label in 2 avg_2-2; do
		total=$(awk -v l="$label" '$2 == l { print $5 }' <<<"$output")
		awk -v t="$total" -v s="$share" 'BEGIN { exit !(t >= 0.9 * s) }'
	done
}

@test "fs: format= in rd=default is refused, as VDbench refuses it, before anything" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=1,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=getattr
rd=default,fwdrate=10,format=yes,elapsed=2
rd=rd1,fwd=fwd1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 2 ]
	[[ "$output" == "p.vdb:3:23: error: format= is not allowed in rd=default; expected it on each rd= that formats"* ]]
	[ ! -e out ]
	[ ! -e "$SCRATCH/a/f1" ]
}

@test "fs: format=once alone formats, once, before the first for-loop combination" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=3,size=4k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k
rd=rd1,fwd=fwd1,fwdrate=(10,20),format=once,elapsed=2,interval=1,forthreads=(1,2)
PARM
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	# VDbench 5.04.07's listing of this file: one format, then the four combinations
	[ "$(grep -o 'Simulating RD=[^;]*' <<<"$output" | tr '\n' ' ')" = \
		"Simulating RD=format_for_rd1 Simulating RD=rd1 Simulating RD=rd1 Simulating RD=rd1 Simulating RD=rd1 " ]
	mkdir -p "$SCRATCH/a"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(find "$SCRATCH/a/f1" -name 'vdb_f*.file' | wc -l)" -eq 6 ]
	[[ "$output" == *"FILE_CREATES        Files created:                                    6"* ]]
}

@test "fs: an rd= without fwdrate= is refused, as VDbench refuses it, format=only too" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=1,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1
rd=rd2,fwd=fwd1,format=(restart,only)
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 2 ]
	[[ "$output" == "p.vdb:4:4: error: rd=rd2 has no fwdrate=; expected fwdrate=max, a rate or curve (a format=only rd too)"* ]]
	[ ! -e out ]
	[ ! -e "$SCRATCH/a/f1" ]
	# from rd=default it is there
	sed -i 's/^rd=rd1,/rd=default,fwdrate=max\nrd=rd1,/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
}

@test "fs: FWDs whose skew= does not add up to 100 are listed by -s and refused before a run, as VDbench aborts them" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fwd=default,fsd=fsd1,xfersize=4k
fwd=fr,operation=read,skew=60
fwd=fg,operation=getattr,skew=10
fwd=fn,operation=access
rd=rd1,fwd=(fr,fg,fn),fwdrate=10,format=yes,elapsed=2,interval=1
rd=rd2,fwd=fr,fwdrate=10,format=no,elapsed=2,interval=1
PARM
	# VDbench 5.04.07 runs rd1 (fn takes the other 30) and aborts rd2 at its start
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 2 ]
	[[ "$output" == "p.vdb:7:4: error: rd=rd2: Total skew must add up to 100: 60.0; expected the FWDs' skew= to add up to 100, or an FWD without skew= to take the rest"* ]]
	[ ! -e out ]
	[ ! -e "$SCRATCH/a/f1" ]
	# VDbench's -s lists it: the skew is judged when a run starts
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Simulating RD=rd2; elapsed=2; fwdrate=10; For loops: None"* ]]
	# operations= splits fr in two, each with skew=60 (VDbench: 120.0)
	sed -i '$d' p.vdb
	echo 'rd=rd2,fwd=fr,fwdrate=10,format=no,elapsed=2,interval=1,operations=(read,getattr)' >>p.vdb
	run "$IORAMP" -f p.vdb -o out2
	[ "$status" -eq 2 ]
	[[ "$output" == *"rd=rd2: Total skew must add up to 100: 120.0; expected the FWDs' skew= to add up to 100 once operations= splits each"* ]]
	sed -i '$d' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
}

@test "fs: a run's Starting line names its warmup=, as -s and VDbench do" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=1,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=getattr
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,warmup=1,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[[ "$output" == *" Starting RD=rd1; elapsed=2 warmup=1; fwdrate=10; For loops: None"* ]]
	grep -q 'Starting RD=rd1; elapsed=2 warmup=1; fwdrate=10; For loops: None' out/logfile.html
	run "$IORAMP" -f p.vdb -s
	[[ "$output" == *" Simulating RD=rd1; elapsed=2 warmup=1; fwdrate=10; For loops: None"* ]]
}

@test "fs: mkdir and create end with nothing left to make, with VDbench's words; mkdir under made parents" {
	mkdir -p "$SCRATCH/m"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/m/t,depth=3,width=2,files=2,size=4k
fwd=default,fsd=fsd1
fwd=fr,operation=read
fwd=fmk,operation=mkdir,threads=4
fwd=fcr,operation=create
rd=rdirs,fwd=fr,fwdrate=max,format=(yes,only,directories)
rd=rclean,fwd=fr,fwdrate=max,format=(clean,only)
rd=rmk,fwd=fmk,fwdrate=max,format=no,elapsed=30,interval=1
rd=rcr,fwd=fcr,fwdrate=max,format=no,elapsed=30,interval=1
rd=rcr2,fwd=fcr,fwdrate=max,format=no,elapsed=30,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# four threads made all 14 directories, each under its parent, then ended the run
	[ "$(find "$SCRATCH/m/t" -name 'vdb.*.dir' -type d | wc -l)" -eq 14 ]
	[ "$(find "$SCRATCH/m/t" -name 'vdb_f*.file' | wc -l)" -eq 16 ]
	[[ "$output" == *"DIRECTORY_CREATES   Directories created:                             14"* ]]
	[[ "$output" == *" Vdbench is trying to create a new directory, but all directories"* ]]
	[[ "$output" == *" FwgThread.canWeGetMoreDirectories(): Shutting down threads for operation=mkdir"* ]]
	[[ "$output" == *" Vdbench is trying to create a new file, but all files already exist, "* ]]
	[[ "$output" == *" FwgThread.canWeGetMoreFiles(): Shutting down threads for operation=create"* ]]
	for rd in rmk rcr rcr2; do
		last=$(sed -n "/Starting RD=$rd;/,/Miscellaneous/p" <<<"$output" | awk '$2 ~ /^avg_/ { sub(/.*-/, "", $2); print $2 }')
		[ -n "$last" ] && [ "$last" -lt 30 ] || { echo "$rd ran $last intervals"; false; }
	done
	# rcr2 found every file there: no counter moved, VDbench's one line
	[[ "$(sed -n '/Starting RD=rcr2;/,$p' <<<"$output")" == *" Miscellaneous statistics: All counters are zero"* ]]
}

@test "fs: edges as VDbench takes them: threads=0 runs one, rdpct=150 reads; files=0 and fwdrate=(10,max) refused, (max,-5) max" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read,fileio=random,rdpct=150,threads=0
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1
PARM
	# VDbench 5.04.07 runs both: one thread with its mismatch note, reads only
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *" Note: Mismatch between threads requested (0) and used (1)"* ]]
	sed 's/files=2/files=0/' p.vdb >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == "q.vdb:1:"*": error: invalid files=0; expected a value from 1 to "* ]]
	sed 's/fwdrate=10/fwdrate=(10,max)/' p.vdb >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == "q.vdb:3:25: error: mix of alpha and numeric values not allowed in fwdrate=(10,max)"* ]]
	# a list that opens with max is max alone, whatever follows (VDbench 5.04.07, -s and a run)
	for r in '(max,-5)' '(max,100,200)' '(max,curve)'; do
		sed "s/fwdrate=10/fwdrate=$r/" p.vdb >q.vdb
		run "$IORAMP" -f q.vdb -s
		[ "$status" -eq 0 ]
		[ "$(grep -c 'Simulating RD=rd1' <<<"$output")" -eq 1 ]
		[[ "$output" == *" Simulating RD=rd1; elapsed=2; fwdrate=max. For loops: None"* ]]
	done
	mkdir -p "$SCRATCH/a"
	run "$IORAMP" -f q.vdb -o maxrun
	[ "$status" -eq 0 ]
	[ "$(grep -c ' Starting RD=rd1' <<<"$output")" -eq 1 ]
	[[ "$output" == *" Starting RD=rd1; elapsed=2; fwdrate=max. For loops: None"* ]]
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(awk '$2 == "avg_2-2" { print $7 }' <<<"$output")" = "100.0" ]
}

@test "fs: what VDbench runs runs: shared=maybe (a private tree), stopafter=-1, fsd=(fsd1,fsd1)" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k,shared=maybe
fwd=fwd1,fsd=(fsd1,fsd1),operation=read,fileio=random,stopafter=-1
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Simulating RD=format_for_rd1"* ]]
	# a name that is not there is still refused, in its own words
	sed -i 's/fsd=(fsd1,fsd1)/fsd=(fsd1,fsd9)/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"fwd=fwd1: fsd=fsd9 names no fsd"* ]]
}

@test "fs: an RD's fwd= runs a FWD as often as it names it, a FWD's fsd= an FSD once, as VDbench" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=(fsd1,fsd1),operation=read,xfersize=4k,fileio=random,threads=1
fwd=fwd2,fsd=fsd1,operation=getattr,threads=1
rd=rd1,fwd=(fwd*,fwd1,fwd1),fwdrate=10,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# observed on VDbench 5.04.07: fwd=(fwd1,fwd1) is two FWGs (twice the threads), fwd* and
	# fwd1 add up; fsd=(fsd1,fsd1) in a FWD is fsd1 once
	[[ "$output" == *" Note: Mismatch between threads requested (1) and used (3)"* ]]
	[ "$(grep -c 'Note: Mismatch' <<<"$output")" -eq 1 ]
	[ "$(grep -c ' slv=localhost-0 fwd=fwd1 fsd=fsd1 .* threads= 1 ' out/logfile.html)" -eq 3 ]
	[ "$(grep -c ' slv=localhost-0 fwd=fwd2 ' out/logfile.html)" -eq 1 ]
	grep -q 'Started 4 FwgThreads for rd=rd1 For loops: None' out/localhost-0.stdout.html
}

@test "fs: elapsed= shorter than two intervals is refused, as VDbench refuses it" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=1,interval=1
PARM
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == "p.vdb:3:4: error: rd=rd1: 'elapsed=1' must be at least twice 'interval=1'"* ]]
	# nor one that is not whole intervals ("'elapsed=5' must be multiple of 'interval=2'.")
	sed -i 's/elapsed=1,interval=1/elapsed=5,interval=2/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == "p.vdb:3:4: error: rd=rd1: 'elapsed=5' must be a multiple of 'interval=2'"* ]]
}

@test "fs: -s with -o writes the seven files VDbench's simulation leaves, as raw runs" {
	tree_parm
	run "$IORAMP" -f p.vdb -s -o sim
	[ "$status" -eq 0 ]
	[ "$(ls sim | tr '\n' ' ')" = "flatfile.html logfile.html parmfile.html parmscan.html status.html summary.html totals.html " ]
	grep -q 'Simulating RD=rd1; elapsed=2; fwdrate=100; For loops: None' sim/summary.html
	grep -q 'Vdbench simulation completed successfully' sim/summary.html
	grep -q "Anchor size: anchor=$SCRATCH/a/dir1:" sim/logfile.html
	[ ! -e "$SCRATCH/a" ] # and still no anchor
}

@test "fs: Miscellaneous statistics in VDbench's order: READ_OPENS before WRITE_OPENS" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=4,size=8k
fwd=fr,fsd=fsd1,operation=read,xfersize=4k
fwd=fw,fsd=fsd1,operation=write,xfersize=4k
rd=rd1,fwd=(fr,fw),fwdrate=20,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# VDbench 5.04.07 on a run with both (observed): READ_OPENS, WRITE_OPENS, ..., FILE_CLOSES
	[ "$(sed -n '/Starting RD=rd1/,$p' <<<"$output" | grep -oE ' (READ|WRITE)_OPENS ' | tr -d ' ' | tr '\n' ' ')" = "READ_OPENS WRITE_OPENS " ]
}

@test "fs: without fileselect= the files are taken in order, as VDbench's default" {
	mkdir -p "$SCRATCH/s"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/s/t,depth=1,width=2,files=8,size=4k
fwd=fr,fsd=fsd1,operation=read
fwd=fcr,fsd=fsd1,operation=create
rd=rdirs,fwd=fr,fwdrate=max,format=(yes,only,directories)
rd=rcr,fwd=fcr,fwdrate=2,format=no,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# VDbench 5.04.07 read and wrote files 0, 1, 2, ... without fileselect= (observed); at
	# two a second the few created are the first ones, whatever their number (one is enough:
	# a random pick would be file 0 one time in 16; no rate is judged)
	made=$(cd "$SCRATCH/s/t" && find . -name 'vdb_f*.file' | sed 's/.*vdb_f0*\([0-9]*\)\.file/\1/;s/^$/0/' | sort -n | tr '\n' ' ')
	n=$(wc -w <<<"$made")
	[ "$n" -ge 1 ]
	[ "$made" = "$(seq 0 $((n - 1)) | tr '\n' ' ')" ] || { echo "made: $made"; false; }
}

@test "fs: depth=0 lays out width= directories of files= each, as VDbench, though -s counts none" {
	mkdir -p "$SCRATCH/z"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/z/t,depth=0,width=3,files=2,size=4k
fwd=fr,fsd=fsd1,operation=read
rd=rf,fwd=fr,fwdrate=max,format=(yes,only)
PARM
	# VDbench 5.04.07's -s line for this FSD, its bytes those of the 6 files it makes
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Anchor size: anchor=$SCRATCH/z/t: dirs:            0; files:            2; bytes:      24576 (24,576)"* ]]
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(cd "$SCRATCH/z/t" && find . -mindepth 1 | sort | tr '\n' ' ')" = \
		"./vdb.1_1.dir ./vdb.1_1.dir/vdb_f0000.file ./vdb.1_1.dir/vdb_f0001.file ./vdb.1_2.dir ./vdb.1_2.dir/vdb_f0002.file ./vdb.1_2.dir/vdb_f0003.file ./vdb.1_3.dir ./vdb.1_3.dir/vdb_f0004.file ./vdb.1_3.dir/vdb_f0005.file ./vdb_control.file " ]
	grep -q '^depth 0$' "$SCRATCH/z/t/vdb_control.file"
	grep -q '^directory status 3$' "$SCRATCH/z/t/vdb_control.file"
}

@test "fs: no in a format= list means no format, whatever else it holds, as VDbench" {
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read
rd=rd1,fwd=fwd1,fwdrate=10,format=(no,only),elapsed=2,interval=1
PARM
	# VDbench 5.04.07 lists (and runs) each of these as the work run alone
	for f in '(no,only)' '(no,clean)' '(no,restart)' '(no,yes)' '(only,no)'; do
		sed -i "s/format=([a-z,]*)/format=$f/" p.vdb
		run "$IORAMP" -f p.vdb -s
		[ "$status" -eq 0 ]
		[ "$(grep -o 'Simulating RD=[^;]*' <<<"$output" | tr '\n' ' ')" = "Simulating RD=rd1 " ] || { echo "$f: $output"; false; }
	done
}

@test "fs: keyword and value prefixes VDbench takes: anch=, dep=, fil=, xfers=, thr=, fwdr=, forth=, fileio=ran, operation=get" {
	cat >p.vdb <<PARM
fsd=fsd1,anch=$SCRATCH/a/f1,dep=1,wid=2,fil=3,siz=4k
fwd=fwd1,fsd=fsd1,operation=get,fileio=ran,xfers=4k,thr=2
rd=rd1,fwd=fwd1,fwdr=10,form=yes,elap=2,interv=1,forth=(1,2)
PARM
	# VDbench 5.04.07 lists this file as in full (observed)
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Anchor size: anchor=$SCRATCH/a/f1: dirs:            2; files:            6; bytes:      24576 (24,576)"* ]]
	[ "$(grep -o 'Simulating RD=.*' <<<"$output" | tr '\n' '|')" = "Simulating RD=format_for_rd1|Simulating RD=rd1; elapsed=2; fwdrate=10; For loops: threads=1|Simulating RD=format_for_rd1|Simulating RD=rd1; elapsed=2; fwdrate=10; For loops: threads=2|" ]
	# one character is not a prefix; maxdata has none
	sed -i 's/,thr=2/,t=2/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	# format= words are lower case (VDbench: "Invalid contents of 'format=' parameter: YES")
	sed -i 's/,t=2/,thr=2/; s/form=yes/format=YES/' p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == "p.vdb:3:"*"error: invalid format=YES: 'YES'; expected yes, no, only"* ]]
}

@test "fs: a failed read is reported with its file, offset, size and error, and the execution fails after its averages" {
	mkdir -p "$SCRATCH/e"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/e/t,depth=1,width=1,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k
rd=rf,fwd=fwd1,fwdrate=max,format=(yes,only)
rd=rd1,fwd=fwd1,fwdrate=10,format=no,elapsed=2,interval=1
PARM
	sed '$d' p.vdb >q.vdb
	run "$IORAMP" -f q.vdb -o out
	[ "$status" -eq 0 ]
	# a directory where file 0 was: it opens, and every read of it fails (EISDIR)
	f=$SCRATCH/e/t/vdb.1_1.dir/vdb_f0000.file
	rm "$f" && mkdir "$f"
	sed '/^rd=rf/d' p.vdb >r.vdb
	run "$IORAMP" -f r.vdb -o out
	[ "$status" -eq 1 ]
	[[ "$output" == *" avg_2-2 "* ]]
	[[ "$output" == *" I/O error: op: read file: $f offset: 0 xfer: 4096 errno: Is a directory"* ]]
	[[ "$output" == *" Total I/O error count: "* ]]
	grep -q 'Total I/O error count' out/logfile.html
}

@test "fs: a FWD's threads take the files in turn without fileselect=: none finds another's busy" {
	mkdir -p "$SCRATCH/b"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/b/t,depth=1,width=2,files=50,size=8k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=4
rd=rd1,fwd=fwd1,fwdrate=40,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# VDbench 5.04.07 with 4 threads on 12 files: READ_OPENS and FILE_CLOSES, no FILE_BUSY
	# (each ioramp thread had its own place: 97 busy files in 3 s)
	[[ "$(sed -n '/Starting RD=rd1/,$p' <<<"$output")" == *" READ_OPENS "* ]]
	! grep -q 'FILE_BUSY' <<<"$(sed -n '/Starting RD=rd1/,$p' <<<"$output")" || false
}

@test "fs: interval=0 is min(elapsed/2,60), with VDbench's notice" {
	mkdir -p "$SCRATCH/a"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read
rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=4,interval=0
PARM
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	# VDbench 5.04.07's line, before the anchor's (observed)
	[[ "${lines[0]}" == *" 'interval=' not specified. Setting to 2 seconds. ( 'min(elapsed/2,60)' )" ]]
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[[ "$output" == *" avg_2-2 "* ]]
}

@test "fs: attempts that find nothing to do are counted with VDbench's names, in its order" {
	mkdir -p "$SCRATCH/n"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/n/full,depth=2,width=2,files=2,size=4k
fsd=fsd2,anchor=$SCRATCH/n/empty,depth=2,width=2,files=2,size=4k
fwd=fmk,fsd=fsd1,operation=mkdir
fwd=frm,fsd=fsd1,operation=rmdir
fwd=fga,fsd=fsd1,operation=getattr
fwd=fdel,fsd=fsd2,operation=delete
fwd=fcr,fsd=fsd2,operation=create
rd=rfull,fwd=(fmk,frm,fga),fwdrate=max,format=yes,elapsed=2,interval=1
rd=rempty,fwd=(fdel,fcr),fwdrate=max,format=no,elapsed=2,interval=1
PARM
	mkdir -p "$SCRATCH/n/empty"
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# VDbench 5.04.07 (observed): a mkdir in a full tree counts DIR_EXISTS, an rmdir of
	# directories holding files DIR_STILL_HAS_FILES, a delete in an empty tree FILE_MUST_EXIST,
	# a create under missing directories MISSING_PARENT; printed in this order
	names() { # the counters of run $1's Miscellaneous statistics, in order
		awk -v rd="Starting RD=$1;" 'index($0, rd) { on = 1 } on && /Miscellaneous statistics:$/ { m = 1; next }
			m && NF == 1 { exit } m && $2 ~ /^[A-Z_]+$/ { print $2 }' <<<"$output" | tr '\n' ' '
	}
	[ "$(names rfull)" = "DIR_EXISTS DIR_STILL_HAS_FILES GET_ATTR " ]
	[ "$(names rempty)" = "FILE_MUST_EXIST MISSING_PARENT " ]
	[[ "$output" == *" DIR_STILL_HAS_FILES Directory still has files:"* ]]
	[[ "$output" == *" MISSING_PARENT      Parent directory does not exist (yet):"* ]]
	[ "$(find "$SCRATCH/n/empty" -name 'vdb_f*' | wc -l)" -eq 0 ]
}

# VDbench 5.04.07 (observed: create and delete FWDs at 100/s each on 50 formatted files of 16k
# counted FILE_MAY_NOT_EXIST 1,720 in 3 s, between FILE_BUSY and FILE_MUST_EXIST): a create that
# picks a file there while a delete may take it away; a create alone on a full tree counts none;
# FILE_CREATES, WRITE_OPENS and FILE_CLOSES were all 274.
@test "fs: a create that finds its file there beside a delete counts FILE_MAY_NOT_EXIST" {
	mkdir -p "$SCRATCH/m"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/m/a,depth=1,width=2,files=4,size=4k
fwd=fcr,fsd=fsd1,operation=create,threads=1
fwd=fdel,fsd=fsd1,operation=delete,threads=1
rd=rd1,fwd=(fcr,fdel),fwdrate=100,format=yes,elapsed=2,interval=1
rd=rd2,fwd=fcr,fwdrate=100,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	misc() { sed -n "/Starting RD=$1;/,/Starting RD=\|execution completed/p" <<<"$output" |
		grep -oE ' [A-Z_]+ +[A-Z][a-z][^:]*: +[0-9,]+ ' | awk '{ print $1 }' | paste -sd' '; }
	[[ "$(misc rd1)" == *"FILE_MAY_NOT_EXIST"* ]]
	# and a create counts its open and close: FILE_CREATES, WRITE_OPENS and FILE_CLOSES equal
	local c w cl
	c=$(sed -n '/Starting RD=rd1;/,/Starting RD=/p' <<<"$output" | awk '$2 == "FILE_CREATES" { print $5 }')
	w=$(sed -n '/Starting RD=rd1;/,/Starting RD=/p' <<<"$output" | awk '$2 == "WRITE_OPENS" { print $8 }')
	cl=$(sed -n '/Starting RD=rd1;/,/Starting RD=/p' <<<"$output" | awk '$2 == "FILE_CLOSES" { print $5 }')
	[ -n "$c" ] && [ "$c" = "$w" ] && [ "$c" = "$cl" ]
	[[ "$output" == *" FILE_MAY_NOT_EXIST  File may not exist (yet):   "* ]]
	[[ "$(misc rd2)" != *"FILE_MAY_NOT_EXIST"* ]]
	grep -q ' FILE_MAY_NOT_EXIST  File may not exist (yet): ' out/logfile.html
}

@test "fs: fwdrate=-5 runs as VDbench runs it, shown as -5 (no rate is judged here)" {
	mkdir -p "$SCRATCH/r"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/r/t,depth=1,width=2,files=2,size=4k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k
rd=rd1,fwd=fwd1,fwdrate=5%,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# VDbench 5.04.07 ran it at 500 a second (-1: 118, -100: 9,942; observed); the plan's rate
	# is tested in test_plan
	[[ "$output" == *" Starting RD=rd1; elapsed=2; fwdrate=-5; For loops: None"* ]]
}

@test "fs: operation=copy makes a full copy under a missing name; move renames one (VDbench aborts both)" {
	mkdir -p "$SCRATCH/c"
	cat >f.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/c/t,depth=1,width=2,files=4,size=100k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k
rd=rf,fwd=fwd1,fwdrate=max,format=(yes,only)
PARM
	run "$IORAMP" -f f.vdb -o out1
	[ "$status" -eq 0 ]
	cd "$SCRATCH/c/t"
	cp vdb.1_1.dir/vdb_f0000.file "$SCRATCH/c/orig"
	rm vdb.1_1.dir/vdb_f000[1-3].file vdb.1_2.dir/vdb_f0006.file
	cd - >/dev/null
	sed -e 's/operation=read,xfersize=4k/operation=copy,fileselect=sequential/' \
		-e 's/^rd=rf,.*/rd=rc,fwd=fwd1,fwdrate=max,format=no,elapsed=2,interval=1/' f.vdb >c.vdb
	run "$IORAMP" -f c.vdb -o out2
	[ "$status" -eq 0 ]
	# every missing name is made again, each a whole copy (VDbench 5.04.07 aborts such a run:
	# a NullPointerException in OpCopy, exit status 157, observed)
	[ "$(find "$SCRATCH/c/t" -name 'vdb_f*.file' | wc -l)" -eq 8 ]
	for f in "$SCRATCH"/c/t/*/vdb_f*.file; do
		cmp -s "$f" "$SCRATCH/c/orig" || { echo "$f is not a whole copy"; false; }
	done
	rm "$SCRATCH"/c/t/vdb.1_1.dir/vdb_f000[0-3].file
	sed -e 's/operation=copy/operation=move/' -e 's/^rd=rc,/rd=rm,/' c.vdb >m.vdb
	run "$IORAMP" -f m.vdb -o out3
	[ "$status" -eq 0 ]
	# a move keeps the number of files and gives one a name that was missing (VDbench
	# 5.04.07: "Slave localhost-0 aborting: xxx", exit status 157, observed)
	[ "$(find "$SCRATCH/c/t" -name 'vdb_f*.file' | wc -l)" -eq 4 ]
	for f in "$SCRATCH"/c/t/*/vdb_f*.file; do
		cmp -s "$f" "$SCRATCH/c/orig" || { echo "$f lost its data"; false; }
	done
	jq -e '[.runs[-1].intervals[].operations.move.rate] | add > 0' out3/results.json
	[[ "$output" == *" Starting RD=rm; elapsed=2; fwdrate=max. For loops: None"* ]]
}

@test "fs: read, getattr, setattr, access with no file, and rmdir of full directories, end their threads as VDbench" {
	mkdir -p "$SCRATCH/e/empty"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/e/empty,depth=1,width=2,files=2,size=4k
fsd=fsd2,anchor=$SCRATCH/e/full,depth=2,width=2,files=2,size=4k
fwd=frd,fsd=fsd1,operation=read,threads=2
fwd=fsa,fsd=fsd1,operation=setattr
fwd=frm,fsd=fsd2,operation=rmdir,threads=2
rd=rrd,fwd=frd,fwdrate=max,format=no,elapsed=30,interval=1
rd=rsa,fwd=fsa,fwdrate=max,format=no,elapsed=30,interval=1
rd=rrm,fwd=frm,fwdrate=max,format=yes,elapsed=30,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# VDbench 5.04.07 (observed): each such thread tries once, counts it, says why and ends;
	# the run ends with its last thread, after one interval
	[[ "$output" == *" Vdbench is trying to read from a file, but no files are available, and no"* ]]
	[[ "$output" == *" FwgThread.canWeGetMoreFiles(): Shutting down threads for operation=read"* ]]
	[[ "$output" == *" Vdbench is trying to change attributes for a file, but there are no files"* ]]
	[[ "$output" == *" trying to delete is not empty, and there are no threads currently"* ]]
	[[ "$output" == *" FwgThread.canWeGetMoreFiles(): Shutting down threads for operation=rmdir"* ]]
	for rd in rrd rsa rrm; do
		awk -v rd="Starting RD=$rd;" 'index($0, rd) { on = 1 } on && $2 ~ /^avg_/ { print $2; exit }' <<<"$output" | grep -qx 'avg_2-1' ||
			{ echo "$rd did not end after one interval"; false; }
	done
	[[ "$output" == *" FILE_MUST_EXIST     File does not exist (yet):                        2 "* ]]
	[[ "$output" == *" DIR_STILL_HAS_FILES Directory still has files:                        2 "* ]]
}

@test "fs: fileio=random without stopafter= closes a file once it moved the file's size, as VDbench" {
	mkdir -p "$SCRATCH/a"
	# observed on VDbench 5.04.07 at fwdrate=40: 4k files and 4k reads, one read per open
	# (40.3 and 40.3 a second); 16k files, four (43.3 and 11.0); 10k files, three (40.3, 13.3)
	for sz in 4k 16k; do
		rm -rf "$SCRATCH/a/f1" out
		cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=$sz
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=1
rd=rd1,fwd=fwd1,fwdrate=40,format=yes,elapsed=2,interval=1
PARM
		run "$IORAMP" -f p.vdb -o out
		[ "$status" -eq 0 ]
		# reads per open over the averaged intervals: 1 and 4 (floor(size/xfer)+1 gave 2 and 5)
		per=$(jq '.runs[-1].average | .read_rate / .operations.open.rate' out/results.json)
		want=$([ "$sz" = 4k ] && echo 1 || echo 4)
		awk -v p="$per" -v w="$want" 'BEGIN { exit !(p > w - 0.5 && p < w + 0.5) }'
	done
}

@test "fs: the slave log groups the generated file names' count, as VDbench (1,000)" {
	mkdir -p "$SCRATCH/a"
	# observed on VDbench 5.04.07 (its filesys/seq_read example, 1000 files of 128k):
	# "Generated 1,000 file names; total anchor size: 125m (131,072,000)"
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=1,files=1000,size=1k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=1k,threads=1
rd=rd1,fwd=fwd1,fwdrate=10,format=only,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	grep -q ' Generated 1,000 file names; total anchor size: ' out/localhost-0.stdout.html
}

@test "fs: several FWDs keep their skew at fwdrate=max, as VDbench; skew= adds its requested-vs-actual table" {
	mkdir -p "$SCRATCH/a"
	# 4k reads take a fraction of a 64k write's time; uncontrolled, the reads took 87%
	cat >p.vdb <<PARM
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=10,size=256k
fwd=default,fsd=fsd1,fileio=random,fileselect=random,threads=2,stopafter=100
fwd=fr,operation=read,xfersize=4k
fwd=fw,operation=write,xfersize=64k
rd=rd1,fwd=(fr,fw),fwdrate=max,format=yes,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	avg=$(grep ' avg_2-2 ' <<<"$output")
	# read pct (column 7): half the requested operations, within a point
	awk '{ exit !($7 >= 49 && $7 <= 51) }' <<<"$avg"
	! grep -q 'requested vs. actual' out/skew.html
	# skew= asked: the table, each FWD within a point of its share
	sed -i -e 's/^fwd=fr,operation=read,xfersize=4k$/&,skew=20/' \
		-e 's/^fwd=fw,operation=write,xfersize=64k$/&,skew=80/' p.vdb
	run "$IORAMP" -f p.vdb -o out2
	[ "$status" -eq 0 ]
	grep -q "FWD skew requested vs. actual (Use 'abort_failed_skew=n.n' to abort when delta > n.n)$" out2/skew.html
	grep -q ' FWD          ops/sec  requested  actual   delta$' out2/skew.html
	grep -E ' fr +[0-9]+     20\.00% +[0-9.]+% +[-+][0-9.]+%$' out2/skew.html
	grep -E ' fw +[0-9]+     80\.00% +[0-9.]+% +[-+][0-9.]+%$' out2/skew.html
	awk '/ (fr|fw) +[0-9]+ +[0-9.]+%/ { d = $NF; sub(/%/, "", d); d += 0; if (d > 1 || d < -1) bad = 1; n++ }
		END { exit bad || n != 2 }' out2/skew.html
	[[ "$output" != *"Observed Workload skew"* ]]
}

@test "fs: abort_failed_skew= ends the execution after a run whose FWD is off its skew= by more" {
	mkdir -p "$SCRATCH/a"
	# on a formatted tree every file exists: the create FWD finds nothing and ends (VDbench's
	# words), so the reads do all the operations instead of half
	cat >p.vdb <<PARM
abort_failed_skew=LIMIT
fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=20,size=16k
fwd=default,fsd=fsd1,xfersize=4k,fileio=random,fileselect=random,threads=2
fwd=fr,operation=read,skew=50
fwd=fc,operation=create,skew=50
rd=rd1,fwd=(fr,fc),fwdrate=100,format=yes,elapsed=2,interval=1
rd=rd2,fwd=(fr,fc),fwdrate=100,format=no,elapsed=2,interval=1
PARM
	sed 's/LIMIT/5/' p.vdb >tight.vdb
	run "$IORAMP" -f tight.vdb -o out
	[ "$status" -eq 1 ]
	[[ "$output" == *"'abort_failed_skew=5.000' parameter used. See file skew.html for more info."* ]]
	[[ "$output" == *"tight.vdb:1:19: error: rd=rd1: fwd=fr did 100.00% of the operations, off its skew of 50.00% by 50.00%, more than abort_failed_skew=5.000 allows; see skew.html"* ]]
	[[ "$output" == *"Observed Workload skew for fwd=fc delta greater than 1% (50.00)"* ]]
	grep -q ' fc                 0     50.00%   0.00% -50.00%$' out/skew.html
	grep -q 'Starting RD=rd1' out/logfile.html
	! grep -q 'Starting RD=rd2' out/logfile.html || false
	grep -q 'Observed Workload skew for fwd=fc' out/summary.html
	! grep -q 'Possible reasons' out/summary.html || false
	sed 's/LIMIT/60/' p.vdb >loose.vdb
	run "$IORAMP" -f loose.vdb -o out2
	[ "$status" -eq 0 ]
	grep -q 'Starting RD=rd2' out2/logfile.html
}

# fs_refused FILE PLACE TEXT: -s exits 2 with the error at PLACE (line:col) saying TEXT.
fs_refused() {
	run "$IORAMP" -f "$1" -s
	[ "$status" -eq 2 ]
	[[ "$output" == "$1:$2: error: $3"* ]] || { echo "got: $output"; false; }
}

@test "fs: rdpct= with fileio=sequential, or beside operations= of several, is refused where VDbench refuses it" {
	F='fsd=fsd1,anchor=/tmp/x,size=4k'
	R='rd=rd1,fwd=fwd1,fwdrate=10,elapsed=2,interval=1'
	# VDbench 5.04.07: "'fileio=sequential' and 'rdpct=' are mutually exclusive." (even -s),
	# whatever the operation, rdpct=0 and 100 too; fileio=sequential is the default
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,operation=read,fileio=sequential,rdpct=60' "$R" >q.vdb
	fs_refused q.vdb 2:58 "fwd=fwd1: 'fileio=sequential' and 'rdpct=' are mutually exclusive; expected fileio=random beside rdpct="
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,operation=getattr,rdpct=0' "$R" >q.vdb
	fs_refused q.vdb 2:43 "fwd=fwd1: 'fileio=sequential' and 'rdpct=' are mutually exclusive"
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,fileio=(seq,delete),rdpct=100' "$R" >q.vdb
	fs_refused q.vdb 2:45 "fwd=fwd1: 'fileio=(sequential,delete)' and 'rdpct=' are mutually exclusive"
	# "When using 'rdpct=' you may only request 'operation=read' or 'operation=write', and
	# then only one of these." (before the fileio= one)
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,fileio=sequential,rdpct=50' "$R,operations=(read,write)" >q.vdb
	fs_refused q.vdb 3:60 "rd=rd1: fwd=fwd1 has rdpct=; expected operations=read or operations=write, only one of them"
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,fileio=random,rdpct=50' "$R,operations=getattr" >q.vdb
	fs_refused q.vdb 3:60 "rd=rd1: fwd=fwd1 has rdpct=; expected operations=read or operations=write"
	# what VDbench takes: random with operations=read, forrdpct= with sequential, rdpct=-1
	# (none), a FWD no RD runs, foroperations= beside rdpct=
	for w in 'fwd=fwd1,fsd=fsd1,fileio=random,rdpct=50|,operations=read' \
		'fwd=fwd1,fsd=fsd1,fileio=sequential|,forrdpct=(0,50)' \
		'fwd=fwd1,fsd=fsd1,fileio=sequential,rdpct=-1|' \
		'fwd=fwd1,fsd=fsd1|,foroperations=(read,write)'; do
		printf '%s\n' "$F" "${w%|*}" 'fwd=fwd2,fsd=fsd1,fileio=sequential,rdpct=50' "$R${w#*|}" >q.vdb
		run "$IORAMP" -f q.vdb -s
		[ "$status" -eq 0 ] || { echo "$w: $output"; false; }
	done
}

@test "fs: fileio= takes shared after random and delete after sequential only, as VDbench" {
	R='rd=rd1,fwd=fwd1,fwdrate=10,elapsed=2,interval=1'
	for f in '(random,delete)|delete' '(sequential,shared)|shared' 'shared|shared' '(random,random)|random'; do
		printf '%s\n' 'fsd=fsd1,anchor=/tmp/x,size=4k' "fwd=fwd1,fsd=fsd1,fileio=${f%|*}" "$R" >q.vdb
		fs_refused q.vdb 2:26 "invalid fileio=${f%|*}: '${f#*|}'; expected random, sequential, (random,shared) or (sequential,delete)"
	done
	# a FWD no RD runs too ("Invalid 'fileio' parameter contents: delete"); a third word is
	# taken without a word (VDbench 5.04.07 lists both)
	printf '%s\n' 'fsd=fsd1,anchor=/tmp/x,size=4k' 'fwd=fwd1,fsd=fsd1,fileio=(random,shared,delete)' \
		'fwd=fwd2,fsd=fsd1,fileio=(seq,delete,shared)' 'rd=rd1,fwd=*,fwdrate=10,elapsed=2,interval=1' >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
}

@test "fs: rd= combinations VDbench refuses: format=once alone, operations= with foroperations=, fwdrate=0, (curve,max)" {
	F='fsd=fsd1,anchor=/tmp/x,size=4k'
	W='fwd=fwd1,fsd=fsd1'
	printf '%s\n' "$F" "$W" 'rd=rd1,fwd=fwd1,fwdrate=10,format=once,elapsed=2,interval=1' >q.vdb
	fs_refused q.vdb 3:35 "rd=rd1: format=once can only be used with forxxx= parameters"
	# fwdrate=curve and operations= are no for-loops; a fwdrate= list and foroperations= are
	printf '%s\n' "$F" "$W" 'rd=rd1,fwd=fwd1,fwdrate=curve,format=once,elapsed=2,interval=1' >q.vdb
	fs_refused q.vdb 3:38 "rd=rd1: format=once can only be used with forxxx= parameters"
	for rd in 'fwdrate=(10,20),format=once' 'fwdrate=10,format=once,foroperations=(read,write)' \
		'fwdrate=10,format=once,forthreads=1'; do
		printf '%s\n' "$F" "$W" "rd=rd1,fwd=fwd1,$rd,elapsed=2,interval=1" >q.vdb
		run "$IORAMP" -f q.vdb -s
		[ "$status" -eq 0 ] || { echo "$rd: $output"; false; }
	done
	printf '%s\n' "$F" "$W" 'rd=rd1,fwd=fwd1,fwdrate=10,elapsed=2,interval=1,operations=write,foroperations=(read,getattr)' >q.vdb
	fs_refused q.vdb 3:80 "rd=rd1: operations= and foroperations= are mutually exclusive; expected one of them"
	# "No fwdrate= specified for rd=rd1" for fwdrate=0 alone, format=only too
	for r in 0 0.0; do
		printf '%s\n' "$F" "$W" "rd=rd1,fwd=fwd1,fwdrate=$r,format=only,elapsed=2,interval=1" >q.vdb
		fs_refused q.vdb 3:4 "rd=rd1 has no fwdrate=; expected fwdrate=max, a rate or curve"
	done
	printf '%s\n' "$F" "$W" 'rd=rd1,fwd=fwd1,fwdrate=(0,10),elapsed=2,interval=1' >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
	# (curve,10) is curve with curve='s points, as VDbench lists it; a word after it is not
	printf '%s\n' "$F" "$W" 'rd=rd1,fwd=fwd1,fwdrate=(curve,10),format=no,elapsed=2,interval=1' >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
	[ "$(grep -c 'fwdrate=curve\. For loops: None' <<<"$output")" -eq 7 ]
	[[ "$output" == *"Simulating RD=rd1_(10%); elapsed=2; fwdrate=curve. For loops: None"* ]]
	printf '%s\n' "$F" "$W" 'rd=rd1,fwd=fwd1,fwdrate=(curve,max),format=no,elapsed=2,interval=1' >q.vdb
	fs_refused q.vdb 3:32 "invalid fwdrate=(curve,max): 'max' after curve; expected fwdrate=curve and the points in curve="
	# VDbench says "at least twice" before "multiple of"
	printf '%s\n' "$F" "$W" 'rd=rd1,fwd=fwd1,fwdrate=10,elapsed=1,interval=5' >q.vdb
	fs_refused q.vdb 3:4 "rd=rd1: 'elapsed=1' must be at least twice 'interval=5'"
}

@test "fs: names defined twice are refused as VDbench: fsd= and fwd= in any case, rd= in the same case" {
	F='fsd=fsd1,anchor=/tmp/x,size=4k'
	R='rd=rd1,fwd=fwd1,fwdrate=10,elapsed=2,interval=1'
	printf '%s\n' "$F" 'fsd=FSD1,anchor=/tmp/y,size=4k' 'fwd=fwd1,fsd=fsd1' "$R" >q.vdb
	fs_refused q.vdb 2:5 "fsd=FSD1 is defined twice; expected a new name"
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1' 'fwd=FWD1,fsd=fsd1' "$R" >q.vdb
	fs_refused q.vdb 3:5 "fwd=FWD1 is defined twice; expected a new name"
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1' "$R" "$R" >q.vdb
	fs_refused q.vdb 4:4 "rd=rd1 is defined twice; expected a new name"
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1' "$R" "${R/rd=rd1/rd=RD1}" >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Simulating RD=RD1; elapsed=2"* ]]
}

@test "fs: format= takes any start of yes, no and directories, the other words whole, as VDbench" {
	for f in y ye n d di dir dire '(dir,only)'; do
		printf '%s\n' 'fsd=fsd1,anchor=/tmp/x,size=4k' 'fwd=fwd1,fsd=fsd1' \
			"rd=rd1,fwd=fwd1,fwdrate=10,format=$f,elapsed=2,interval=1" >q.vdb
		run "$IORAMP" -f q.vdb -s
		[ "$status" -eq 0 ] || { echo "$f: $output"; false; }
	done
	for f in o on r res c cl l li com dirs directory; do
		printf '%s\n' 'fsd=fsd1,anchor=/tmp/x,size=4k' 'fwd=fwd1,fsd=fsd1' \
			"rd=rd1,fwd=fwd1,fwdrate=10,format=$f,elapsed=2,interval=1" >q.vdb
		fs_refused q.vdb 3:35 "invalid format=$f: '$f'; expected yes, no, only"
	done
}

@test "fs: totalsize= and workingsetsize= beyond the anchor are refused at their place, as VDbench" {
	T='fsd=fsd1,anchor=/tmp/x,depth=2,width=2,files=2,size=4k'
	R='rd=rd1,fwd=fwd1,fwdrate=10,elapsed=2,interval=1'
	# VDbench 5.04.07: "fwd=fwd1,fsd=fsd1: The requested totalsize=33k is greater than the
	# estimated total anchor size of 32k", at -s, format=only and format=no too
	for rd in "$R" "$R,format=only" "$R,format=no"; do
		printf '%s\n' "$T,totalsize=33k" 'fwd=fwd1,fsd=fsd1' "$rd" >q.vdb
		fs_refused q.vdb 1:66 "rd=rd1, fwd=fwd1, fsd=fsd1: the requested totalsize=33k is greater than the estimated total anchor size of 32k; expected at most 32k"
	done
	printf '%s\n' "$T,wss=64k" 'fwd=fwd1,fsd=fsd1' "$R" >q.vdb
	fs_refused q.vdb 1:60 "rd=rd1, fwd=fwd1, fsd=fsd1: the requested workingset=64k is greater than the estimated total anchor size of 32k"
	printf '%s\n' "$T,totalsize=16k,wss=24k" 'fwd=fwd1,fsd=fsd1' "$R" >q.vdb
	fs_refused q.vdb 1:74 "rd=rd1, fwd=fwd1, fsd=fsd1: the requested workingset=24k is greater than the estimated totalsize=16k"
	# fordepth=: judged at each run's tree (64k fits depth=3 only, the first run is depth=2)
	printf '%s\n' "$T,totalsize=64k" 'fwd=fwd1,fsd=fsd1' "$R,fordepth=(2,3)" >q.vdb
	fs_refused q.vdb 1:66 "rd=rd1, fwd=fwd1, fsd=fsd1: the requested totalsize=64k is greater than the estimated total anchor size of 32k"
	# the whole tree, and an FSD no RD uses, are taken
	printf '%s\n' "$T,totalsize=32k" 'fsd=fsd2,anchor=/tmp/y,size=4k,totalsize=1g' 'fwd=fwd1,fsd=fsd1' "$R" >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
}

@test "fs: -s lists the anchors the RDs use; the totals line counts every FSD, as VDbench" {
	printf '%s\n' 'fsd=fsd1,anchor=/tmp/x1,depth=1,width=2,files=2,size=4k' \
		'fsd=fsd2,anchor=/tmp/x2,depth=1,width=1,files=1,size=4k' \
		'fsd=fsd3,anchor=/tmp/x3,depth=1,width=3,files=1,size=4k' \
		'fwd=fwd1,fsd=(fsd1,fsd3),operation=read' \
		'rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=4,interval=1' >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
	# VDbench 5.04.07's lines for this file
	[[ "$output" == *"Anchor size: anchor=/tmp/x1: dirs:            2; files:            4; bytes:      16384 (16,384)"* ]]
	[[ "$output" != *"anchor=/tmp/x2"* ]]
	[[ "$output" == *"Anchor size: anchor=/tmp/x3: dirs:            3; files:            3; bytes:      12288 (12,288)"* ]]
	[[ "$output" == *"Estimated totals for all 3 anchors: dirs: 5; files: 7; bytes: 28672 "* ]]
	# format=(only,limited): its format run's elapsed= is counted ("total elapsed time 4")
	printf '%s\n' 'fsd=fsd1,anchor=/tmp/x1,size=4k' 'fwd=fwd1,fsd=fsd1' \
		'rd=rd1,fwd=fwd1,fwdrate=10,format=(only,limited),elapsed=4,interval=1' >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"Total amount of Run Definitions: 1; total elapsed time 4 seconds"* ]]
}

@test "fs: what VDbench's -s lists and its run refuses is refused before a run, at its place" {
	mkdir -p "$SCRATCH/a"
	F="fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k"
	R='rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1'
	# (line, FSD or FWD line, place, message): VDbench 5.04.07 aborts each run, observed:
	# "Total skew must add up to 100: -5.0", "No files available for this slave",
	# OpRead's failure on xfersize=0, "Invalid 'openflags=' parameter for Linux: o_bogus"
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,operation=read,skew=-5' "$R" >p1.vdb
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,operation=read,skew=110' 'fwd=fwd2,fsd=fsd1,operation=getattr' "${R/fwd1/fwd*}" >p2.vdb
	printf '%s\n' "${F/width=2/width=0}" 'fwd=fwd1,fsd=fsd1,operation=read' "$R" >p3.vdb
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,operation=read,xfersize=0' "$R" >p4.vdb
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,operation=read,openflags=o_bogus' "$R" >p5.vdb
	printf '%s\n' "$F" 'fwd=fwd1,fsd=fsd1,operation=read,fileselect=(poisson,3)' "$R" >p6.vdb
	for c in "p1|3:4|rd=rd1: Total skew must add up to 100: -5.0" \
		"p2|2:39|rd=rd1: fwd=fwd1: invalid skew=110; expected a value from 0 to 100" \
		"p3|1:5|rd=rd1: fsd=fsd1: width=0 leaves no files available; expected width=1 or more" \
		"p4|2:43|rd=rd1: fwd=fwd1: xfersize=0 with operation=read; expected a transfer size of 1 byte or more" \
		"p5|2:44|invalid openflags=o_bogus; expected o_direct" \
		"p6|2:45|rd=rd1: fwd=fwd1: ioramp does not run fileselect=poisson"; do
		IFS='|' read -r f at msg <<<"$c"
		run "$IORAMP" -f $f.vdb -s
		[ "$status" -eq 0 ] || { echo "$f -s: $output"; false; }
		[[ "$output" == *"Simulating RD=rd1; elapsed=2; fwdrate=10; For loops: None"* ]]
		run "$IORAMP" -f $f.vdb -o out
		[ "$status" -eq 2 ]
		[[ "$output" == "$f.vdb:$at: error: $msg"* ]] || { echo "$f: $output"; false; }
		[ ! -e out ]
		[ ! -e "$SCRATCH/a/f1" ]
	done
}

@test "fs: VDbench's defaults and edges: ten 4k files, threads=-1 runs one, depth=-1 lays out depth=0" {
	printf '%s\n' 'fsd=fsd1,anchor=/tmp/x,depth=2,width=2' 'fwd=fwd1,fsd=fsd1,operation=read,threads=-1' \
		'rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=4,interval=1' >q.vdb
	run "$IORAMP" -f q.vdb -s
	[ "$status" -eq 0 ]
	# VDbench 5.04.07's lines for this file
	[[ "$output" == *"Anchor size: anchor=/tmp/x: dirs:            6; files:           40; bytes:   160.000k (163,840)"* ]]
	[[ "$output" == *" Note: Mismatch between threads requested (-1) and used (1)"* ]]
	# depth=-1: -s counts no directory and no file, the bytes of depth=0; the run lays out
	# width= directories of files= each and says depth -1 in vdb_control.file (observed)
	mkdir -p "$SCRATCH/a"
	printf '%s\n' "fsd=fsd1,anchor=$SCRATCH/a/f1,depth=-1,width=3,files=5,size=4k" \
		'fwd=fwd1,fsd=fsd1,operation=read' 'rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"anchor=$SCRATCH/a/f1: dirs:            0; files:            0; bytes:      61440 (61,440)"* ]]
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	[ "$(find "$SCRATCH/a/f1" -type d -name 'vdb.*.dir' | wc -l)" -eq 3 ]
	[ "$(find "$SCRATCH/a/f1" -type f -name 'vdb_f*.file' | wc -l)" -eq 15 ]
	grep -qx 'depth -1' "$SCRATCH/a/f1/vdb_control.file"
}

@test "fs: sizes=(avg,0) gives each file the size VDbench gives it, around the average" {
	mkdir -p "$SCRATCH/a"
	printf '%s\n' "fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=5,files=20,sizes=(8k,0)" \
		'fwd=fwd1,fsd=fsd1,operation=read' 'rd=rd1,fwd=fwd1,fwdrate=10,format=only,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"dirs:            5; files:          100; bytes:   811.000k (830,464)"* ]]
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# the sizes in k of VDbench 5.04.07's files 0 to 99 for this fsd (observed)
	[ "$(cd "$SCRATCH/a/f1" && find . -name 'vdb_f*.file' -printf '%f %s\n' | sort | awk '{ printf "%d ", $2 / 1024 }')" = \
		"10 11 6 9 9 6 8 5 9 10 7 6 7 9 12 12 11 4 12 5 6 7 5 7 5 10 4 4 8 4 12 9 5 6 9 6 7 4 10 12 12 10 8 11 10 12 10 9 11 4 11 7 8 10 11 12 5 8 5 5 12 6 10 9 10 5 5 7 8 6 4 9 5 10 7 11 7 9 11 11 12 10 11 8 9 4 5 6 6 6 11 5 4 7 10 6 10 12 10 10 " ]
	[ "$(sed -n 6,7p "$SCRATCH/a/f1/vdb_control.file" | tr '\n' ' ')" = "size  8192 size  0 " ]
	# (1m,0): 500k to 1500k by 100k; (100k,0): by 10k (VDbench's -s bytes)
	for s in '1m|105,574,400' '100k|10,280,960'; do
		printf '%s\n' "fsd=fsd1,anchor=/tmp/x,depth=1,width=4,files=25,sizes=(${s%|*},0)" \
			'fwd=fwd1,fsd=fsd1' 'rd=rd1,fwd=fwd1,fwdrate=10,elapsed=2,interval=1' >q.vdb
		run "$IORAMP" -f q.vdb -s
		[ "$status" -eq 0 ]
		[[ "$output" == *"(${s#*|})"* ]] || { echo "$s: $output"; false; }
	done
}

@test "fs: fileselect=(random,once) takes each file once and ends the run, as VDbench" {
	mkdir -p "$SCRATCH/a"
	printf '%s\n' "fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=2,files=2,size=4k" \
		'fwd=fwd1,fsd=fsd1,operation=read,fileio=sequential,fileselect=(random,once),threads=1' \
		'rd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# VDbench 5.04.07 on this file (observed): the message and four opens (it also ended in
	# its first interval, which a test on the real clock does not assert)
	[[ "$output" == *" localhost-0: Reached 'fileselect=once' for anchor $SCRATCH/a/f1"* ]]
	[[ "$output" == *"READ_OPENS          Files opened for read activity:                   4 "* ]]
	# the words VDbench takes, and the one pair it refuses
	for s in once '(once,random)' '(poisson,3,once)' '(sequential,once)'; do
		sed "s/fileselect=(random,once)/fileselect=$s/" p.vdb >q.vdb
		run "$IORAMP" -f q.vdb -s
		[ "$status" -eq 0 ] || { echo "$s: $output"; false; }
	done
	sed 's/fileselect=(random,once)/fileselect=(sequentialnz,once)/' p.vdb >q.vdb
	fs_refused q.vdb 2:63 "fileselect=(sequentialnz,once): sequentialnz and once may not be used together"
	sed 's/fileselect=(random,once)/fileselect=(random,twice)/' p.vdb >q.vdb
	fs_refused q.vdb 2:63 "invalid fileselect=(random,twice): 'twice'"
}

@test "fs: stopafter=50% closes a file once it moved half its size, as VDbench" {
	mkdir -p "$SCRATCH/a"
	printf '%s\n' "fsd=fsd1,anchor=$SCRATCH/a/f1,depth=1,width=1,files=1,size=64k" \
		'fwd=fwd1,fsd=fsd1,operation=read,fileio=random,xfersize=4k,stopafter=50%' \
		'rd=rd1,fwd=fwd1,fwdrate=40,format=yes,elapsed=2,interval=1' >p.vdb
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	# VDbench 5.04.07 (observed): eight 4k reads of the 64k file between an open and its close
	reads=$(awk 'index($0, "Starting RD=rd1;") { on = 1 } on && ($2 == "1" || $2 == "2") { n += $3 } END { print n }' <<<"$output")
	closes=$(awk 'index($0, "Starting RD=rd1;") { on = 1 } on && $2 == "FILE_CLOSES" { print $(NF - 1) }' <<<"$output")
	[ "$closes" -gt 0 ]
	[ "$reads" -ge $((8 * closes)) ] && [ "$reads" -lt $((8 * closes + 8)) ] || { echo "reads $reads closes $closes"; false; }
}
