#!/usr/bin/env bats
# `ioramp compare`: two results.json side by side, --fail-above, exit codes.

load helpers

DATA=$TESTS/data/report-own

@test "compare prints runs and IOPS at latency side by side" {
	cd "$DATA"
	run "$IORAMP" compare a b
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat compare-a-b.expected)" ]
	[[ "${lines[4]}" == "rd1_(20%) "*"-9.1%"* ]]
}

@test "compare of a run with itself shows no difference, even with --fail-above 0" {
	run "$IORAMP" compare "$DATA/a" "$DATA/a/results.json" --fail-above 0
	[ "$status" -eq 0 ]
	[ "$(grep -c '+0.0%' <<<"$output")" -eq $((6 + 4)) ]
	[[ "$output" != *"-9.1%"* ]]
}

@test "compare --fail-above exits 1 when a difference exceeds it" {
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --fail-above 5
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "ioramp compare: rd1_(100%) p99: +11.0% is above --fail-above 5%" ]
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --fail-above 12
	[ "$status" -eq 0 ]
}

@test "compare: runs missing on one side are listed" {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d["runs"] = d["runs"][:4]
json.dump(d, open("short.json", "w"))' "$DATA/b/results.json"
	run "$IORAMP" compare "$DATA/a" short.json
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nonly in A: rd1_(80%)\nonly in A: rd1_(100%)\n'* ]]
}

@test "compare: usage errors and unreadable input exit 2" {
	run "$IORAMP" compare "$DATA/a"
	[ "$status" -eq 2 ]
	[[ "$output" == "usage: ioramp compare DIR1 DIR2"* ]]
	run "$IORAMP" compare "$DATA/a" "$DATA/b" "$DATA/a"
	[ "$status" -eq 2 ]
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --fail-above
	[ "$status" -eq 2 ]
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --fail-above ten
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp compare: error: --fail-above needs a percentage (0 or more)" ]
	run "$IORAMP" compare "$DATA/a" nosuchdir
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp compare: error: nosuchdir: cannot open: No such file or directory" ]
	echo "{" > broken.json
	run "$IORAMP" compare broken.json "$DATA/a"
	[ "$status" -eq 2 ]
	[[ "$output" == "ioramp compare: error: broken.json:"*": not JSON: "* ]]
	echo '{"schema": "ioramp-results/4", "runs": []}' > future.json
	run "$IORAMP" compare future.json "$DATA/a"
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp compare: error: future.json: not an ioramp-results/3 document" ]
	run "$IORAMP" compare --help
	[ "$status" -eq 0 ]
}

@test "compare sets a VDbench output directory (its flatfile.html) beside an ioramp one" {
	truncate -s 16m d1
	cat > p.vdb <<'PARM'
sd=sd1,lun=d1,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=8k,rdpct=70
rd=rd1,wd=wd1,iorate=curve,curve=(50,90),elapsed=3,interval=1,warmup=1
rd=rd2,wd=wd1,iorate=max,elapsed=2,interval=1,forthreads=(1,4)
PARM
	run "$IORAMP" -f p.vdb -o out --engine model --seed 1
	[ "$status" -eq 0 ]
	# ioramp's own flatfile, the VDbench format, as VDbench's output directory would hold it
	mkdir vdb && cp out/flatfile.html vdb/
	run "$IORAMP" compare out vdb
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "B: vdb/flatfile.html (started ${lines[1]#*started }" ]
	for r in 'rd1 ' 'rd1_(50%) ' 'rd1_(90%) ' 'rd2 threads=1 ' 'rd2 threads=4 '; do
		# the same IOPS and mean (the flatfile rounds them), no p99 in a flatfile
		[[ "$(grep -F "$r" <<<"$output" | head -1)" =~ ^"$r"\ +([0-9,]+)\ +([0-9,]+)\ +[-+]0\.0%\ +[0-9.,]+\ +[0-9.,]+\ +[-+]0\.0%\ +[0-9.,]+\ +-\ +-$ ]]
	done
	[[ "$output" != *"only in"* ]]
}

@test "compare --html writes both executions on one chart per curve and the differences in a table" {
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --html page.html
	[ "$status" -eq 0 ]
	# the console table is unchanged
	[ "$output" = "$(cd "$DATA" && "$IORAMP" compare a b | sed "s#^A: a/#A: $DATA/a/#; s#^B: b/#B: $DATA/b/#")" ]
	[ "$(chart_of page.html 'rd1: IOPS vs average latency, A and B' | grep -c '<polyline class="line')" -eq 2 ]
	chart_of page.html 'rd1: IOPS vs average latency, A and B' | grep -q '>A: rd1<'
	chart_of page.html 'rd1: IOPS vs average latency, A and B' | grep -q '>B: rd1<'
	[ "$(grep -c '<tr class="row"' page.html)" -eq 6 ]
	grep -q '<td class="t">rd1_(20%)</td><td>1,000</td><td>909</td><td class="d">-9.1%</td>' page.html
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --html
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp compare: error: --html needs a file" ]
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --html /nonexistent/page.html
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "ioramp compare: error: /nonexistent/page.html: cannot write: No such file or directory" ]
}

@test "compare --html into a symbolic link or a FIFO writes through it, never replaces it" {
	# a rename over the path would replace the link (or /dev/null, /dev/stdout) itself
	: >real.html
	ln -s real.html link.html
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --html link.html
	[ "$status" -eq 0 ]
	[ -L link.html ]
	grep -q '<td class="t">rd1_(20%)</td>' real.html
	[ ! -e link.html.tmp ]
	mkfifo page.fifo
	cat page.fifo >from-fifo.html &
	run "$IORAMP" compare "$DATA/a" "$DATA/b" --html page.fifo
	wait
	[ "$status" -eq 0 ]
	[ -p page.fifo ]
	grep -q '<td class="t">rd1_(20%)</td>' from-fifo.html
}

@test "compare of two suites' directories: profile by profile, on the page too" {
	mkdir -p sa/sql sa/oracle sb/sql sb/vdi-fc-boot
	cp "$DATA/a/results.json" sa/sql/ && cp "$DATA/a/results.json" sa/oracle/
	cp "$DATA/b/results.json" sb/sql/ && cp "$DATA/b/results.json" sb/vdi-fc-boot/
	run "$IORAMP" compare sa sb --html page.html --fail-above 50
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "A: sa (a suite of 2 profiles)" ]
	[ "${lines[2]}" = "profile sql" ]
	[[ "$output" == *$'\nrd1_(20%)         1,000        909   -9.1%'* ]]
	[[ "$output" == *$'\nonly in A: profile oracle\nonly in B: profile vdi-fc-boot\n'* ]]
	[ "${lines[-1]}" = "largest run difference: sql: rd1_(100%) p99: +11.0%" ]
	grep -q 'aria-label="sql: rd1: IOPS vs average latency, A and B"' page.html
	grep -q '<td class="t">sql: rd1_(20%)</td>' page.html
	grep -q 'only in B: profile vdi-fc-boot' page.html
	run "$IORAMP" compare sa "$DATA/a"
	[ "$status" -eq 2 ]
	[[ "$output" == "ioramp compare: error: sa is a suite's directory and $DATA/a is not;"* ]]
}

@test "compare pairs a VDbench flatfile's runs whatever the order of their loops, its rate lists and its format" {
	# a flatfile names only the loops whose values differ, in its own column order (threads
	# before xfersize), and an iorate=(200,400) list only by the requested rates
	cat > p.vdb <<'PARM'
sd=sd1,lun=d1,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=8k,rdpct=70
rd=rd1,wd=wd1,iorate=(200,400),elapsed=2,interval=1
rd=rd2,wd=wd1,iorate=curve,curve=(50,90),elapsed=2,interval=1,forxfersize=(4k,8k),forthreads=(1,2)
PARM
	run "$IORAMP" -f p.vdb -o out --engine model --seed 1
	[ "$status" -eq 0 ]
	mkdir vdb && cp out/flatfile.html vdb/
	run "$IORAMP" compare out vdb
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"only in"* ]]
	for r in 'rd1 iorate=200 ' 'rd1 iorate=400 ' 'rd2_(50%) xfersize=4k threads=2 ' \
		'rd2 xfersize=8k threads=1 ' 'rd2 xfersize=8k threads=2 <1ms '; do
		grep -qF "$r" <<<"$output" || { echo "no row $r"; return 1; }
	done
	run "$IORAMP" compare vdb out # the flatfile's side names its loops in its own order
	[ "$status" -eq 0 ]
	[[ "$output" != *"only in"* ]]
	grep -qF 'rd2_(90%) threads=1 xfersize=8k ' <<<"$output"
	grep -qF 'rd1 iorate=400 ' <<<"$output"
}

@test "compare: a format run's empty average (a flatfile's avg_2-1) has no figures, not zeros" {
	printf 'sd=sd1,lun=fresh,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' >f.vdb
	run "$IORAMP" -f f.vdb -o out --engine null
	[ "$status" -eq 0 ]
	mkdir vdb && cp out/flatfile.html vdb/
	run "$IORAMP" compare vdb out --fail-above 50
	echo "$output"
	[ "$status" -eq 0 ]
	grep -Eq '^SD_format +- +- +- +- +- +- +- +- +-$' <<<"$output"
	[[ "$output" != *"only in"* ]]
	[[ "$output" != *"against 0"* ]]
}
