#!/usr/bin/env bats
# Golden tests of every VDbench-format file (and the console) from a fixed-seed null-engine
# run, with times, dates, measured numbers, histogram bars and machine-dependent warning boxes
# masked (tests/data/vdbfiles/mask). The exact number formats are checked by
# tests/unit/test_report_vdb.c on synthetic statistics; this checks what a real run writes.
# IORAMP_UPDATE_GOLDEN=1 rewrites the golden files.

load helpers

@test "a fixed-seed run writes VDbench's files as the golden copies" {
	local data=$TESTS/data/vdbfiles
	TZ=UTC run "$IORAMP" -f "$data/run.vdb" -o out --engine null --seed 11 "dir=$SCRATCH"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >console.txt
	local n=0 f b
	for f in out/*.html out/swat_mon*.txt console.txt; do
		b=$(basename "$f")
		# report.html is ioramp's own; config.html shows the machine (its own test below)
		[ "$b" = report.html ] || [ "$b" = config.html ] && continue
		"$data/mask" "$SCRATCH" "$f" >"$b.masked"
		if [ -n "${IORAMP_UPDATE_GOLDEN:-}" ]; then
			cp "$b.masked" "$data/golden/$b.masked"
		fi
		diff -u "$data/golden/$b.masked" "$b.masked"
		n=$((n + 1))
	done
	# every golden file was produced
	[ "$n" -eq "$(ls "$data/golden" | wc -l)" ]
}

# scan.parmscan.expected is ioramp's parmscan.html, checked equal to VDbench 5.04.07's for the
# same file (tests/data/vdbfiles/regen-vdbench.sh).
@test "parmscan.html traces every line, keyword and value as VDbench does" {
	local data=$TESTS/data/vdbfiles
	run "$IORAMP" -f "$data/scan.vdb" -o out --engine null "dir=$SCRATCH"
	[ "$status" -eq 0 ]
	diff -u "$data/scan.parmscan.expected" \
		<(tail -n +2 out/parmscan.html | cut -c14- | sed "s|$SCRATCH|DIR|g")
	grep -q 'HREF="parmscan.html"' out/summary.html
}

@test "an absolute -o is titled by its last component, as VDbench does" {
	run "$IORAMP" -f "$TESTS/data/vdbfiles/run.vdb" -o "$PWD/deep/out" --engine null \
		"dir=$SCRATCH"
	[ "$status" -eq 0 ]
	[ "$(head -1 deep/out/totals.html)" = "<title>Vdbench out/totals.html</title><pre>" ]
}

@test "flatfile: dedupratio n/a without dedup, three decimals in the max columns" {
	run "$IORAMP" -f "$TESTS/data/vdbfiles/run.vdb" -o out --engine null --seed 11 \
		"dir=$SCRATCH"
	[ "$status" -eq 0 ]
	local hdr line
	hdr=$(grep -m1 '^ *tod ' out/flatfile.html)
	line=$(grep -m1 ' rd1 ' out/flatfile.html)
	col() { local i=1; for w in $hdr; do [ "$w" = "$1" ] && break; i=$((i + 1)); done
		echo "$line" | awk -v i="$i" '{print $i}'; }
	[ "$(col dedupratio)" = n/a ]
	[[ "$(col resp_max)" =~ ^[0-9]+(\.[0-9]{1,3})?$ ]]
	[[ "$(col read_max)" =~ ^[0-9]+(\.[0-9]{1,3})?$ ]]
	[ "$(col xfersize)" = 4096 ]
}

@test "logfile.html: a variable argument whole, each lun size and the total, as VDbench logs them" {
	run "$IORAMP" -f "$TESTS/data/vdbfiles/run.vdb" -o out --engine null "dir=$SCRATCH"
	[ "$status" -eq 0 ]
	grep -q "input argument scanned: 'dir=$SCRATCH'\$" out/logfile.html
	grep -q "sd=sd1,lun=$SCRATCH/g1 lun size: 8,388,608 bytes; 0.0078 GB (1024\*\*3); 0.0084 GB (1000\*\*3)\$" out/logfile.html
	grep -q " Total SD size: 16,777,216 bytes; 0.0156 GB (1024\*\*3); 0.0168 GB (1000\*\*3)\$" out/logfile.html
}

@test "-s with -o leaves VDbench's simulation files; -s alone writes nothing" {
	run "$IORAMP" -f "$TESTS/data/vdbfiles/run.vdb" -s -o sim "dir=$SCRATCH"
	[ "$status" -eq 0 ]
	[ "$(ls sim | tr '\n' ' ')" = "flatfile.html logfile.html parmfile.html parmscan.html status.html summary.html totals.html " ]
	[ "$(tail -n +2 sim/totals.html)" = "Run totals" ]
	[ "$(tail -1 sim/summary.html | cut -c14-)" = "Vdbench simulation completed successfully" ]
	grep -q ' Simulating RD=rd1; I/O rate: 1000;' sim/logfile.html
	grep -q ' Total amount of Run Definitions: 3;' sim/logfile.html
	! grep -q 'Total amount' sim/summary.html || false
	grep -q ' keyw: sd=sd1$' sim/parmscan.html
	[ "$(wc -l <sim/flatfile.html)" -eq 1 ]
	mkdir alone && cd alone
	run "$IORAMP" -f "$TESTS/data/vdbfiles/run.vdb" -s "dir=$SCRATCH"
	[ "$status" -eq 0 ]
	[ -z "$(ls)" ]
}

@test "config.html: the host's commands in VDbench's order, each after the date" {
	run "$IORAMP" -f "$TESTS/data/vdbfiles/run.vdb" -o out --engine null --seed 11 \
		"dir=$SCRATCH"
	[ "$status" -eq 0 ]
	[ "$(grep '^>>>>>' out/config.html | tr '\n' '|')" = \
		">>>>>uname -a|>>>>>ifconfig -a|>>>>>id|>>>>>mount|>>>>>memory|>>>>>ps -ef | grep -i vdb|" ]
	# each heading follows date(1)'s line, and the commands ran here
	[ "$(grep -B1 '^>>>>>' out/config.html | grep -cE '^[A-Z][a-z]{2} [A-Z][a-z]{2} [0-9]{1,2} ')" -eq 6 ]
	grep -q "^$(uname -s) " out/config.html
	grep -q '^MemTotal:' out/config.html
	grep -q 'HREF="config.html"' out/summary.html
	grep -q 'HREF="localhost.html"' out/summary.html
}

# The lines VDbench 5.04.07 prints before its listing, as it prints them (observed; the corpus
# compares from the first Simulating line on).
@test "-s: interval=0, thread counts below 1 and the JVM count VDbench would adjust, before the listing" {
	printf 'sd=sd1,lun=%s/f1\nsd=sd2,lun=%s/f2\nwd=wd1,sd=sd*\n' "$SCRATCH" "$SCRATCH" >n.vdb
	printf 'rd=rd1,wd=wd1,iorate=100,elapsed=30,interval=0\n' >>n.vdb
	printf 'rd=rd2,wd=wd1,iorate=(200000,max),elapsed=2,forthreads=(0,1)\n' >>n.vdb
	run "$IORAMP" -f n.vdb -s
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | cut -c14- | sed -n '/^Simulating/q;p' >got
	cat >want <<'W'
'interval=' not specified. Setting to 15 seconds. ( 'min(elapsed/2,60)' )
Setting some threadcounts to a minimum of 1 

Adjusted default JVM count for host=localhost from jvms=1 to jvms=2 because of iorate=200000 and a total of 2 sds.

Setting some threadcounts to a minimum of 1 
Setting some threadcounts to a minimum of 1 
Setting some threadcounts to a minimum of 1 
W
	diff want got
	# jvms= on hd=default: VDbench keeps its count and says nothing
	sed -i '1i hd=default,jvms=1' n.vdb
	run "$IORAMP" -f n.vdb -s
	[ "$status" -eq 0 ]
	[[ "$output" != *"Adjusted default JVM count"* ]]
}

@test "report_run_totals=yes leaves the empty totals_optional.html VDbench 5.04.07 leaves" {
	printf 'report_run_totals=yes\nsd=sd1,lun=%s/f1,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' \
		"$SCRATCH" >t.vdb
	run "$IORAMP" -f t.vdb -o out --engine model
	[ "$status" -eq 0 ]
	[ -f out/totals_optional.html ] && [ ! -s out/totals_optional.html ]
}

@test "a missing or short file: VDbench's notices before the format pass" {
	head -c 1048576 /dev/zero >short
	printf 'sd=sd1,lun=%s/gone,size=4m\nsd=sd2,lun=%s/short,size=4m\nwd=wd1,sd=sd*\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' \
		"$SCRATCH" "$SCRATCH" >f.vdb
	run "$IORAMP" -f f.vdb -o out --engine null
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | cut -c14- | sed -n '/^Starting RD=SD_format/q;p' |
		sed -E 's/^(Starting slave: )[^ ]+ (.* -n localhost-10-)[0-9.-]+ /\1PROG \2STAMP /' >got
	# VDbench's slave starts before the luns' notices, on the console too
	cat >want <<W
Starting slave: PROG SlaveJvm -m localhost -n localhost-10-STAMP -l localhost-0 -p 5570   
All slaves are now connected

Warning: size requested for sd=sd2,lun=$SCRATCH/short: 4194304; size available: 1048576. Insufficient size.
If this is a file system file vdbench will try to expand it. 

Vdbench will attempt to expand a disk file if the requested file size is a multiple of 1mb
lun=$SCRATCH/gone does not exist or is too small. host=localhost
lun=$SCRATCH/short does not exist or is too small. host=localhost
W
	diff want got
	grep -q 'lun=.*/gone does not exist or is too small' out/logfile.html
}

# VDbench 5.04.07 (observed): every block of swat_mon.txt lists all SDs of the configuration,
# swat_mon_total.txt the run's, each in the order of Java's HashMap of SD names (sd2 before
# sd1), with the SD's index in the configuration first.
@test "swat_mon.txt and swat_mon_total.txt: one block per interval and per run, SDs in VDbench's order" {
	TZ=UTC run "$IORAMP" -f "$TESTS/data/vdbfiles/run.vdb" -o out --engine null --seed 11 \
		"dir=$SCRATCH"
	[ "$status" -eq 0 ]
	[[ "$(head -1 out/swat_mon.txt)" =~ ^:date\ [0-9]{8}-[0-9]{2}:[0-9]{2}:[0-9]{2}\.000$ ]]
	[ "$(sed -n '2,4p' out/swat_mon.txt)" = ":fixed_data
0 0 0 0 sd_sd1
1 1 0 0 sd_sd2" ]
	# the format pass's interval, rd1's 3, rd2's curve max run and 50% point 2 each; a total
	# for each of the 4 runs
	[ "$(grep -c '^:vdbench503_vdbench_data_for_swat303$' out/swat_mon.txt)" -eq 8 ]
	[ "$(grep -c '^:vdbench503_vdbench_data_for_swat303$' out/swat_mon_total.txt)" -eq 4 ]
	[ "$(awk 'NF == 14 { printf "%s ", $1 }' out/swat_mon.txt | cut -c1-8)" = "1 0 1 0 " ]
	# 14 fields; sectors are bytes / 512, the total service time at least the max
	awk '/^[0-9]/ && !/ sd_/ { if (NF != 14 || $5 < $9) exit 1 }' out/swat_mon.txt
	# the total of rd1 is its two non-warmup intervals, reads and writes summed
	local want got
	want=$(awk '/swat303/ { b++ } b >= 3 && b <= 4 && /^0 0 / { r += $3; w += $4 } END { print r, w }' out/swat_mon.txt)
	got=$(awk '/swat303/ { b++ } b == 2 && /^0 0 / { print $3, $4 }' out/swat_mon_total.txt)
	[ "$want" = "$got" ]
}

@test "swat_mon.txt is not written by -s" {
	run "$IORAMP" -f "$TESTS/data/vdbfiles/run.vdb" -o out -s "dir=$SCRATCH"
	[ "$status" -eq 0 ]
	[ ! -e out/swat_mon.txt ]
	[ ! -e out/swat_mon_total.txt ]
}

# VDbench 5.04.07 [observed]: after a run whose workloads' shares of the I/O are off their skew
# by more than abort_failed_skew=N percent, the execution ends (the later runs never start).
@test "abort_failed_skew=: a run off its skew by more than N% ends the execution" {
	cat >p.vdb <<PARM
abort_failed_skew=LIMIT
sd=sd1,lun=$SCRATCH/f1,size=8m
sd=sd2,lun=$SCRATCH/f2,size=8m
wd=wd1,sd=sd1,skew=90
wd=wd2,sd=sd2,skew=10
rd=rd1,wd=wd*,iorate=1000,elapsed=2,interval=1
rd=rd2,wd=wd*,iorate=1000,elapsed=2,interval=1
PARM
	sed 's/LIMIT/0.0001/' p.vdb >tight.vdb
	run "$IORAMP" -f tight.vdb -o out --engine model --seed 3
	[ "$status" -eq 1 ]
	[[ "$output" =~ tight.vdb:1:19:\ error:\ rd=rd1:\ wd=wd[12]\ did\ [0-9.]+%\ of\ the\ I/O,\ off\ its\ skew\ of\ [19]0.00%\ by\ [0-9.]+%,\ more\ than\ abort_failed_skew=0.000\ allows ]]
	grep -q 'Starting RD=rd1' out/logfile.html
	! grep -q 'Starting RD=rd2' out/logfile.html || false
	grep -q 'skew requested' out/skew.html || grep -q 'requested observed' out/skew.html
	sed 's/LIMIT/50/' p.vdb >loose.vdb
	run "$IORAMP" -f loose.vdb -o out2 --engine model --seed 3
	[ "$status" -eq 0 ]
	grep -q 'Starting RD=rd2' out2/logfile.html
}

# VDbench 5.04.07 [observed, report=(host_detail,slave_detail), two SDs]: the host's and the
# slave's SD reports and histograms, linked from localhost.html and localhost-0.html; on one
# host with one slave their lines are the SD's and the run's own.
@test "report=host_detail and slave_detail: the host's and the slave's SD reports and histograms" {
	cat >p.vdb <<PARM
report=(host_detail,slave_detail)
sd=sd1,lun=$SCRATCH/f1,size=8m
sd=sd2,lun=$SCRATCH/f2,size=8m
wd=wd1,sd=sd*,rdpct=50
rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out --engine model --seed 5
	[ "$status" -eq 0 ]
	local f
	for f in localhost.sd1.html localhost.sd2.html localhost.histogram.html \
		localhost-0.sd1.html localhost-0.sd2.html localhost-0.histogram.html; do
		[ -s "out/$f" ]
	done
	[ "$(sed -n 2p out/localhost.sd1.html)" = "Host SD report for sd=sd1,host=localhost,lun=$SCRATCH/f1" ]
	[ -z "$(sed -n 3,4p out/localhost.sd1.html | tr -d '\n')" ]
	[[ "$(sed -n 5p out/localhost.sd1.html)" == "Link to Run Definitions: "* ]]
	[ "$(sed -n 2p out/localhost-0.sd2.html)" = "Slave SD report for sd=sd2" ]
	[ "$(sed -n 2p out/localhost.histogram.html)" = "Host response time histogram." ]
	[ "$(sed -n 2p out/localhost-0.histogram.html)" = "Slave response time histogram." ]
	# the figures are the SD's and the run's: the same lines as sd1.html and histogram.html
	diff <(grep -E '^[0-9:.]{12} +(avg_)?[0-9-]+ ' out/sd1.html) \
		<(grep -E '^[0-9:.]{12} +(avg_)?[0-9-]+ ' out/localhost.sd1.html)
	diff <(sed 1,3d out/histogram.html) <(sed 1,3d out/localhost-0.histogram.html)
	grep -qx 'Link to response time histogram: <A HREF="localhost.histogram.html">histogram</A>' out/localhost.html
	grep -qx "Link to host SD reports:         <A HREF=\"localhost.sd1.html\">sd=sd1,host=localhost,lun=$SCRATCH/f1</A>" out/localhost.html
	grep -qx "                                 <A HREF=\"localhost.sd2.html\">sd=sd2,host=localhost,lun=$SCRATCH/f2</A>" out/localhost.html
	grep -qx 'Link to response time histogram: <A HREF="localhost-0.histogram.html">histogram</A>' out/localhost-0.html
	grep -qx "Links to slave SD reports:       <A HREF=\"localhost-0.sd1.html\">sd=sd1,host=localhost,lun=$SCRATCH/f1</A>" out/localhost-0.html
	# without report= none of them
	sed -i 1d p.vdb
	run "$IORAMP" -f p.vdb -o out2 --engine model --seed 5
	[ "$status" -eq 0 ]
	[ -z "$(ls out2 | grep -E '^localhost(-0)?\.(sd|histogram)')" ]
	! grep -q 'SD reports' out2/localhost.html || false
}

# VDbench 5.04.07 [observed, report=slave_detail, jvms=3]: every slave has its SD reports and
# histogram (localhost-N.<sd>.html, localhost-N.histogram.html), linked from localhost-N.html,
# with that slave's own share of the I/O.
@test "report=slave_detail with jvms=3: each slave's SD reports and histogram, its own share" {
	cat >p.vdb <<PARM
report=slave_detail
hd=default,jvms=3
sd=sd1,lun=$SCRATCH/f1,size=8m,threads=5
sd=sd2,lun=$SCRATCH/f2,size=8m,threads=1
wd=wd1,sd=sd*,rdpct=50
rd=rd1,wd=wd1,iorate=600,elapsed=10,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out --engine model --seed 5
	[ "$status" -eq 0 ]
	local k s
	for k in 0 1 2; do
		for s in sd1 sd2; do
			[ "$(sed -n 2p out/localhost-$k.$s.html)" = "Slave SD report for sd=$s" ]
		done
		[ "$(sed -n 2p out/localhost-$k.histogram.html)" = "Slave response time histogram." ]
		grep -qx "Link to response time histogram: <A HREF=\"localhost-$k.histogram.html\">histogram</A>" out/localhost-$k.html
		grep -qx "Links to slave SD reports:       <A HREF=\"localhost-$k.sd1.html\">sd=sd1,host=localhost,lun=$SCRATCH/f1</A>" out/localhost-$k.html
	done
	[ ! -e out/localhost-3.sd1.html ]
	# the avg_ I/O counts (rate x 9 averaged intervals, to the rounding of the rates): each
	# SD's over the slaves adds up to the SD's, each slave's histogram counts its own
	ios() { awk '$2 ~ /^avg_/ { printf "%.0f\n", $3 * 9 }' "$@" | paste -sd+ | bc; }
	near() { [ $(($1 - $2)) -le 2 ] && [ $(($2 - $1)) -le 2 ]; }
	for s in sd1 sd2; do
		near "$(ios out/localhost-[012].$s.html)" "$(ios out/$s.html)"
	done
	hist() { awk '/^Reads and writes:/ { on = 1; next } on && /^ *[0-9.]+ </ { gsub(",", "", $4); n += $4 }
		on && /^Reads:/ { exit } END { print n }' "$1"; }
	for k in 0 1 2; do
		near "$(hist out/localhost-$k.histogram.html)" "$(ios out/localhost-$k.html)"
	done
	# the rate split over the (SD, slave) pairs: sd1's five threads on all three, sd2's one
	# on slave 2 (150/s each)
	awk -v a="$(ios out/localhost-2.html)" -v b="$(ios out/localhost-0.html)" \
		'BEGIN { exit !(a > b * 1.8 && a < b * 2.2) }'
	# slave 1 has none of sd2's threads: its sd2 report has no I/O
	[ "$(ios out/localhost-1.sd2.html)" = 0 ]
}

# VDbench 5.04.07 [observed]: streams= runs only at iorate=max, and with threads= a multiple of
# the stream count; each stream is an equal piece of the SD (showlba: 0-4m and 4m-8m of 8 MiB).
@test "streams=: VDbench's iorate=max and threads requirements, then one sequential stream per piece" {
	cat >p.vdb <<PARM
showlba=yes
sd=sd1,lun=$SCRATCH/f1,size=8m
wd=wd1,sd=sd1,streams=2,seekpct=0,xfersize=4k
rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,threads=4
PARM
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "p.vdb:3:23: error: wd=wd1: streams= in rd=rd1 needs iorate=max, as VDbench requires it" ]
	sed -i 's/iorate=100/iorate=max/; s/threads=4/threads=3/' p.vdb
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "p.vdb:3:23: error: wd=wd1: streams=2 on sd=sd1 with threads=3 in rd=rd1; expected threads= a multiple of streams= (VDbench refuses it too)" ]
	sed -i 's/threads=3/threads=4/' p.vdb
	run "$IORAMP" -f p.vdb -o out2 --engine model
	[ "$status" -eq 0 ]
	# each stream starts at its piece and goes forward one block at a time
	awk '$4 < 4194304' localhost-0.showlba.txt | head -3 | awk '{print $4}' | tr '\n' ' ' >lo
	awk '$4 >= 4194304' localhost-0.showlba.txt | head -3 | awk '{print $4}' | tr '\n' ' ' >hi
	[ "$(cat lo)" = "0 4096 8192 " ]
	[ "$(cat hi)" = "4194304 4198400 4202496 " ]
	lo=$(awk '$4 < 4194304' localhost-0.showlba.txt | wc -l)
	hi=$(awk '$4 >= 4194304' localhost-0.showlba.txt | wc -l)
	[ $((lo * 100 / (lo + hi))) -ge 40 ] && [ $((lo * 100 / (lo + hi))) -le 60 ]
}

# VDbench 5.04.07 [observed]: streams= deal the k-th (SD, stream) of the run to slave k mod
# jvms, with threads= / streams= threads each, and every slave says so in a StreamContext line
# per thread before its SD's "Started" line; range= is ignored (the pieces cover the SD).
@test "streams= over slaves: each stream's slave, threads and piece as VDbench's StreamContext lines" {
	cat >p.vdb <<PARM
sd=default,threads=4
sd=sd1,lun=$SCRATCH/f1,size=8m
sd=sd2,lun=$SCRATCH/f2,size=8m
sd=sd3,lun=$SCRATCH/f3,size=8m
sd=sd4,lun=$SCRATCH/f4,size=8m
wd=wd1,sd=sd*,xfersize=64k,rdpct=100,seekpct=0,streams=2,range=(10,60)
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	[[ "$output" == *"from jvms=1 to jvms=4 because of iorate=max and a total of 4 sds."* ]]
	lines_of() { sed 's/<[^>]*>//g' "$1" | grep -E 'StreamContext|Started|Opening' | cut -c27-; }
	lines_of out/localhost-0.stdout.html >got
	cat >want <<'W'
Opening sd=sd1,lun=SCRATCH/f1
Opening sd=sd3,lun=SCRATCH/f3
StreamContext for thread=00; stream=0: sd=sd1; low:        0; high:       4m size:       4m
StreamContext for thread=01; stream=0: sd=sd1; low:        0; high:       4m size:       4m
Started  2 i/o threads for sd1
StreamContext for thread=00; stream=0: sd=sd3; low:        0; high:       4m size:       4m
StreamContext for thread=01; stream=0: sd=sd3; low:        0; high:       4m size:       4m
Started  2 i/o threads for sd3
Started a total of  4 i/o threads.
W
	sed -i "s|SCRATCH|$SCRATCH|" want
	diff want got
	lines_of out/localhost-3.stdout.html | grep -c 'stream=1: sd=sd[24]; low:       4m; high:       8m size:       4m' >n
	[ "$(cat n)" = 4 ]
	# each slave ran its share: two streams of 2 threads each
	for k in 0 1 2 3; do
		awk '$2 ~ /^avg_/ { exit !($3 > 0) }' out/localhost-$k.html
	done
	# pieces of a size that is not a whole number of transfers: whole transfers, 3 decimals
	cat >p.vdb <<PARM
hd=default,jvms=3
sd=sd1,lun=$SCRATCH/f1,size=10000000,threads=6
wd=wd1,sd=sd1,xfersize=4k,rdpct=100,seekpct=0,streams=3
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out2 --engine model
	[ "$status" -eq 0 ]
	lines_of out2/localhost-2.stdout.html | grep StreamContext >got
	[ "$(sed -n 2p got)" = "StreamContext for thread=01; stream=2: sd=sd1; low:   6.352m; high:   9.527m size:   3.176m" ]
	[ "$(wc -l <got)" = 2 ]
}

# VDbench 5.04.07 [observed]: showlba=yes writes localhost-0.showlba.txt in the current
# directory, one line per I/O: SD, WD, 1 for a read (0 for a write), byte offset, milliseconds
# since the run started.
@test "showlba=yes: localhost-0.showlba.txt in the current directory, one line per I/O" {
	cat >p.vdb <<PARM
showlba=yes
sd=sd1,lun=$SCRATCH/f1,size=8m
sd=sd2,lun=$SCRATCH/f2,size=8m
wd=wd1,sd=sd1,rdpct=100
wd=wd2,sd=sd2,rdpct=0,xfersize=8k
rd=rd1,wd=wd*,iorate=200,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out --engine model --seed 7
	[ "$status" -eq 0 ]
	[ -s localhost-0.showlba.txt ]
	# every line: a read of wd1 on sd1 or a write of wd2 on sd2, 4k / 8k aligned, in the run
	awk '!(($1 == "sd1" && $2 == "wd1" && $3 == 1 && $4 % 4096 == 0) ||
	       ($1 == "sd2" && $2 == "wd2" && $3 == 0 && $4 % 8192 == 0)) || NF != 5 ||
	     $4 >= 8388608 || $5 > 2000 { bad++ } END { exit bad > 0 }' localhost-0.showlba.txt
	[ "$(awk '$2 == "wd1"' localhost-0.showlba.txt | wc -l)" -gt 100 ]
	[ "$(awk '$2 == "wd2"' localhost-0.showlba.txt | wc -l)" -gt 100 ]
	# times in order
	sort -n -k5,5 -s localhost-0.showlba.txt | cmp - localhost-0.showlba.txt
	# one recorder at a time
	run "$IORAMP" -f p.vdb -o out2 --engine model --record x.iolog
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "p.vdb:1:9: error: showlba=yes and --record x.iolog both record every I/O; expected one of them" ]]
	# -s records nothing
	rm localhost-0.showlba.txt
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
	[ ! -e localhost-0.showlba.txt ]
}

# Observed with VDbench 5.04.07 (an RD reading to eof, then two RDs, each on its own WD):
# <wd>.histogram.html has only the anchor for a run without that WD, "No statistics generated
# for this run." for a run whose averaged intervals did no I/O, and a run's histogram ends with
# one blank line (then one more and the next anchor); flatfile's seekpct of an eof run is n/a.
@test "histograms: nothing for a run without the WD, one blank line between runs; eof seekpct n/a" {
	truncate -s 1m f1
	cat >h.vdb <<W
sd=sd1,lun=$SCRATCH/f1,size=1m
wd=we,sd=sd1,xfersize=64k,seekpct=eof,rdpct=100
wd=wa,sd=sd1,xfersize=4k,rdpct=70
wd=wb,sd=sd1,xfersize=4k,rdpct=50
rd=re,wd=we,iorate=max,elapsed=2,interval=1
rd=ra,wd=wa,iorate=100,elapsed=2,interval=1
rd=rb,wd=wb,iorate=100,elapsed=2,interval=1
W
	run "$IORAMP" -f h.vdb -o out --engine model
	[ "$status" -eq 0 ]
	# wa's page: the bare anchor of re, ra's sections, the bare anchor of rb; lines that are
	# not buckets, blank lines as '.'
	grep -v '^ *[0-9.]* <' out/wa.histogram.html | sed -n '/Starting RD=re;/,$p' |
		sed -E 's/.*Starting RD=([a-z]+);.*/\1/; s/^$/./; s/^  min.*/head/' | tr '\n' ' ' >got
	[ "$(cat got)" = "re . . ra . Reads and writes: head . . Reads: head . . Writes: head . . . rb . " ]
	# the run with I/O in its averaged intervals ends with one blank line in every file
	[ -z "$(tail -1 out/histogram.html)" ]
	[ -n "$(tail -2 out/histogram.html | head -1)" ]
	# re read 1m in 64k blocks inside its first interval: no averaged interval
	[ "$(grep -c 'No statistics generated for this run.' out/we.histogram.html)" -eq 1 ]
	local hdr line
	hdr=$(grep -m1 '^ *tod ' out/flatfile.html)
	line=$(grep -m1 ' re  *1 ' out/flatfile.html)
	col() { local i=1; for w in $hdr; do [ "$w" = "$1" ] && break; i=$((i + 1)); done
		echo "$line" | awk -v i="$i" '{print $i}'; }
	[ "$(col seekpct)" = n/a ]
}

# Observed with VDbench 5.04.07 (forthreads=(1,2),forxfersize=(4k,16k),forrdpct=(0,100), and
# forrdpct=(50) as the inner loop): a run whose innermost loop value alone changed shows that
# value under its place in the line above; any other change repeats the whole line.
@test "run links: only the innermost loop value under its column, else the whole line" {
	truncate -s 1m f1
	printf 'sd=sd1,lun=%s/f1,size=1m\nwd=wd1,sd=sd1,xfersize=4k\n' "$SCRATCH" >l.vdb
	printf 'rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,forthreads=(1,2),' >>l.vdb
	printf 'forxfersize=(4k,16k),forrdpct=(0,100)\n' >>l.vdb
	printf 'rd=rd2,wd=wd1,iorate=max,elapsed=2,interval=1,forthreads=(1,2),forrdpct=(50)\n' >>l.vdb
	run "$IORAMP" -f l.vdb -o out --engine model
	[ "$status" -eq 0 ]
	sed -n '/^Link to Run/,/^$/p' out/totals.html | sed -E 's/#_[0-9]+/#/' >got
	cat >want <<'W'
Link to Run Definitions:         <A HREF="#">rd1 For loops: threads=1 xfersize=4k rdpct=0</A>
                                                                      <A HREF="#">rdpct=100</A>
                                 <A HREF="#">rd1 For loops: threads=1 xfersize=16k rdpct=0</A>
                                                                       <A HREF="#">rdpct=100</A>
                                 <A HREF="#">rd1 For loops: threads=2 xfersize=4k rdpct=0</A>
                                                                      <A HREF="#">rdpct=100</A>
                                 <A HREF="#">rd1 For loops: threads=2 xfersize=16k rdpct=0</A>
                                                                       <A HREF="#">rdpct=100</A>
                                 <A HREF="#">rd2 For loops: threads=1 rdpct=50</A>
                                 <A HREF="#">rd2 For loops: threads=2 rdpct=50</A>

W
	diff -u want got
}

# Observed with VDbench 5.04.07: an SD and a WD that no RD uses get no page, no histogram and
# no link in summary.html; swat_mon.txt still lists every SD.
@test "an SD or WD no run uses has no page and no link" {
	truncate -s 1m f1 f2 f3
	cat >u.vdb <<W
sd=sd1,lun=$SCRATCH/f1,size=1m
sd=sd2,lun=$SCRATCH/f2,size=1m
sd=sd3,lun=$SCRATCH/f3,size=1m
wd=wa,sd=sd1,xfersize=4k
wd=wb,sd=sd2,xfersize=4k
wd=wc,sd=sd3,xfersize=4k
rd=ra,wd=wa,iorate=100,elapsed=2,interval=1
rd=rb,wd=wb,iorate=100,elapsed=2,interval=1
W
	run "$IORAMP" -f u.vdb -o out --engine model
	[ "$status" -eq 0 ]
	[ -e out/sd2.html ] && [ -e out/wb.histogram.html ]
	[ -z "$(ls out | grep -E '^(sd3|wc)\.')" ]
	! grep -qE 'sd3|wc' out/summary.html || false
	grep -q ' sd_sd3$' out/swat_mon.txt
}

# Observed with VDbench 5.04.07: the repeated first keyword of a kind of definition is
# recognised whatever its case (Sd= five times, wD= twice, as sd= and wd=).
@test "parmscan.html repeats an upper- or mixed-case first keyword as a lower-case one" {
	printf 'Sd=sd1,lun=%s/f1,size=1m\nwD=wd1,sd=sd1\nRD=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' \
		"$SCRATCH" >c.vdb
	run "$IORAMP" -f c.vdb -s -o out
	[ "$status" -eq 0 ]
	[ "$(grep -c ' keyw: Sd=sd1$' out/parmscan.html)" -eq 5 ]
	[ "$(grep -c ' keyw: wD=wd1$' out/parmscan.html)" -eq 2 ]
	[ "$(grep -c ' keyw: RD=rd1$' out/parmscan.html)" -eq 3 ]
}

# Observed with VDbench 5.04.07 (-f ./top.vdb more.vdb, top.vdb with a relative include=):
# parmfile.html names each file by its absolute name (the current directory, '/', the name as
# given), an included file as "include file", then "Continuing with original file:" and the
# name as given; parmscan.html scans the included lines, not the include= line.
@test "parmfile.html and parmscan.html around an include= file" {
	printf 'sd=sd1,lun=%s/f1,size=1m\n' "$SCRATCH" >sds.inc
	printf '* top\ninclude=sds.inc\nwd=wd1,sd=*\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' >top.vdb
	printf 'rd=rd2,wd=wd1,iorate=10,elapsed=2,interval=1\n' >more.vdb
	run "$IORAMP" -f ./top.vdb more.vdb -s -o out
	[ "$status" -eq 0 ]
	tail -n +2 out/parmfile.html >got
	cat >want <<W

* Contents of parameter file: $SCRATCH/./top.vdb

* top
include=sds.inc

* Contents of include file: $SCRATCH/sds.inc

sd=sd1,lun=$SCRATCH/f1,size=1m

* Continuing with original file: ./top.vdb

wd=wd1,sd=*
rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1

* Contents of parameter file: $SCRATCH/more.vdb

rd=rd2,wd=wd1,iorate=10,elapsed=2,interval=1
W
	diff -u want got
	! grep -q 'include' out/parmscan.html || false
	[ "$(sed -n 2p out/parmscan.html | cut -c14-)" = "line: sd=sd1,lun=$SCRATCH/f1,size=1m" ]
}

# Observed with VDbench 5.04.07 (jvms=1; ra on sd1 with wa, rb on sd2 with wb): sd1.html has a
# line of zeros for each interval of rb and no average; wa.html has only rb's anchor.
@test "SD page: a line of zeros per interval of a run without the SD; WD page: nothing" {
	truncate -s 1m f1 f2
	cat >z.vdb <<W
sd=sd1,lun=$SCRATCH/f1,size=1m
sd=sd2,lun=$SCRATCH/f2,size=1m
wd=wa,sd=sd1,xfersize=4k
wd=wb,sd=sd2,xfersize=4k
rd=ra,wd=wa,iorate=100,elapsed=2,interval=1
rd=rb,wd=wb,iorate=100,elapsed=2,interval=1
W
	run "$IORAMP" -f z.vdb -o out --engine model
	[ "$status" -eq 0 ]
	sed -n '/Starting RD=rb;/,$p' out/sd1.html | tail -n +2 | sed -E 's/^[0-9:.]+ +//' >got
	[ "$(grep -c '^[12] *0\.0 *0\.00 *0 *0\.00 *0\.000 ' got)" -eq 2 ]
	! grep -q avg_ got || false
	grep -q 'avg_2-2' <(sed -n '/Starting RD=rb;/,$p' out/sd2.html)
	[ -z "$(sed -n '/Starting RD=rb;/,$p' out/wa.html | tail -n +2 | tr -d '\n')" ]
}

# Observed with VDbench 5.04.07: maxdata= reached at the end of interval k prints "Reached
# maxdata=...m. rd=... shutting down after next interval. " on the console, in logfile.html
# and in summary.html, and the run ends after interval k + 1. Here about 100 x 64k a second:
# 10m is passed after interval 3 (interval 1 is not counted).
@test "maxdata=: VDbench's message in console, logfile and summary; one more interval" {
	truncate -s 8m f1
	printf 'sd=sd1,lun=%s/f1,size=8m\nwd=wd1,sd=sd1,xfersize=64k\n' "$SCRATCH" >m.vdb
	printf 'rd=rd1,wd=wd1,iorate=100,elapsed=60,interval=1,maxdata=10m\n' >>m.vdb
	run "$IORAMP" -f m.vdb -o out --engine model:units=8,read_us=100,dist=fixed
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >console
	for f in console out/summary.html out/logfile.html; do
		grep -qE ' Reached maxdata=1[0-9]\.[0-9]{3}m\. rd=rd1 shutting down after next interval\. $' "$f"
	done
	grep -q ' avg_2-4 ' console
	grep -q ' avg_2-4 ' out/summary.html
}

# VDbench 5.04.07 (observed with jvms=2, 3 and 8, threads=1 to 5): each slave JVM runs the run's
# threads numbered on over its SDs and dealt round robin, and writes localhost-N.html (its own
# interval and avg_ lines) and localhost-N.stdout.html (the SDs it opens, its threads per SD in
# Java hash-map order); skew.html gains a "Slave:" table. ioramp counts each I/O for the slave
# of the thread that issued it: the slaves' figures add up to the host's.
@test "jvms=3: localhost-N.html per slave, thread lines as VDbench deals them, sums match" {
	truncate -s 8m f1 f2 f3
	cat >j.vdb <<W
hd=default,jvms=3
sd=sd1,lun=$SCRATCH/f1,size=8m,threads=1
sd=sd2,lun=$SCRATCH/f2,size=8m,threads=3
sd=sd3,lun=$SCRATCH/f3,size=8m,threads=5
wd=wd1,sd=sd*,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=max,elapsed=3,interval=1
W
	run "$IORAMP" -f j.vdb -o out --engine model --seed 1
	[ "$status" -eq 0 ]
	for k in 0 1 2; do
		[ -s out/localhost-$k.html ] && [ -s out/localhost-$k.stdout.html ]
		grep -qx "Link to slave summary report:    <A HREF=\"localhost-$k.html\">localhost-$k summary</A>   <A HREF=\"localhost-$k.stdout.html\">localhost-$k stdout</A>" out/localhost.html
		grep -qx "stdout/stderr for slave=localhost-$k" out/localhost-$k.stdout.html
	done
	[ ! -e out/localhost-3.html ]
	threads() { grep -oE '(Opening sd=sd[0-9]|Started +[0-9]+ i/o threads for sd[0-9]|a total of +[0-9]+)' "$1" | tr -s ' ' | paste -sd';'; }
	[ "$(threads out/localhost-0.stdout.html)" = "Opening sd=sd1;Opening sd=sd2;Opening sd=sd3;Started 1 i/o threads for sd2;Started 1 i/o threads for sd1;Started 1 i/o threads for sd3;a total of 3" ]
	for k in 1 2; do
		[ "$(threads out/localhost-$k.stdout.html)" = "Opening sd=sd2;Opening sd=sd3;Started 1 i/o threads for sd2;Started 2 i/o threads for sd3;a total of 3" ]
	done
	# the avg_ lines: I/O count (rate x 2 intervals), MB/sec and queue depth add up
	avg() { awk '$2 ~ /^avg_/ { printf "%.0f %s %s\n", $3 * 2, $4, $13 }' "$1"; }
	avg out/localhost.html >host
	cat out/localhost-[012].html | awk '$2 ~ /^avg_/ { n += $3 * 2; mb += $4; q += $13 }
		END { printf "%.0f %.2f %.1f\n", n, mb, q }' >slaves
	read -r hn hmb hq <host
	read -r sn smb sq <slaves
	[ "$hn" -gt 1000 ] && [ "$sn" -eq "$hn" ]
	awk -v a="$smb" -v b="$hmb" -v c="$sq" -v d="$hq" 'BEGIN { exit !(a - b < 0.03 && b - a < 0.03 && c - d < 0.2 && d - c < 0.2) }'
	# each slave's I/O is its own: slave 0 (sd1's lone thread among its three) differs
	[ "$(avg out/localhost-1.html)" != "$(avg out/localhost-0.html)" ]
	# skew.html: the slave table before the SD table, every slave and the total
	sed -n '/ Slave: /,/ Total /p' out/skew.html | awk '{ print $2 }' | paste -sd' ' >rows
	[ "$(cat rows)" = "Slave: localhost-0 localhost-1 localhost-2 Total" ]
	awk '$2 ~ /^localhost-/ { s += $3 * 2 } $2 == "Total" && !t { t = $3 * 2 }
		END { exit !(s == t && t > 0) }' out/skew.html
}

# VDbench 5.04.07 (observed, jvms=3, iorate=500, sd9, sd10 and sd2 of one, five and one thread):
# a fixed rate is split equally over every (SD, slave) pair of the workload, so sd10 (on three
# slaves) ran 293 and the others about 100 each; the threads are dealt over the SDs sorted by
# name (sd10 first: slave 0 ran sd10 and sd9, slave 1 sd10 alone, slave 2 sd10 and sd2), and
# the slaves ran 212, 89 and 190 (threads=5 alone on three slaves: 211, 198, 201).
@test "jvms=3 at a fixed rate: the rate split equally over the (SD, slave) pairs, threads dealt by SD name" {
	truncate -s 8m f1 f2 f3
	cat >e.vdb <<W
hd=default,jvms=3
sd=sd9,lun=$SCRATCH/f1,size=8m,threads=1
sd=sd10,lun=$SCRATCH/f2,size=8m,threads=5
sd=sd2,lun=$SCRATCH/f3,size=8m,threads=1
wd=wd1,sd=(sd2,sd9,sd10),xfersize=4k,rdpct=100
rd=rd1,wd=wd1,iorate=600,elapsed=20,interval=1
W
	run "$IORAMP" -f e.vdb -o out --engine model --seed 1
	[ "$status" -eq 0 ]
	threads() { grep -oE 'Started +[0-9]+ i/o threads for sd[0-9]+' "$1" | awk '{ print $NF "=" $2 }' | sort | paste -sd' '; }
	[ "$(threads out/localhost-0.stdout.html)" = "sd10=2 sd9=1" ]
	[ "$(threads out/localhost-1.stdout.html)" = "sd10=2" ]
	[ "$(threads out/localhost-2.stdout.html)" = "sd10=1 sd2=1" ]
	# per (SD, slave) pair 120/s: sd10 360, sd2 and sd9 120; slaves 240, 120, 240 (within 10%)
	near() { awk -v v="$1" -v w="$2" 'BEGIN { exit !(v > w * 0.9 && v < w * 1.1) }'; }
	rate() { awk -v n="$1" '$2 == n { print $3; exit }' out/skew.html; }
	near "$(rate sd10)" 360 && near "$(rate sd2)" 120 && near "$(rate sd9)" 120
	near "$(rate localhost-0)" 240 && near "$(rate localhost-1)" 120
	near "$(rate localhost-2)" 240
	# one SD of five threads: 2, 2 and 1 threads, the same rate on each slave
	sed -i '/^sd=sd[29],/d; s/sd=(sd2,sd9,sd10)/sd=sd10/' e.vdb
	run "$IORAMP" -f e.vdb -o out2 --engine model --seed 1
	[ "$status" -eq 0 ]
	rate() { awk -v n="$1" '$2 == n { print $3; exit }' out2/skew.html; }
	near "$(rate localhost-0)" 200 && near "$(rate localhost-1)" 200
	near "$(rate localhost-2)" 200
}

# VDbench 5.04.07 (observed, jvms=2, iorate=400): a sequential WD runs on one slave only, so
# beside a random one on two SDs localhost-0 ran 295/s (34.76% reads) and localhost-1 95/s
# (all reads); each SD still ran about 200/s.
@test "jvms=2 at a fixed rate: a sequential WD on one slave, the random one on both" {
	truncate -s 8m f1 f2
	cat >q.vdb <<W
hd=default,jvms=2
sd=sd1,lun=$SCRATCH/f1,size=8m,threads=2
sd=sd2,lun=$SCRATCH/f2,size=8m,threads=2
wd=wd1,sd=sd*,xfersize=4k,rdpct=100,skew=50
wd=wd2,sd=sd*,xfersize=4k,rdpct=0,seekpct=seq,skew=50
rd=rd1,wd=wd*,iorate=400,elapsed=20,interval=1
W
	run "$IORAMP" -f q.vdb -o out --engine model --seed 1
	[ "$status" -eq 0 ]
	near() { awk -v v="$1" -v w="$2" 'BEGIN { exit !(v > w * 0.9 && v < w * 1.1) }'; }
	col() { awk -v n="$1" -v c="$2" '$2 == n { print $c; exit }' out/skew.html; }
	near "$(col localhost-0 3)" 300 && near "$(col localhost-1 3)" 100
	[ "$(col localhost-1 6)" = 100.00 ]
	near "$(col sd1 3)" 200 && near "$(col sd2 3)" 200
}

# VDbench 5.04.07 (observed, jvms=3, iorate=max): three sequential WDs on an SD each ran sd1 on
# localhost-0 alone (its 3 threads there), sd2 on localhost-1, sd3 on localhost-2; wd2 (4k) and wd3 (8k) seekpct=seq
# beside a random 4k wd1 on sd1 and sd2 ran their (WD, SD) pairs on the slaves in turn, leaving
# localhost-1 with 4k I/Os only (wd2's pair on sd2), the others with 8k ones.
@test "jvms=3: sequential WDs' slaves at max and at a fixed rate, as VDbench's" {
	truncate -s 4m f1 f2 f3
	cat >a.vdb <<W
hd=default,jvms=3
sd=sd1,lun=$SCRATCH/f1,size=4m,threads=3
sd=sd2,lun=$SCRATCH/f2,size=4m,threads=3
sd=sd3,lun=$SCRATCH/f3,size=4m,threads=3
wd=wd1,sd=sd1,xfersize=4k,rdpct=100,seekpct=seq
wd=wd2,sd=sd2,xfersize=4k,rdpct=100,seekpct=seq
wd=wd3,sd=sd3,xfersize=4k,rdpct=100,seekpct=seq
rd=rd1,wd=wd*,iorate=max,elapsed=4,interval=1
W
	run "$IORAMP" -f a.vdb -o a --engine model --seed 1
	[ "$status" -eq 0 ]
	col() { awk -v n="$2" -v c="$3" '$2 == n { print $c; exit }' "$1/skew.html"; }
	[ "$(col a localhost-0 3)" = "$(col a sd1 3)" ]
	[ "$(col a localhost-1 3)" = "$(col a sd2 3)" ]
	[ "$(col a localhost-2 3)" = "$(col a sd3 3)" ]
	# each of those SDs with its three threads on its slave alone
	for k in 0 1 2; do
		[ "$(grep -oE '(Opening sd=sd[0-9]|Started +[0-9]+ i/o threads for sd[0-9])' \
			a/localhost-$k.stdout.html | tr -s ' ' | paste -sd';')" = \
			"Opening sd=sd$((k + 1));Started 3 i/o threads for sd$((k + 1))" ]
	done
	cat >b.vdb <<W
hd=default,jvms=3
sd=sd1,lun=$SCRATCH/f1,size=4m,threads=3
sd=sd2,lun=$SCRATCH/f2,size=4m,threads=3
wd=wd1,sd=sd*,xfersize=4k,rdpct=100
wd=wd2,sd=sd*,xfersize=4k,rdpct=100,seekpct=seq
wd=wd3,sd=sd*,xfersize=8k,rdpct=100,seekpct=seq
rd=rd1,wd=wd*,iorate=max,elapsed=4,interval=1
W
	run "$IORAMP" -f b.vdb -o b --engine model --seed 1
	[ "$status" -eq 0 ]
	[ "$(col b localhost-1 5)" = 4096 ]
	[ "$(col b localhost-0 5)" -gt 4096 ] && [ "$(col b localhost-2 5)" -gt 4096 ]
	# at a fixed rate (observed, iorate=3000) all four pairs ran on localhost-0: 2,271/s there
	# (5,799 bytes an I/O), the random wd1's 346.5 and 309 on the others
	sed -i 's/iorate=max/iorate=3000/' b.vdb
	run "$IORAMP" -f b.vdb -o c --engine model --seed 1
	[ "$status" -eq 0 ]
	[ "$(col c localhost-1 5)" = 4096 ] && [ "$(col c localhost-2 5)" = 4096 ]
	awk -v v="$(col c localhost-0 3)" 'BEGIN { exit !(v > 2100 && v < 2550) }'
}

# VDbench 5.04.07 (observed, jvms=1, any order in the file): a slave starts its SDs' threads in
# the order of a Java HashMap of 8 buckets the SDs were put in sorted by name: sd9 sd11 sd10;
# sd1 sd9 sd11 sd10 alpha; for sd1..sd13 (32 buckets by then) sd2 sd1 sd4 sd3 sd11 sd6 sd10 sd5
# sd13 sd8 sd12 sd7 sd9.
@test "localhost-0.stdout.html: the SDs' i/o threads started in VDbench's order" {
	order() {
		local i=1 n
		for n in "$@"; do
			truncate -s 1m "h$i"
			echo "sd=$n,lun=$SCRATCH/h$i,size=1m,threads=1"
			i=$((i + 1))
		done >o.vdb
		printf 'wd=wd1,sd=*,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' >>o.vdb
		rm -rf o
		"$IORAMP" -f o.vdb -o o --engine model --seed 1 >/dev/null
		grep -oE 'Started +[0-9]+ i/o threads for [a-z0-9]+' o/localhost-0.stdout.html |
			awk '{ print $NF }' | paste -sd' '
	}
	[ "$(order sd10 sd9 sd11)" = "sd9 sd11 sd10" ]
	[ "$(order sd9 sd10 sd1 alpha sd11)" = "sd1 sd9 sd11 sd10 alpha" ]
	[ "$(order sd1 sd2 sd3 sd4 sd5 sd6 sd7 sd8 sd9 sd10 sd11 sd12 sd13)" = \
		"sd2 sd1 sd4 sd3 sd11 sd6 sd10 sd5 sd13 sd8 sd12 sd7 sd9" ]
}

# VDbench 5.04.07 (observed): skew.html's SD table sorts the SDs by name, digit runs as numbers
# (wd=wd1,sd=(beta,gamma,alpha) lists alpha, beta, gamma; sd=(sd2,sd9,sd10) sd2, sd9, sd10),
# whatever order the WD or the configuration gives them.
@test "skew.html: the SD table in VDbench's name order, not the WD's" {
	truncate -s 1m f1 f2 f3 f4
	cat >o.vdb <<W
sd=sd10,lun=$SCRATCH/f1,size=1m
sd=sd3,lun=$SCRATCH/f2,size=1m
sd=sd2,lun=$SCRATCH/f3,size=1m
sd=alpha,lun=$SCRATCH/f4,size=1m
wd=wd1,sd=(sd3,sd10,alpha,sd2),xfersize=4k
rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1
W
	run "$IORAMP" -f o.vdb -o out --engine model --seed 1
	[ "$status" -eq 0 ]
	[ "$(sed -n '/ SD: /,/ Total /p' out/skew.html | awk '{ print $2 }' | paste -sd' ')" = \
		"SD: alpha sd2 sd3 sd10 Total" ]
}

# VDbench 5.04.07 (observed with ios_per_jvm=1000 at max on jvms=1, ios_per_jvm=100 and 180 at
# 500/s on jvms=3): after the CPU box, on the console, summary.html and logfile.html, a box when
# the run's average rate over the slaves that did I/O is above ios_per_jvm= (default 100,000);
# 506.67/s on three slaves against 180 gives none.
@test "ios_per_jvm=: VDbench's box for too many I/Os per second per slave" {
	truncate -s 8m f1 f2
	cat >w.vdb <<W
ios_per_jvm=100
hd=default,jvms=3
sd=sd1,lun=$SCRATCH/f1,size=8m,threads=3
sd=sd2,lun=$SCRATCH/f2,size=8m,threads=3
wd=wd1,sd=sd*,xfersize=4k,rdpct=100
rd=rd1,wd=wd1,iorate=500,elapsed=4,interval=1
W
	run "$IORAMP" -f w.vdb -o out --engine model --seed 1
	[ "$status" -eq 0 ]
	local per
	per=$(printf '%s\n' "$output" | awk '$2 ~ /^avg_/ { printf "%d", $3 / 3 }')
	printf '%s\n' "$output" | sed -n '/ avg_/,$p' | cut -c14- | sed '1d;$d' >got
	cat >want <<W
*
****************************************************************************************
* Warning: total amount of i/o per second per slave ($per) greater than 100.            *
* You may need to adjust your total slave count.                                       *
*                                                                                      *
* See 'jvms=' in documentation for raw (SD/WD) workloads).                             *
* See 'host=' and/or 'clients=' in documentation for file system (FSD/FWD) workloads). *
*                                                                                      *
* rd=rd1 actively used 3 slaves.                                                       *
****************************************************************************************
*
W
	diff want got
	grep -q "^[0-9:.]* \* Warning: total amount of i/o per second per slave ($per) greater than 100\. " out/summary.html
	grep -q "^[0-9:.]* \* rd=rd1 actively used 3 slaves\. " out/logfile.html
	# one slave at 500/s against 400: its whole rate, with thousands separators
	sed -i 's/ios_per_jvm=100/ios_per_jvm=400/; s/jvms=3/jvms=1/' w.vdb
	run "$IORAMP" -f w.vdb -o out2 --engine model --seed 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"per slave ("[0-9]*") greater than 400."*"rd=rd1 actively used 1 slaves."* ]]
	# the default 100,000: no box
	sed -i '/^ios_per_jvm=/d' w.vdb
	run "$IORAMP" -f w.vdb -o out3 --engine model --seed 1
	[ "$status" -eq 0 ]
	[[ "$output" != *"per slave"* ]]
}

# VDbench 5.04.07 (observed, ios_per_jvm=1000 on 4 and 6 SDs): the default JVM count is
# ceil(rate / ios_per_jvm) above ios_per_jvm, at most 8 and the SD count; each run that asks
# for more raises it with its line, naming the rate one less once the count is above 1.
@test "ios_per_jvm=: VDbench's JVM count, raised run by run with its lines" {
	truncate -s 1m f1 f2 f3 f4 f5 f6
	{
		echo ios_per_jvm=1000
		for i in 1 2 3 4; do echo "sd=sd$i,lun=$SCRATCH/f$i,size=1m"; done
		echo 'wd=wd1,sd=*,xfersize=4k,rdpct=100'
		echo 'rd=rd1,wd=wd1,iorate=3000,elapsed=2,interval=1'
	} >four.vdb
	run "$IORAMP" -f four.vdb -o four --engine model --seed 1
	[ "$status" -eq 0 ]
	[[ "$output" == *" Adjusted default JVM count for host=localhost from jvms=1 to jvms=3 because of iorate=3000 and a total of 4 sds."* ]]
	[[ "$output" != *"ios_per_jvm= has no effect"* ]]
	[ -s four/localhost-2.html ] && [ ! -e four/localhost-3.html ]
	[ "$(grep -c 'Starting slave: ' four/logfile.html)" -eq 3 ]
	{
		echo ios_per_jvm=1000
		for i in 1 2 3 4 5 6; do echo "sd=sd$i,lun=$SCRATCH/f$i,size=1m"; done
		echo 'wd=wd1,sd=*,xfersize=4k,rdpct=100'
		for r in 1500 4500 999 6000 7000; do
			echo "rd=r$r,wd=wd1,iorate=$r,elapsed=2,interval=1"
		done
	} >six.vdb
	run "$IORAMP" -f six.vdb -o six -s
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -o 'Adjusted .*' >got
	cat >want <<W
Adjusted default JVM count for host=localhost from jvms=1 to jvms=2 because of iorate=1500 and a total of 6 sds.
Adjusted default JVM count for host=localhost from jvms=2 to jvms=5 because of iorate=4499 and a total of 6 sds.
Adjusted default JVM count for host=localhost from jvms=5 to jvms=6 because of iorate=5999 and a total of 6 sds.
W
	diff want got
	# at ios_per_jvm= or below: one JVM, no line
	sed -i 's/iorate=3000/iorate=1000/' four.vdb
	run "$IORAMP" -f four.vdb -o one -s
	[ "$status" -eq 0 ]
	[[ "$output" != *"Adjusted"* ]]
}

@test "jvms: VDbench's adjusted count for max with two SDs, one slave at a fixed rate, an idle slave" {
	truncate -s 8m f1 f2
	printf 'sd=sd1,lun=%s/f1,size=8m,threads=1\nsd=sd2,lun=%s/f2,size=8m,threads=1\n' \
		"$SCRATCH" "$SCRATCH" >base
	{ cat base; printf 'wd=wd1,sd=sd*\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n'; } >max.vdb
	run "$IORAMP" -f max.vdb -o max --engine model --seed 1
	[ "$status" -eq 0 ]
	[ -s max/localhost-1.html ] && [ ! -e max/localhost-2.html ]
	grep -q ' Slave: ' max/skew.html
	{ cat base; printf 'wd=wd1,sd=sd*\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n'; } >fix.vdb
	run "$IORAMP" -f fix.vdb -o fix --engine model --seed 1
	[ "$status" -eq 0 ]
	[ ! -e fix/localhost-1.html ] && [ ! -e fix/localhost-1.stdout.html ]
	! grep -q ' Slave: ' fix/skew.html || false
	# three slaves for two threads: the third opens nothing and prints no line, zeros in skew
	{ echo hd=default,jvms=3; cat fix.vdb; } >idle.vdb
	run "$IORAMP" -f idle.vdb -o idle --engine model --seed 1
	[ "$status" -eq 0 ]
	! grep -q avg_ idle/localhost-2.html || false
	! grep -qE 'Opening|Started|End of run' idle/localhost-2.stdout.html || false
	grep -q 'avg_' idle/localhost-1.html
	grep -qE ' localhost-2 +0\.00 +0\.00 +0 ' idle/skew.html
}
