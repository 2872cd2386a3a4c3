#!/usr/bin/env bats
# ioramp workloads, -f NAME from the library, ioramp suite (files, a refused block device, an
# interrupted suite) and ioramp demo (its report in headless Chromium, its files removed).

load helpers

WORKLOADS=$BATS_TEST_DIRNAME/../../workloads
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# The scratch file system must take O_DIRECT: the library's files open with o_direct.
need_direct_io() {
	dd if=/dev/zero of="$SCRATCH/direct" bs=4096 count=1 oflag=direct 2>/dev/null ||
		skip "the scratch file system refuses O_DIRECT (the profiles use openflags=o_direct)"
}

# Eight drive paths in the scratch directory, comma-separated.
eight_files() {
	local d=
	for i in 0 1 2 3 4 5 6 7; do d+=${d:+,}$SCRATCH/drive$i; done
	echo "$d"
}

@test "ioramp workloads lists every library file with its figures" {
	run "$IORAMP" workloads
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Workload library $(cd "$WORKLOADS" && pwd -P): 25 profiles" ]
	[[ "${lines[1]}" == "profile "*"read%  sizes"*"threads  description" ]]
	[ "${#lines[@]}" -eq 27 ]
	for f in "$WORKLOADS"/*.vdb; do
		grep -q "^$(basename "$f" .vdb) " <<<"$output" || { echo "no line for $f"; return 1; }
	done
	grep -Eq '^sql +97  8k +32  SQL: synthetic SQL Server OLTP, read-heavy$' <<<"$output"
	grep -Eq '^oracle +79.21  8k,64k +32  Oracle: ' <<<"$output"
	grep -Eq '^precondition +0  4k,128k +16,64  brings the used 25% ' <<<"$output"
	# the columns are as wide as their widest cell (a read% range, a QD sweep's threads list):
	# every description starts under the header's
	col=$(awk 'NR == 2 { print index($0, "description") }' <<<"$output")
	awk -v c="$col" 'NR > 2 && (substr($0, c - 2, 2) != "  " || substr($0, c, 1) == " ") {
		print "misaligned: " $0; bad = 1 } END { exit bad }' <<<"$output"
}

@test "the library is found next to the binary, or in \$IORAMP_WORKLOADS" {
	run "$IORAMP" workloads --dir
	[ "$status" -eq 0 ]
	[ "$output" = "$(cd "$WORKLOADS" && pwd -P)" ]
	mkdir lib
	cp "$WORKLOADS/sql.vdb" lib/mine.vdb
	IORAMP_WORKLOADS=$SCRATCH/lib run "$IORAMP" workloads
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Workload library $SCRATCH/lib: 1 profile" ]
	[[ "${lines[2]}" == "mine "*"SQL: synthetic SQL Server OLTP, read-heavy" ]]
}

@test "ioramp -f sql reads the library's sql.vdb; a file of that name comes first" {
	run "$IORAMP" -f sql -s "lun=$SCRATCH/drive%d"
	[ "$status" -eq 0 ]
	# VDbench's notices (the JVM count adjustment) come before the first run
	[[ "$(grep -m1 'Simulating RD=' <<<"$output")" == *"Simulating RD=sql; I/O rate: Uncontrolled curve;"* ]]
	[ "$(grep -c 'Simulating RD=' <<<"$output")" -eq 13 ]
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=mine,wd=wd1,iorate=10,elapsed=2\n' \
		"$SCRATCH" >sql
	run "$IORAMP" -f sql -s
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"Simulating RD=mine;"* ]]
	run "$IORAMP" -f nosuchprofile -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"nosuchprofile"* ]]
}

@test "ioramp suite on eight modelled drives writes one report with a chart and a summary row per profile" {
	run "$IORAMP" suite --drives "$(eight_files)" --size 16m --profiles sql,oracle-90-10 \
		--engine model:units=4,read_us=200,write_us=100 -e 2 -w 0 -i 1 --curve 50,100 \
		--seed 1 -o out
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "ioramp suite: 2 profiles on 8 drives, output in out:" ]]
	[[ "${lines[1]}" == "  $SCRATCH/drive0 modelled drive of size=16m (nothing is opened)" ]]
	[[ "$output" != *"Type yes"* ]]
	grep -q '^ioramp suite: profile 1 of 2: sql (SQL), into out/sql$' <<<"$output"
	grep -q '^ioramp suite: profile 2 of 2: oracle-90-10 (Oracle 90-10), into out/oracle-90-10$' \
		<<<"$output"
	grep -Eq '^SQL +completed +[0-9,]+ +[0-9.,]+ ' <<<"$output"
	grep -Eq '^Oracle 90-10 +completed ' <<<"$output"
	[ "${lines[-1]}" = "ioramp suite: completed; report: out/report.html" ]
	[ -s out/sql/results.json ] && [ -s out/sql/report.html ] && [ -s out/sql/flatfile.html ]
	[ -s out/oracle-90-10/results.json ]
	[ ! -e "$SCRATCH/drive0" ] # a modelled drive opens nothing
	# -w 0 is no warmup in a suite (VDbench's -w 0 changes nothing; the profiles say 60)
	[ "$(jq '[.runs[].warmup_s] | add' out/sql/results.json)" -eq 0 ]
	[ "$(jq -r .execution.engine.is_modelled out/sql/results.json)" = true ]
	# every profile together (mean, p99), then each profile's mean, p99 and per-SD charts
	[ "$(grep -o '<svg' out/report.html | wc -l)" -eq 8 ]
	[ "$(grep -o '<tr><td class="t"><a href="#p-' out/report.html | wc -l)" -eq 2 ]
	[ "$(grep -o '<table class="sla">' out/report.html | wc -l)" -eq 2 ]
	# each chart: the two curve points, as reviews draw them, per SD on the per-SD chart
	[ "$(grep -o '<circle class="pt"' out/report.html | wc -l)" -eq $((16 + 2 * 8 * 2)) ]
	[ "$(grep -c 'aria-label="Per SD: IOPS vs average latency"' out/report.html)" -eq 2 ]
	for t in 'SQL' 'SQL: p99' 'Oracle 90-10' 'Oracle 90-10: p99'; do
		[ "$(chart_of out/report.html "$t" | grep -c '<polyline class="line"')" -eq 1 ]
		[ "$(chart_of out/report.html "$t" | grep -c '<circle class="pt"')" -eq 2 ]
	done
	chart_of out/report.html 'SQL: p99' | grep -q '>99th percentile latency (µs)</text>'
	for t in 'All profiles: IOPS vs average latency' \
		'All profiles: IOPS vs 99th percentile latency'; do
		[ "$(chart_of out/report.html "$t" | grep -c '<polyline class="line"')" -eq 2 ]
		[ "$(chart_of out/report.html "$t" | grep -c '<circle class="pt"')" -eq 4 ]
		chart_of out/report.html "$t" | grep -q '>Oracle 90-10</text>'
	done
	# the p99 charts' tooltips give each point's p99
	[ "$(chart_of out/report.html 'All profiles: IOPS vs 99th percentile latency' |
		grep -c ' µs p99</title>')" -eq 4 ]
	grep -q 'sql/report.html">full report</a>' out/report.html
	grep -q '97% read · 8k · 32 threads per drive' out/report.html
	grep -q '8 modelled drives — peak ' out/report.html
	# the suite page and each report say the drives were modelled
	grep -q '<div class="modelled"><b>Modelled drives.</b> modelled drives, not measurements: model:units=4' out/report.html
	grep -q '<div class="modelled">' out/sql/report.html
	# the suite page states the set-up: each SD's lun and what its drive is
	grep -q '<tr><td class="t">sd7</td><td class="t">'"$SCRATCH"'/drive7</td><td>16.0 MiB</td>.*<td class="t"><b>modelled</b>: model:units=4,read_us=200,write_us=100, 4 units, ' out/report.html
	grep -q "kernel <b>$(uname -srm)</b>" out/report.html
	# the profile's own parmfile shows the SD lines made for the drives
	grep -q "^sd=sd7,lun=$SCRATCH/drive7,size=16m" out/sql/parmfile.html
	# the same seed, the same curve
	run "$IORAMP" suite --drives "$(eight_files)" --size 16m --profiles sql \
		--engine model:units=4,read_us=200,write_us=100 -e 2 -w 0 -i 1 --curve 50,100 \
		--seed 1 -o again
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.curves[].points[].iops]' again/sql/results.json)" = \
		"$(jq -c '[.curves[].points[].iops]' out/sql/results.json)" ]
}

@test "ioramp report SUITEDIR renders the page the suite run wrote: figures lines, drive legend" {
	run "$IORAMP" suite --drives "$(eight_files)" --size 16m --profiles sql,oracle-90-10 \
		--engine model:units=4,read_us=200,write_us=100 -e 2 -w 0 -i 1 --curve 100 \
		--seed 1 -o out
	[ "$status" -eq 0 ]
	cp out/report.html fresh.html
	rm out/report.html
	run "$IORAMP" report out
	[ "$status" -eq 0 ]
	[ "$output" = "out/report.html" ]
	grep -q '90% read · 8k · 22 threads per drive' out/report.html
	grep -q '8 modelled drives — peak ' out/report.html
	# the same page, times of day aside
	mask() { sed -E 's/[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?/T/g' "$1"; }
	diff <(mask fresh.html) <(mask out/report.html)
	# without a parmfile.html the figures are left out, not made up
	rm out/sql/parmfile.html
	run "$IORAMP" report out -o nofig.html
	[ "$status" -eq 0 ]
	! grep -q '97% read · 8k' nofig.html || false
	grep -q '90% read · 8k · 22 threads per drive' nofig.html
}

@test "ioramp suite runs the QD sweeps on modelled drives: one run per depth, percentiles to p99.9999 per WD and SD" {
	run "$IORAMP" suite --drives "$(eight_files)" --size 16m \
		--profiles qd-sweep-4k-randread,qd-sweep-128k-seqwrite \
		--engine model:units=4,read_us=200,write_us=100 -e 2 -w 0 -i 1 --seed 1 -o out
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^ioramp suite: profile 1 of 2: qd-sweep-4k-randread (4K Random Read QD Sweep)' \
		<<<"$output"
	[ "${lines[-1]}" = "ioramp suite: completed; report: out/report.html" ]
	for p in qd-sweep-4k-randread qd-sweep-128k-seqwrite; do
		local j=out/$p/results.json
		[ "$(jq '.runs | length' "$j")" -eq 9 ]
		[ "$(jq -c '[.runs[].params.threads]' "$j")" = "[1,2,4,8,16,32,64,128,256]" ]
		# every run's workloads and drives carry the tail percentiles
		[ "$(jq '[.runs[].average.wds[].service.percentiles_us["99.9999"] | numbers] | length' \
			"$j")" -eq 9 ]
		[ "$(jq '[.runs[].average.sds[].service.percentiles_us["99.9999"] | numbers] | length' \
			"$j")" -eq 72 ]
		# one sweep over threads, not nine one-point series
		[ "$(jq -c '[.curves[] | {kind, x, for_loops}]' "$j")" = \
			'[{"kind":"sweep","x":"threads","for_loops":"None"}]' ]
		[ "$(jq -c '[.curves[0].points[].x]' "$j")" = "[1,2,4,8,16,32,64,128,256]" ]
	done
	# the time marks and the distribution's lines are named by depth, not "max"
	chart_of out/qd-sweep-4k-randread/report.html 'IOPS per interval' |
		grep -q 'class="mlabel"[^>]*>threads=1</text>'
	chart_of out/qd-sweep-4k-randread/report.html 'Service time distribution' |
		grep -q '>threads=256</text>'
	! chart_of out/qd-sweep-4k-randread/report.html 'Service time distribution' |
		grep -q '>max</text>' || false
	# deeper queues on a 4-unit model: more IOPS up to 4 in flight per drive, then flat
	local j=out/qd-sweep-4k-randread/results.json
	jq -e '.runs[2].average.total.iops > 3 * .runs[0].average.total.iops' "$j"
	jq -e '.runs[8].average.total.service.mean_us > 10 * .runs[2].average.total.service.mean_us' \
		"$j"
	# a sweep's chart has the depth on x: no IOPS/latency chart for a published curve
	printf 'iops,latency_us\n1000,100\n' > pub.csv
	run "$IORAMP" report out -o x.html --overlay qd-sweep-4k-randread=pub.csv
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp report: error: --overlay qd-sweep-4k-randread=pub.csv: profile qd-sweep-4k-randread has no IOPS/average latency chart to draw it on (its chart's x axis is the swept parameter)" ]
	[ ! -e x.html ]
}

@test "ioramp suite runs write pressure and the noisy neighbour on modelled drives: each WD against write MB/s, lines end at the first missed step" {
	# 8 drives of 4 units at 100 us: 320k IOPS in all, so the 8K steps of 100 and 200 MB/s
	# per drive (204,800 and 307,200 IOPS with the reads) are met and the third is missed
	run "$IORAMP" suite --drives "$(eight_files)" --size 16m \
		--profiles write-pressure-8k,noisy-neighbor \
		--engine model:units=4,read_us=100,write_us=100 -e 2 -w 0 -i 1 --seed 1 -o out
	echo "$output"
	[ "$status" -eq 0 ]
	local j=out/write-pressure-8k/results.json
	[ "$(jq -c '[.curves[] | {kind, x}]' "$j")" = '[{"kind":"sweep","x":"iorate"}]' ]
	[ "$(jq -c '[.curves[0].points[].is_target_met]' "$j")" = \
		'[true,true,false,false,false,false,false]' ]
	[ "$(jq -c '.runs[0].wds | map([.name, .iorate, .priority, (.sds | length)])' "$j")" = \
		'[["reads",102400,1,8],["writes",null,2,8]]' ]
	local page=out/write-pressure-8k/report.html
	for t in 'Mean service time per WD vs write MB/s' 'p99 service time per WD vs write MB/s' \
		'p99.9 service time per WD vs write MB/s' 'p99.99 service time per WD vs write MB/s' \
		'p99.9999 service time per WD vs write MB/s'; do
		# a line per WD, each ending at the first missed step, drawn hollow
		[ "$(chart_of "$page" "$t" | grep -c '<polyline class="line"')" -eq 2 ]
		[ "$(chart_of "$page" "$t" | grep -c '<circle class="pt')" -eq 6 ]
		[ "$(chart_of "$page" "$t" | grep -c '<circle class="pt missed"')" -eq 2 ]
		chart_of "$page" "$t" | grep -q '>hollow: missed its target</text>'
	done
	chart_of "$page" 'Mean service time per WD vs write MB/s' |
		grep -q '<title>reads, 100.[0-9] MB/s written per SD: mean '
	# the table: a row per step and WD, with the tail percentiles
	[ "$(grep -c '^<tr><td class="t">write-pressure-8k</td><td>[0-9.,]*</td><td class="t">reads</td>' "$page")" -eq 2 ]
	[ "$(grep -c '^<tr class="missed"><td class="t">write-pressure-8k</td><td>[0-9.,]*</td><td class="t">writes</td>' "$page")" -eq 5 ]
	grep -q '<th>p99.9999 µs</th>' "$page"
	# the noisy neighbour: readers on sd3-sd5, writers on sd0-sd2, sd6 and sd7 idle
	j=out/noisy-neighbor/results.json
	[ "$(jq -c '.runs[0].wds | map([.name, .sds])' "$j")" = \
		'[["reads",["sd3","sd4","sd5"]],["writes",["sd0","sd1","sd2"]]]' ]
	page=out/noisy-neighbor/report.html
	local t='Read latency under the write load'
	[ "$(chart_of "$page" "$t" | grep -c '<polyline class="line"')" -eq 3 ]
	for l in 'reads mean' 'reads p99.99' 'reads p99.9999'; do
		chart_of "$page" "$t" | grep -q ">$l</text>"
	done
	# x is the MB/s written per write namespace: 100 MB/s at the first step
	chart_of "$page" "$t" | grep -q '<title>reads, 100.[0-9] MB/s written per SD: p99.9999 '
	# the suite page: the readers' chart and every percentile's chart of each profile, as
	# the reviews chart write pressure (mean, p99, p99.9, p99.99) and the noisy neighbour
	# (p99.99, p99.9999), and the table of each WD at each step
	[ "$(grep -c 'aria-label="Read latency under the write load"' out/report.html)" -eq 2 ]
	for s in Mean p99 p99.9 p99.99 p99.9999; do
		[ "$(grep -c "aria-label=\"$s service time per WD vs write MB/s\"" out/report.html)" -eq 2 ]
	done
	[ "$(grep -c '<table class="pressure">' out/report.html)" -eq 2 ]
	[ "$(grep -c '^<tr class="missed"><td class="t">noisy-neighbor</td><td>[0-9.,]*</td><td class="t">reads</td>' out/report.html)" -eq 4 ]
	# and both on the chart of every profile together
	[ "$(chart_of out/report.html 'All profiles: IOPS vs average latency' | grep -c '<polyline class="line"')" -eq 2 ]
	# and says, per profile, that steps were missed, in the summary too; their points hollow
	grep -q '>Write Pressure 8K</a></td><td class="t">completed</td><td class="missed">7, 5 missed</td>' out/report.html
	grep -q '>Noisy Neighbor</a></td><td class="t">completed</td><td class="missed">7, 4 missed</td>' out/report.html
	[ "$(grep -c '<div class="invalid" role="alert"><b>5 of 7 runs missed' out/report.html)" -eq 1 ]
	[ "$(grep -c '<div class="invalid" role="alert"><b>4 of 7 runs missed' out/report.html)" -eq 1 ]
	grep -q '<circle class="pt missed"' out/report.html
}

@test "the noisy neighbour needs six drives: a suite of four refuses it at its line" {
	local d=$SCRATCH/drive0,$SCRATCH/drive1,$SCRATCH/drive2,$SCRATCH/drive3
	run "$IORAMP" suite --drives "$d" --size 16m --profiles noisy-neighbor \
		--engine model:units=4 -e 2 -w 0 -i 1 -o out
	[ "$status" -eq 2 ]
	[[ "$output" == *"noisy-neighbor.vdb:"*": error: could not find sd=sd4 for wd=reads"* ]]
	[ ! -e out/noisy-neighbor ]
}

@test "nested for-loops give one sweep per outer value along the innermost; an iorate list is a sweep of iorate" {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f,size=16m" "wd=wd1,sd=sd1,rdpct=100" \
		"rd=rd1,wd=wd1,iorate=max,forxfersize=(4k,8k),forthreads=(1,2,4),elapsed=2,interval=1" \
		"rd=rd2,wd=wd1,iorate=(100,200),forthreads=(1,2),elapsed=2,interval=1" >nest.vdb
	run "$IORAMP" -f nest.vdb -o out --engine model:units=2,read_us=100 --seed 1
	echo "$output" | tail -5
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.curves[] | [.kind, .x, .rd, .for_loops, [.points[].x]]]' out/results.json)" = \
		'[["sweep","threads","rd1","xfersize=4k",[1,2,4]],["sweep","threads","rd1","xfersize=8k",[1,2,4]],["sweep","iorate","rd2","threads=1",[100,200]],["sweep","iorate","rd2","threads=2",[100,200]]]' ]
	# the page names the swept parameter instead of the first run's value ("1 threads")
	grep -q 'RD rd1 · SD sd1 · 100% read · seekpct 100 · sweep of threads · 2 curves' \
		out/report.html
	# xfersize is the outer loop: each line has its own, the header claims none
	! grep -q '4 KiB[^<]*sweep of threads' out/report.html || false
	! grep -q '1 threads' out/report.html || false
	# rd1: throughput and latency against threads, a line of 3 points per xfersize
	for t in 'IOPS vs threads' 'Average latency vs threads' '99th percentile latency vs threads'; do
		[ "$(chart_of out/report.html "$t" | grep -c '<polyline class="line"')" -eq 2 ]
		[ "$(chart_of out/report.html "$t" | grep -c '<circle class="pt')" -eq 6 ]
		chart_of out/report.html "$t" | grep -q '>xfersize=8k</text>'
	done
	chart_of out/report.html 'IOPS vs threads' | grep -q '>Threads per SD (I/Os in flight)</text>'
	chart_of out/report.html 'IOPS vs threads' |
		grep -q '<title>threads=4: [0-9,]* IOPS, [0-9.,]* MB/s, [0-9.]* µs mean'
	# rd2, a sweep of iorate, keeps IOPS against latency: x is IOPS, a line per thread count
	[ "$(chart_of out/report.html 'IOPS vs average latency' | grep -c '<circle class="pt')" -eq 4 ]
	[ "$(grep -c 'aria-label="IOPS vs threads"' out/report.html)" -eq 1 ]
}

@test "ioramp suite with modelled drives needs --size" {
	run "$IORAMP" suite --drives a,b --engine model --profiles sql
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp suite: error: --engine model: modelled drives open nothing; expected --size SIZE for their capacity" ]
}

@test "ioramp suite usage errors exit 2 before anything is written" {
	run "$IORAMP" suite --profiles sql
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp suite: error: no drives; expected --drives DEV,DEV,..." ]
	run "$IORAMP" suite --drives "$SCRATCH/nothere"
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp suite: error: $SCRATCH/nothere does not exist; --size SIZE creates files" ]
	run "$IORAMP" suite --drives "$(eight_files)" --size 16m --profiles sql,nosuch
	[ "$status" -eq 2 ]
	[[ "$output" == *"no profile nosuch in the workload library"* ]]
	run "$IORAMP" suite --drives "$(eight_files)" --size 16m --curve 0,50
	[ "$status" -eq 2 ]
	run "$IORAMP" suite --drives a,,b
	[ "$status" -eq 2 ]
	[ ! -e suite ] && [ ! -e "$SCRATCH/drive0" ]
}

@test "ioramp suite refuses a block device without --yes and without a terminal" {
	[ "$(id -u)" -eq 0 ] || skip "not root: no loop device to test with"
	command -v losetup >/dev/null || skip "losetup not installed"
	command -v setsid >/dev/null || skip "setsid not installed"
	truncate -s 64m disk.img
	LOOP=$(losetup -f --show disk.img 2>/dev/null) || skip "losetup cannot attach a loop device here"
	# setsid: no controlling terminal, so /dev/tty cannot be opened
	run setsid -w "$IORAMP" suite --drives "$LOOP" --profiles sql -e 2 -i 1 -o out </dev/null
	losetup -d "$LOOP"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"  $LOOP block device "*"64.0 MiB  no signature"* ]]
	[[ "$output" == *"The profiles write to the block devices above"* ]]
	[[ "$output" == *"ioramp suite: error: writing to block devices needs --yes or a confirmation on a terminal, and there is no terminal; nothing written"* ]]
	[ ! -e out ]
}

@test "an interrupted suite exits 130 and still writes the report of what ran" {
	need_direct_io
	"$IORAMP" suite --drives "$(eight_files)" --size 16m --profiles sql,oracle-90-10 \
		--engine null -e 60 -w 0 -i 1 -o out >console.txt 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -Eq '^[0-9:.]{12} +2 ' console.txt 2>/dev/null && break
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid" || status=$?
	cat console.txt
	[ "${status:-0}" -eq 130 ]
	grep -q '^ioramp suite: interrupted; report: out/report.html$' console.txt
	grep -Eq '^Oracle 90-10 +not run ' console.txt
	grep -q '<b>interrupted</b>' out/report.html
	[ ! -e out/oracle-90-10 ]
}

@test "ioramp demo finishes, its report renders in Chromium, its drive files are removed" {
	[ -z "${IORAMP_SANITIZED:-}" ] ||
		skip "half a minute of real time: the plain pass runs it; demo --model runs sanitized"
	need_direct_io
	TMPDIR=$SCRATCH run "$IORAMP" demo
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "ioramp demo: the SQL profile on eight 128 MiB files in $SCRATCH/ioramp-demo."*", 2-second points" ]]
	[ "${lines[1]}" = "ioramp demo: formatsds=yes: the files are written in full first (SD_format, 128 KiB sequential writes), so that no read hits a hole" ]
	grep -q '^Curve sql: 6 points; peak ' <<<"$output"
	grep -q '^  IOPS at latency (service time; points joined by straight lines):$' <<<"$output"
	grep -q '^ioramp demo: drive files removed (--keep keeps them)$' <<<"$output"
	dir=$(ls -d "$SCRATCH"/ioramp-demo.*)
	[ "${lines[-1]}" = "ioramp demo: the report stays in $dir/report: open $dir/report/report.html" ]
	[ -z "$(ls "$dir" | grep -v '^report$')" ]
	[ -s "$dir/report/report.html" ] && [ -s "$dir/report/sql/report.html" ]
	[ -x "$CHROMIUM" ] || skip "chromium not installed (apt-get install chromium): demo report not rendered"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update --disable-sync \
		--no-first-run --user-data-dir="$SCRATCH/profile" --enable-logging=stderr --v=0 \
		--dump-dom "file://$dir/report/report.html" >dom.html 2>console.log
	if grep -E ':CONSOLE|Uncaught' console.log; then
		false
	fi
	# one profile: its mean, p99 and per-SD charts (no chart of every profile together)
	[ "$(grep -o '<svg' dom.html | wc -l)" -eq 3 ]
	# six points, met ("pt") or drawn hollow ("pt missed"): this test runs on a real machine;
	# on the mean and p99 charts, and for each of the eight drives on the per-SD chart
	[ "$(grep -oE '<circle class="pt( missed)?"' dom.html | wc -l)" -eq $((6 * 2 + 6 * 8)) ]
	grep -q 'Peak <b>' dom.html
}

@test "ioramp demo writes its drive files in full before the curve: no holes, SD_format in results.json" {
	[ -z "${IORAMP_SANITIZED:-}" ] ||
		skip "half a minute of real time: the plain pass runs it; demo --model runs sanitized"
	need_direct_io
	run "$IORAMP" demo --keep --dir "$SCRATCH/dk"
	[ "$status" -eq 0 ]
	[ "${lines[-2]}" = "ioramp demo: drive files kept: $SCRATCH/dk/drive0 ... drive7" ]
	for i in 0 1 2 3 4 5 6 7; do
		f=$SCRATCH/dk/drive$i
		read -r blocks unit size < <(stat -c '%b %B %s' "$f")
		echo "$f: $blocks blocks of $unit for $size bytes"
		[ "$size" -eq $((128 << 20)) ] && [ $((blocks * unit)) -ge "$size" ]
	done
	json=$SCRATCH/dk/report/sql/results.json
	[ "$(jq -r '.runs[0].name, .runs[0].is_eof, .runs[1].name' "$json")" = "SD_format
true
sql" ]
	# every byte of the eight drives written once, 128 KiB at a time
	[ "$(jq '[.runs[0].intervals[] | select(.is_avg | not) | .total.nr_ios] | add' "$json")" -eq 8192 ]
	[ "$(jq -r '.runs[0].params.xfersize_bytes' "$json")" = 131072 ]
}

@test "ioramp demo --model runs the whole library on eight modelled drives and leaves the suite page" {
	# slow drives keep this test cheap (the preset's 6 M IOPS are a bench/ figure: bench/run)
	run "$IORAMP" demo --model --dir "$SCRATCH/dm" --engine model:units=2,read_us=500,write_us=500
	echo "$output" | tail -25
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "ioramp demo: every profile of the workload library on eight modelled drives (model:units=2,read_us=500,write_us=500, virtual time: nothing is opened in $SCRATCH/dm), 2-second points" ]]
	[[ "$output" == *"ioramp suite: 24 profiles on 8 drives, output in $SCRATCH/dm/report:"* ]]
	[ "$(grep -cE ' completed +[0-9,]+ ' <<<"$output")" -eq 24 ]
	[ "${lines[-1]}" = "ioramp demo: modelled drives, not measurements; the report stays in $SCRATCH/dm/report: open $SCRATCH/dm/report/report.html" ]
	[ -z "$(ls "$SCRATCH/dm" | grep -v '^report$')" ] # no drive file was made
	# every profile together (mean, p99), three per curve profile (mean, p99, per SD), three
	# per QD sweep (throughput, mean, p99), six per pressure test (the readers, then mean,
	# p99, p99.9, p99.99 and p99.9999 per WD)
	[ "$(grep -o '<svg' "$SCRATCH/dm/report/report.html" | wc -l)" -eq $((2 + 16 * 3 + 5 * 3 + 3 * 6)) ]
	grep -q '<div class="modelled"><b>Modelled drives.</b>' "$SCRATCH/dm/report/report.html"
	grep -q '8 modelled drives' "$SCRATCH/dm/report/report.html"
	[ "$(jq -r .execution.engine.model.units "$SCRATCH/dm/report/sql/results.json")" = 2 ]
	run "$IORAMP" demo --model --engine sync
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp demo: error: --model runs modelled drives; expected --engine model[:PRESET][,OPTION=VALUE...] or no --engine" ]]
}
