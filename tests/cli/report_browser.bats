#!/usr/bin/env bats
# report.html in a real browser (headless Chromium): for every chart kind, no console errors,
# the expected series and points in the DOM, and a screenshot. The pages come from a saved
# results.json or from modelled drives in virtual time. Skips visibly where chromium is not
# installed.

load helpers

DATA=$TESTS/data/report-own
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# chromium ARGS... URL: headless, offline, with its own profile under the scratch directory.
chromium_run() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update --disable-sync \
		--no-first-run --user-data-dir="$SCRATCH/profile" --enable-logging=stderr --v=0 "$@"
}

need_chromium() {
	[ -x "$CHROMIUM" ] ||
		skip "chromium not installed (apt-get install chromium): report.html not rendered"
}

# render PAGE NAME: the page's DOM as Chromium built it in NAME.dom (no console error), and a
# PNG screenshot NAME.png (kept in $IORAMP_KEEP_SCREENSHOT/, when set, as NAME.png).
render() {
	chromium_run --dump-dom "file://$1" >"$2.dom" 2>"$2.console"
	if grep -E ':CONSOLE|Uncaught' "$2.console"; then
		return 1
	fi
	chromium_run --hide-scrollbars --window-size=1280,2400 --screenshot="$SCRATCH/$2.png" \
		"file://$1" 2>>"$2.console"
	[ -s "$SCRATCH/$2.png" ]
	[ "$(head -c 8 "$SCRATCH/$2.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	if [ -n "${IORAMP_KEEP_SCREENSHOT:-}" ]; then
		mkdir -p "$IORAMP_KEEP_SCREENSHOT" && cp "$SCRATCH/$2.png" "$IORAMP_KEEP_SCREENSHOT/"
	fi
}

# series DOM TITLE / points DOM TITLE / hollow DOM TITLE: the lines, the filled points and
# the hollow points of the chart titled TITLE, as rendered.
series() { chart_of "$1" "$2" | grep -c '<polyline class="line'; }
points() { chart_of "$1" "$2" | grep -c '<circle class="pt"'; }
hollow() { chart_of "$1" "$2" | grep -c '<circle class="pt missed"'; }

@test "report.html renders in Chromium with its charts and no console errors" {
	need_chromium
	run "$IORAMP" report "$DATA/a" -o "$SCRATCH/report.html" --overlay "P=$DATA/overlay.csv"
	[ "$status" -eq 0 ]
	render "$SCRATCH/report.html" page
	# mean, p99, each SD, time, distribution
	[ "$(grep -o '<svg' page.dom | wc -l)" -eq 5 ]
	[ "$(grep -o '<circle class="pt"' page.dom | wc -l)" -eq 20 ]
	[ "$(grep -o '<circle class="ov"' page.dom | wc -l)" -eq 4 ]
	# points, IOPS at latency, each SD, set-up, all runs
	[ "$(grep -o '<table' page.dom | wc -l)" -eq 5 ]
	[ "$(grep -o '<a class="dl" download=' page.dom | wc -l)" -eq 5 ]
	# the curve and the published one on the mean chart
	[ "$(series page.dom 'IOPS vs average latency')" -eq 2 ]
	[ "$(series page.dom 'Per SD: IOPS vs average latency')" -eq 2 ]
	! grep -q 'class="cnote"' page.dom || false # real drives: no model note
	[ "$(points page.dom 'Per SD: IOPS vs average latency')" -eq 10 ]
}

@test "sweep charts render in Chromium: a line per outer loop value against the swept parameter" {
	need_chromium
	printf '%s\n' "sd=sd,count=(0,2),lun=$SCRATCH/f%d,size=16m" "wd=wd1,sd=sd*,rdpct=100" \
		"rd=rd1,wd=wd1,iorate=max,forxfersize=(4k,64k),forthreads=(1,2,4,8,16),elapsed=2,interval=1" \
		>sweep.vdb
	run "$IORAMP" -f sweep.vdb -o out --engine model:units=4,read_us=100 --seed 1
	[ "$status" -eq 0 ]
	render "$SCRATCH/out/report.html" sweep
	for t in 'IOPS vs threads' 'Average latency vs threads' '99th percentile latency vs threads'; do
		[ "$(series sweep.dom "$t")" -eq 2 ]
		[ "$(points sweep.dom "$t")" -eq 10 ]
	done
	# depths 1 to 16 on a power-of-two axis: a tick label at each
	for v in 1 2 4 8 16; do
		chart_of sweep.dom 'IOPS vs threads' | grep -q "text-anchor=\"middle\">$v</text>"
	done
	[ "$(series sweep.dom 'Per SD: average latency vs threads (xfersize=4k)')" -eq 2 ]
	# modelled drives: every chart says so, in the page and in its download
	[ "$(grep -c '<svg' sweep.dom)" -eq 6 ]
	[ "$(grep -c '<text class="cnote" [^>]*>modelled drives, not measurements</text>' sweep.dom)" -eq 6 ]
	[ "$(grep -o '%3Ctext%20class=%22cnote%22' sweep.dom | wc -l)" -eq 6 ]
}

@test "pressure charts render in Chromium: a line per WD against write MB/s, ending hollow where a step was missed" {
	need_chromium
	# two drives of 4 units at 100 us: 80k IOPS in all; reads fixed at 12800 (100 MB/s of
	# 8 KiB per drive), writes stepped by 100 MB/s per drive: the third step is missed
	printf '%s\n' "sd=default,threads=64" "sd=sd,count=(0,2),lun=$SCRATCH/f%d,size=16m" \
		"wd=reads,sd=sd*,rdpct=100,xfersize=8k,iorate=25600,priority=1" \
		"wd=writes,sd=sd*,rdpct=0,xfersize=8k,priority=2" \
		"rd=wp,wd=(reads,writes),iorate=(51200,76800,102400,128000),elapsed=2,interval=1" \
		>wp.vdb
	run "$IORAMP" -f wp.vdb -o out --engine model:units=4,read_us=100,write_us=100 --seed 1
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.runs[].is_target_met]' out/results.json)" = '[true,true,false,false]' ]
	render "$SCRATCH/out/report.html" pressure
	grep -q '<div class="invalid" role="alert"><b>2 of 4 runs missed their target rate.</b>' \
		pressure.dom
	for s in Mean p99 p99.9 p99.99 p99.9999; do
		local t="$s service time per WD vs write MB/s"
		[ "$(series pressure.dom "$t")" -eq 2 ]
		[ "$(points pressure.dom "$t")" -eq 4 ]
		[ "$(hollow pressure.dom "$t")" -eq 2 ]
	done
	[ "$(series pressure.dom 'Read latency under the write load')" -eq 3 ]
	[ "$(points pressure.dom 'Read latency under the write load')" -eq 6 ]
	[ "$(hollow pressure.dom 'Read latency under the write load')" -eq 3 ]
	[ "$(series pressure.dom 'Per SD: IOPS vs average latency')" -eq 2 ]
	[ "$(grep -o '<a class="dl" download=' pressure.dom | wc -l)" -eq 9 ]
}

@test "the suite page renders in Chromium: every profile on one chart, a p99 chart beside each mean chart" {
	need_chromium
	local d=
	for i in 0 1 2 3 4 5 6 7; do d+=${d:+,}$SCRATCH/drive$i; done
	run "$IORAMP" suite --drives "$d" --size 16m --profiles sql,oracle,qd-sweep-4k-randread \
		--engine model:units=4,read_us=100,write_us=100 -e 2 -w 0 -i 1 --curve 50,100 \
		--seed 1 -o out
	[ "$status" -eq 0 ]
	render "$SCRATCH/out/report.html" suite
	grep -q '<nav><a href="#all">All profiles</a><a href="#setup">Set-up</a><a href="#p-sql">SQL</a>' suite.dom
	grep -q '<section id="setup">' suite.dom
	# every profile together (mean, p99), each curve's mean, p99 and per SD, the sweep's three
	[ "$(grep -c '<svg' suite.dom)" -eq $((2 + 2 * 3 + 3)) ]
	[ "$(grep -o '<a class="dl" download=' suite.dom | wc -l)" -eq 11 ]
	for t in 'All profiles: IOPS vs average latency' \
		'All profiles: IOPS vs 99th percentile latency'; do
		# one line per profile: two curve points each, nine depths for the sweep
		[ "$(series suite.dom "$t")" -eq 3 ]
		[ "$(points suite.dom "$t")" -eq $((2 + 2 + 9)) ]
		for l in SQL Oracle '4K Random Read QD Sweep'; do
			chart_of suite.dom "$t" | grep -q ">$l</text>"
		done
		# logarithmic axes: a decade's tick
		chart_of suite.dom "$t" | grep -q 'text-anchor="middle">100k</text>'
	done
	for t in SQL 'SQL: p99' Oracle 'Oracle: p99'; do
		[ "$(series suite.dom "$t")" -eq 1 ]
		[ "$(points suite.dom "$t")" -eq 2 ]
	done
	# a line per drive, as reviews compare drives: each of the curve profiles
	[ "$(series suite.dom 'Per SD: IOPS vs average latency')" -eq $((2 * 8)) ]
	[ "$(points suite.dom 'Per SD: IOPS vs average latency')" -eq $((2 * 8 * 2)) ]
	for t in 'IOPS vs threads' 'Average latency vs threads' '99th percentile latency vs threads'; do
		[ "$(series suite.dom "$t")" -eq 1 ]
		[ "$(points suite.dom "$t")" -eq 9 ]
	done
	# modelled drives: every chart says so
	[ "$(grep -c '<text class="cnote" [^>]*>modelled drives, not measurements</text>' suite.dom)" -eq 11 ]
	# rendered again with a published curve on SQL's chart: dashed beside the measured line
	run "$IORAMP" report out -o "$SCRATCH/ov.html" --overlay "sql=$DATA/overlay.csv"
	[ "$status" -eq 0 ]
	render "$SCRATCH/ov.html" ov
	[ "$(series ov.dom SQL)" -eq 2 ]
	[ "$(points ov.dom SQL)" -eq 2 ]
	[ "$(chart_of ov.dom SQL | grep -c '<circle class="ov"')" -eq 4 ]
	chart_of ov.dom SQL | grep -q '>sql (published)</text>'
	[ "$(grep -c '<circle class="ov"' ov.dom)" -eq 4 ]
}

@test "compare --html renders in Chromium: A's and B's lines on one chart per curve, the runs with their differences" {
	need_chromium
	mkdir vdb && cp "$TESTS/data/vdb-out/flatfile.html" vdb/
	# ioramp's a against b, and against a VDbench output (no percentiles: no p99 chart)
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --html "$SCRATCH/ab.html"
	[ "$status" -eq 0 ]
	run "$IORAMP" compare "$DATA/a" vdb --html "$SCRATCH/av.html"
	[ "$status" -eq 0 ]
	render "$SCRATCH/ab.html" ab
	render "$SCRATCH/av.html" av
	[ "$(series ab.dom 'rd1: IOPS vs average latency, A and B')" -eq 2 ]
	[ "$(points ab.dom 'rd1: IOPS vs average latency, A and B')" -eq 10 ]
	[ "$(series ab.dom 'rd1: IOPS vs 99th percentile latency, A and B')" -eq 2 ]
	[ "$(grep -c '<tr class="row"' ab.dom)" -eq 6 ]
	grep -q '<td class="d">-9.1%</td>' ab.dom
	[ "$(grep -o '<svg' av.dom | wc -l)" -eq 1 ]
	[ "$(series av.dom 'rd1: IOPS vs average latency, A and B')" -eq 2 ]
	# a's five points and the flatfile's two, the 90% one missed
	[ "$(points av.dom 'rd1: IOPS vs average latency, A and B')" -eq 6 ]
	[ "$(hollow av.dom 'rd1: IOPS vs average latency, A and B')" -eq 1 ]
	[ "$(grep -c '<tr class="row"' av.dom)" -eq 1 ]
	grep -q 'only in B: rd2 threads=4' av.dom
}

@test "a VDbench output directory's report renders in Chromium" {
	need_chromium
	mkdir vdb && cp "$TESTS/data/vdb-out/flatfile.html" vdb/
	run "$IORAMP" report vdb -o "$SCRATCH/vdb.html"
	[ "$status" -eq 0 ]
	render "$SCRATCH/vdb.html" vdb
	[ "$(series vdb.dom 'IOPS vs average latency')" -eq 1 ]
	[ "$(points vdb.dom 'IOPS vs average latency')" -eq 1 ]
	[ "$(hollow vdb.dom 'IOPS vs average latency')" -eq 1 ]
	grep -q '<b>VDbench</b> output, read from <b>flatfile.html</b>' vdb.dom
}
