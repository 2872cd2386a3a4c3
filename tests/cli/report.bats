#!/usr/bin/env bats
# `ioramp report`: report.html from a saved results.json, with published overlays; exit codes.

load helpers

DATA=$TESTS/data/report-own

@test "report -o writes the page with five charts and every point" {
	run "$IORAMP" report "$DATA/a" -o page.html
	[ "$status" -eq 0 ]
	[ "$output" = "page.html" ]
	# mean, p99, each SD, time, distribution; a download link each
	[ "$(grep -o '<svg' page.html | wc -l)" -eq 5 ]
	[ "$(grep -o '<a class="dl" download="[a-z0-9.-]*.svg" href="data:image/svg+xml;charset=utf-8,%3Csvg%20class' page.html | wc -l)" -eq 5 ]
	[ "$(grep -o '<circle class="pt"' page.html | wc -l)" -eq 20 ]
	! grep -q '<script' page.html || false
}

@test "report writes DIR/report.html by default and takes the results file itself" {
	mkdir a && cp "$DATA/a/results.json" a/
	run "$IORAMP" report a
	[ "$status" -eq 0 ]
	[ "$output" = "a/report.html" ]
	[ -s a/report.html ]
	rm a/report.html
	run "$IORAMP" report a/results.json
	[ "$status" -eq 0 ]
	[ "$output" = "a/report.html" ]
	[ -s a/report.html ]
}

@test "report --overlay draws the published curve dashed" {
	run "$IORAMP" report "$DATA/a" -o page.html --overlay "P5520=$DATA/overlay.csv"
	[ "$status" -eq 0 ]
	[ "$(grep -o '<circle class="ov"' page.html | wc -l)" -eq 4 ]
	grep -q 'P5520 (published)' page.html
	run "$IORAMP" report "$DATA/a" -o page2.html --overlay="P5520=$DATA/overlay.csv" \
		--overlay "PM9A3=$DATA/overlay.csv"
	[ "$status" -eq 0 ]
	[ "$(grep -o '<circle class="ov"' page2.html | wc -l)" -eq 8 ]
}

@test "report: unreadable or bad input exits 2 with the reason" {
	run "$IORAMP" report nosuchdir
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: nosuchdir: cannot open: No such file or directory" ]
	echo '{"schema": "other"}' > results.json
	run "$IORAMP" report results.json
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: results.json: not an ioramp-results/3 document" ]
	echo 'not json' > bad.json
	run "$IORAMP" report bad.json
	[ "$status" -eq 2 ]
	[[ "$output" == "ioramp report: error: bad.json:1:"*": not JSON: "* ]]
	printf 'iops,latency_us\n1000,50\n2000\n' > pub.csv
	run "$IORAMP" report "$DATA/a" -o page.html --overlay P=pub.csv
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: pub.csv:3: expected IOPS,latency_us" ]
	[ ! -e page.html ]
}

@test "report: usage errors exit 2, an unwritable page exits 1" {
	run "$IORAMP" report
	[ "$status" -eq 2 ]
	[[ "$output" == "usage: ioramp report DIR"* ]]
	run "$IORAMP" report "$DATA/a" --bogus
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: unknown option --bogus" ]
	run "$IORAMP" report "$DATA/a" --overlay nocomma
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: --overlay nocomma; expected NAME=FILE.csv" ]
	run "$IORAMP" report "$DATA/a" "$DATA/b"
	[ "$status" -eq 2 ]
	run "$IORAMP" report "$DATA/a" -o
	[ "$status" -eq 2 ]
	run "$IORAMP" report "$DATA/a" -o /nonexistent/page.html
	[ "$status" -eq 1 ]
	[ "$output" = "ioramp report: error: /nonexistent/page.html: cannot write: No such file or directory" ]
	run "$IORAMP" report --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: ioramp report DIR"* ]]
}

@test "the fixtures validate against doc/results.schema.json (python3-jsonschema)" {
	if ! has_jsonschema; then
		skip "python3-jsonschema not installed (apt-get install python3-jsonschema)"
	fi
	run schema_valid "$DATA/a/results.json" "$DATA/b/results.json"
	[ "$status" -eq 0 ]
	[ "$output" = "valid" ]
}

# issue 16 item 1: a lun that is not UTF-8 still reaches results.json (as U+FFFD), never an
# empty runs[].sds or a missing document
@test "results.json: a lun that is not UTF-8 is written with U+FFFD" {
	printf 'sd=sd1,lun=%s/f\xff\xfe,size=1m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/p.vdb"
	run "$IORAMP" -f "$BATS_TEST_TMPDIR/p.vdb" -o "$BATS_TEST_TMPDIR/out" --engine model
	[ "$status" -eq 0 ]
	run jq -r '.runs[0].sds[0].lun' "$BATS_TEST_TMPDIR/out/results.json"
	[ "$output" = "$BATS_TEST_TMPDIR/f"$'\xef\xbf\xbd\xef\xbf\xbd' ]
}

@test "results.json states the set-up: the host, each SD's range and openflags, each WD's SDs, rate and priority" {
	printf '%s\n' "sd=default,threads=4,range=(0,25),openflags=o_direct" \
		"sd=sd,count=(0,2),lun=$SCRATCH/d%d,size=16m" \
		"wd=reads,sd=sd0,rdpct=100,xfersize=8k,iorate=200,priority=1" \
		"wd=writes,sd=(sd0,sd1),rdpct=0,xfersize=8k,priority=2" \
		"rd=rd1,wd=(reads,writes),iorate=(400,600),elapsed=2,interval=1,warmup=0" >wp.vdb
	run "$IORAMP" -f wp.vdb -o out --engine model:units=4,read_us=200,write_us=200 --seed 1
	[ "$status" -eq 0 ]
	[ "$(jq -c '.runs[0].sds[] | [.name, .range, .openflags]' out/results.json)" = \
		'["sd0",[0,25],"o_direct"]
["sd1",[0,25],"o_direct"]' ]
	[ "$(jq -c '.runs[0].wds[] | [.name, .sds, .iorate, .priority]' out/results.json)" = \
		'["reads",["sd0"],200,1]
["writes",["sd0","sd1"],null,2]' ]
	[ "$(jq -r .execution.host.kernel out/results.json)" = "$(uname -srm)" ]
	jq -e '.execution.host.nr_cpus >= 1' out/results.json
	if has_jsonschema; then
		run schema_valid out/results.json
		[ "$output" = valid ]
	fi
	# the page states it: a set-up table row per SD, the times, the host, links to the files
	grep -q '<tr><td class="t">sd1</td><td class="t">'"$SCRATCH"'/d1</td><td>16.0 MiB</td><td>4</td><td>(0,25)%</td><td class="t">o_direct</td><td class="t">model:units=4,read_us=200,write_us=200</td><td class="t"><b>modelled</b>: model:units=4,read_us=200,write_us=200, 4 units, 4 KiB read 200 µs, write 200 µs (not a measured drive)</td></tr>' out/report.html
	grep -q '<li>Each run: elapsed <b>2 s</b>, warmup <b>0 s</b>, interval <b>1 s</b>' out/report.html
	grep -q "kernel <b>$(uname -srm)</b>" out/report.html
	for f in summary.html parmfile.html results.json curves.csv; do
		grep -q "<a href=\"$f\">" out/report.html
		[ -e "out/$f" ]
	done
}

@test "report.html: a banner and hollow points when runs miss their target" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=16m" "wd=wd1,sd=sd1,rdpct=100" \
		"rd=rd1,wd=wd1,iorate=(1000,20000,40000),elapsed=6,interval=1,warmup=0" >miss.vdb
	# eight units of 1 ms: 8000 IOPS at most, so 20000 and 40000 are missed
	run "$IORAMP" -f miss.vdb -o out --engine model:units=8,read_us=1000,dist=fixed --seed 1
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.runs[].is_target_met]' out/results.json)" = '[true,false,false]' ]
	grep -q '<div class="invalid" role="alert"><b>2 of 3 runs missed their target rate.</b>' \
		out/report.html
	[ "$(chart_of out/report.html 'IOPS vs average latency' | grep -c '<circle class="pt missed"')" -eq 2 ]
	chart_of out/report.html 'IOPS vs average latency' | grep -q '>hollow: missed its target</text>'
	# every run met its rate: no banner, no legend entry
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=16m" "wd=wd1,sd=sd1,rdpct=100" \
		"rd=rd1,wd=wd1,iorate=(1000,2000),elapsed=6,interval=1,warmup=0" >met.vdb
	run "$IORAMP" -f met.vdb -o met --engine model:units=8,read_us=1000,dist=fixed --seed 1
	[ "$(jq -c '[.runs[].is_target_met]' met/results.json)" = '[true,true]' ]
	! grep -q 'class="invalid"' met/report.html || false
	! grep -q 'hollow: missed' met/report.html || false
}

@test "report.html: an iorate list over WDs that share the rate by skew keeps IOPS against latency" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=16m" "wd=a,sd=sd1,rdpct=100,skew=60" \
		"wd=b,sd=sd1,rdpct=0,skew=40" "rd=rd1,wd=(a,b),iorate=(500,1000),elapsed=2,interval=1" \
		>two.vdb
	run "$IORAMP" -f two.vdb -o out --engine model:units=4 --seed 1
	[ "$status" -eq 0 ]
	[ "$(grep -c 'aria-label="IOPS vs average latency"' out/report.html)" -eq 1 ]
	# the pressure charts need a WD with its own fixed iorate=
	! grep -q 'per WD vs write MB/s' out/report.html || false
}

@test "report renders a VDbench output directory from its flatfile.html" {
	mkdir vdb && cp "$TESTS/data/vdb-out/flatfile.html" vdb/
	run "$IORAMP" report vdb
	[ "$status" -eq 0 ]
	[ "$output" = "vdb/report.html" ]
	# what it is, and nothing of ioramp's own (engine, seed, version, command line)
	grep -q '<b>VDbench</b> output, read from <b>flatfile.html</b> · 5 runs, 1 curves · <b>completed</b></div>' vdb/report.html # every run has its avg_ line
	! grep -Eq 'seed <b>|ioramp n/a|engine <b>|<pre class="cmd">' vdb/report.html || false
	# links only to the files that are there
	[ "$(grep -o '<nav class="files">.*' vdb/report.html)" = '<nav class="files">Files of this run: <a href="flatfile.html">flatfile.html</a></nav>' ]
	grep -q 'Rendered from vdb/flatfile.html by ioramp ' vdb/report.html
	# rd1's curve: the 50% point met, the 90% one missed (30,100 of 37,800)
	[ "$(chart_of vdb/report.html 'IOPS vs average latency' | grep -c '<circle class="pt"')" -eq 1 ]
	[ "$(chart_of vdb/report.html 'IOPS vs average latency' | grep -c '<circle class="pt missed"')" -eq 1 ]
	run "$IORAMP" report vdb/flatfile.html -o page.html
	[ "$status" -eq 0 ]
	[ -s page.html ]
	# the version from the directory's logfile.html; its summary.html linked once there
	printf '<pre>\nVdbench distribution: vdbench50407\n' > vdb/logfile.html
	printf '<pre>\n' > vdb/summary.html
	run "$IORAMP" report vdb
	[ "$status" -eq 0 ]
	grep -q '<b>VDbench 5.04.07</b> output, read from <b>flatfile.html</b>' vdb/report.html
	[ "$(grep -o '<nav class="files">.*' vdb/report.html)" = '<nav class="files">Files of this run: <a href="summary.html">VDbench summary</a> <a href="flatfile.html">flatfile.html</a></nav>' ]
	# ioramp's own output directory without its results.json says who wrote it
	printf '<pre>\nioramp 9.9.9 (VDbench 5.04.07-compatible output)\n' > vdb/logfile.html
	run "$IORAMP" report vdb
	grep -q "<b>ioramp 9.9.9</b> output in VDbench's format, read from" vdb/report.html
	printf '<pre>\nRun Interval rate resp\n' > vdb/flatfile.html
	run "$IORAMP" report vdb
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: vdb/flatfile.html:2: the header has no column reqrate; expected a VDbench flatfile" ]
}

@test "report -o elsewhere links the files of the results' directory from the page's" {
	mkdir -p runs/a pages/deep && cp "$DATA/a/results.json" runs/a/
	run "$IORAMP" report runs/a -o pages/deep/page.html
	[ "$status" -eq 0 ]
	grep -q '<a href="../../runs/a/results.json">results.json</a>' pages/deep/page.html
	grep -q '<a href="../../runs/a/curves.csv">curves.csv</a>' pages/deep/page.html
	run "$IORAMP" report runs/a/results.json -o top.html
	grep -q '<a href="runs/a/summary.html">' top.html
	# beside results.json: plain names, as the page an execution writes has them
	run "$IORAMP" report runs/a
	grep -q '<a href="results.json">results.json</a>' runs/a/report.html
	(cd pages/deep && "$IORAMP" report ../../runs/a -o page2.html >/dev/null)
	cmp <(grep -o '<nav class="files">.*' pages/deep/page.html) \
		<(grep -o '<nav class="files">.*' pages/deep/page2.html)
}

@test "report --overlay: the unit from the header or --overlay-unit, points in IOPS order, a label" {
	# the same curve in ms, out of order, without a header
	printf '# published, ms\n4.5k,0.4\n1k,0.045\n3000,0.12\n2000,0.07\n' > ms.csv
	run "$IORAMP" report "$DATA/a" -o us.html --overlay "P=$DATA/overlay.csv"
	[ "$status" -eq 0 ]
	run "$IORAMP" report "$DATA/a" -o ms.html --overlay P=ms.csv --overlay-unit ms
	[ "$status" -eq 0 ]
	# drawn where the us file draws it, joined in IOPS order
	cmp <(chart_of us.html 'IOPS vs average latency' | grep -E 'class="ov"|stroke-dasharray') \
		<(chart_of ms.html 'IOPS vs average latency' | grep -E 'class="ov"|stroke-dasharray')
	printf 'IOPS, Latency_ms\n1000,0.045\n2000,0.07\n' > hdr.csv
	run "$IORAMP" report "$DATA/a" -o hdr.html --overlay P=hdr.csv \
		--overlay-label 'P5520 7.68TB (StorageReview)'
	[ "$status" -eq 0 ]
	grep -q 'P5520 7.68TB (StorageReview)' hdr.html
	! grep -q 'P (published)' hdr.html || false
	# units not stated, stated twice differently, unknown
	run "$IORAMP" report "$DATA/a" -o x.html --overlay P=ms.csv
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: ms.csv:1: no header iops,latency_us or iops,latency_ms; say the latency unit with --overlay-unit us or ms" ]
	run "$IORAMP" report "$DATA/a" -o x.html --overlay P=hdr.csv --overlay-unit us
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: hdr.csv:1: the header says latency_ms, --overlay-unit us" ]
	printf 'iops,latency_ns\n1000,45000\n' > ns.csv
	run "$IORAMP" report "$DATA/a" -o x.html --overlay P=ns.csv
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: ns.csv:1: expected a header iops,latency_us or iops,latency_ms, or IOPS,latency_us" ]
	run "$IORAMP" report "$DATA/a" -o x.html --overlay P=ms.csv --overlay-unit s
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: --overlay-unit s; expected us or ms" ]
	run "$IORAMP" report "$DATA/a" -o x.html --overlay-label L --overlay P=ms.csv
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: --overlay-label L: expected after an --overlay" ]
	[ ! -e x.html ]
}

@test "report renders a suite's directory again: its page over the profiles' results.json" {
	mkdir -p suite/sql suite/oracle pages
	cp "$DATA/a/results.json" suite/sql/
	cp "$DATA/b/results.json" suite/oracle/
	run "$IORAMP" report suite
	[ "$status" -eq 0 ]
	[ "$output" = "suite/report.html" ]
	# one section per profile, titled from the library, each linking its own report
	grep -q '<h2>SQL</h2>' suite/report.html
	grep -q '<h2>Oracle</h2>' suite/report.html
	grep -q 'href="sql/report.html"' suite/report.html
	run "$IORAMP" report suite -o pages/suite.html
	[ "$status" -eq 0 ]
	grep -q 'href="../suite/oracle/report.html"' pages/suite.html
	# a published curve on the chart of the profile it names, and there only
	run "$IORAMP" report suite -o ov.html --overlay "sql=$DATA/overlay.csv" \
		--overlay-label 'P5520 (published)'
	[ "$status" -eq 0 ]
	[ "$(chart_of ov.html 'SQL' | grep -c '<circle class="ov"')" -eq "$(grep -c '^[0-9]' "$DATA/overlay.csv")" ]
	chart_of ov.html 'SQL' | grep -q '>P5520 (published)</text>'
	for t in 'SQL: p99' 'Oracle' 'Oracle: p99' 'All profiles: IOPS vs average latency'; do
		! chart_of ov.html "$t" | grep -q 'class="ov"' || false
	done
	run "$IORAMP" report suite -o x.html --overlay "P=$DATA/overlay.csv"
	[ "$status" -eq 2 ]
	[[ "$output" == "ioramp report: error: --overlay P=$DATA/overlay.csv: no profile P in this suite; expected one of "* ]]
	printf 'iops,latency_us\n1000,x\n' > bad.csv
	run "$IORAMP" report suite -o x.html --overlay oracle=bad.csv
	[ "$status" -eq 2 ]
	[[ "$output" == "ioramp report: error: bad.csv:2: "* ]]
	[ ! -e x.html ]
	mkdir empty
	run "$IORAMP" report empty
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: empty: no results.json, flatfile.html, or profile subdirectories with a results.json (a suite's output directory)" ]
}
