#!/usr/bin/env bats
# Executing parameter files: console lines, exit codes, the output directory, bad targets and
# signals. Files in a scratch directory; the real engines where a test needs real files or real
# time (a signal), modelled drives in virtual time (--engine model) where it tests logic; no
# time is asserted.

load helpers

write_parm() {
	cat >p.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=8m,threads=4
sd=sd2,lun=$SCRATCH/f2,size=8m,threads=4
wd=wd1,sd=sd*,xfersize=(4k,50,8k,50),rdpct=70,skew=60
wd=wd2,sd=sd*,xfersize=4k,rdpct=0,seekpct=seq
rd=rd1,wd=wd*,iorate=500,elapsed=2,interval=1,warmup=1
PARM
}

# The interval line layout of VDbench 5.04.07 (reference 10.1).
interval_re='^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} +[0-9]+ +[0-9]+\.[0-9] +[0-9]+\.[0-9]{2} +[0-9]+ +[0-9]+\.[0-9]{2}( +[0-9]+\.[0-9]{3}){3}( +[0-9]+\.[0-9]{2}){2} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]( +[0-9]+\.[0-9]){2}$'

@test "a run prints VDbench's console and writes the output directory" {
	write_parm
	run "$IORAMP" -f p.vdb -o out --engine sync --seed 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"Starting RD=SD_format; I/O rate: Uncontrolled MAX; elapsed=(none); For loops: threads=2 iorate=max"* ]]
	[[ "$output" == *"Starting RD=rd1; I/O rate: 500; elapsed=2 warmup=1; For loops: None"* ]]
	n=0
	while IFS= read -r l; do
		if [[ "$l" =~ $interval_re ]]; then n=$((n + 1)); fi
	done <<<"$output"
	[ "$n" -ge 3 ]
	echo "$output" | grep -Eq '^[0-9:.]{12} +avg_2-3 '
	for f in summary.html totals.html logfile.html parmfile.html flatfile.html histogram.html \
		errorlog.html status.html sd1.html sd2.html wd1.html wd2.html skew.html; do
		[ -s "out/$f" ]
	done
	[ "$(stat -c %s f1)" -eq $((8 << 20)) ]
}

@test "a single WD has its report only beside a format pass, as VDbench counts WDs" {
	printf 'sd=sd1,lun=%s/f1,size=1m\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
		"$SCRATCH" >one.vdb
	run "$IORAMP" -f one.vdb -o out --engine null
	[ "$status" -eq 0 ]
	[ -s out/wd1.html ]
	[ -s out/wd1.histogram.html ]
	grep -q '^Workload Report for wd=wd1$' out/wd1.html
	grep -q '^Link to workload report:         <A HREF="wd1.html">wd1</A>$' out/summary.html
	# without a format pass (the file exists now, or modelled drives, which need none): one WD,
	# no WD report (VDbench 5.04.07 [observed])
	run "$IORAMP" -f one.vdb -o out1 --engine model
	[ "$status" -eq 0 ]
	[ -z "$(ls out1 | grep '^wd')" ]
	! grep -q 'workload report' out1/summary.html || false
	# nor when the RD carries the workload itself
	printf 'sd=sd1,lun=%s/f1,size=1m\nrd=rd1,sd=sd1,xfersize=4k,iorate=100,elapsed=2,interval=1\n' \
		"$SCRATCH" >own.vdb
	run "$IORAMP" -f own.vdb -o out2 --engine model
	[ "$status" -eq 0 ]
	[ -z "$(ls out2 | grep '^wd')" ]
	! grep -q 'workload report' out2/summary.html || false
}

@test "report=no_sd_detail leaves out the SD reports; report=slave_detail adds the slave's" {
	write_parm
	sed -i '1i report=no_sd_detail' p.vdb
	run "$IORAMP" -f p.vdb -o out --engine model
	[ "$status" -eq 0 ]
	[ -z "$(ls out | grep '^sd')" ]
	! grep -q 'Link to SD reports' out/summary.html || false
	[ -s out/wd1.html ] # the workload reports stay
	sed -i '1s/.*/report=(no_sd_detail,slave_detail)/' p.vdb
	run "$IORAMP" -f p.vdb -o out2 --engine model
	[ "$status" -eq 0 ]
	[ -z "$(ls out2 | grep '^sd')" ]
	[ -s out2/localhost-0.histogram.html ]
	[ -n "$(ls out2 | grep '^localhost-0\.sd')" ]
}

@test "every engine runs the same file" {
	write_parm
	for e in uring aio sync null; do
		# -w 0 keeps the file's warmup=1, as VDbench 5.04.07 does (tests/parm [170])
		run "$IORAMP" -f p.vdb -o "out-$e" --engine "$e" -e 2 -w 0
		[ "$status" -eq 0 ]
		echo "$output" | grep -Eq '^[0-9:.]{12} +avg_2-3 '
	done
}

# Four SDs of three kinds: sd1 buffered, 4K reads, sd2 buffered and written, sd3 O_DIRECT (when
# the scratch file system takes it) and written, sd4 buffered, 64K reads only.
write_kinds_parm() {
	local direct=
	dd if=/dev/zero of="$SCRATCH/probe" bs=4096 count=1 oflag=direct 2>/dev/null &&
		direct=,openflags=o_direct
	cat >k.vdb <<PARM
sd=sd1,lun=$SCRATCH/k1,size=1m,threads=2
sd=sd2,lun=$SCRATCH/k2,size=1m,threads=2
sd=sd3,lun=$SCRATCH/k3,size=1m,threads=2$direct
sd=sd4,lun=$SCRATCH/k4,size=1m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
wd=wd2,sd=(sd2,sd3),xfersize=4k,rdpct=50
wd=wd3,sd=sd4,xfersize=64k,rdpct=100
rd=rd1,wd=wd*,iorate=100,elapsed=2,interval=1,warmup=0
PARM
	[ -n "$direct" ]
}

@test "the default engine picks per SD: results.json records it, the logfile says it once per kind" {
	write_kinds_parm || skip "the scratch file system refuses O_DIRECT: no O_DIRECT SD to pick for"
	run "$IORAMP" -f k.vdb -o out
	[ "$status" -eq 0 ]
	[[ "$output" != *"engine: "* ]] # VDbench's console keeps its lines
	[ "$(jq -c '[.runs[] | select(.name == "rd1") | .sds[] | [.name, .engine, .is_engine_default]]' out/results.json)" = \
		'[["sd1","uring",true],["sd2","sync",true],["sd3","uring",true],["sd4","sync",true]]' ]
	# the rule's words, one line per kind, before the run they apply to (the format run writes
	# every buffered file: sync for all three), then the slaves' synchronization (VDbench's)
	grep -q 'engine: sync for 3 SDs (buffered, writes)$' out/logfile.html
	grep -A7 'engine: uring for 1 SD (buffered, reads below 64 KiB)$' out/logfile.html |
		grep -q 'Starting RD=rd1'
	grep -A6 'engine: sync for 1 SD (buffered, writes)$' out/logfile.html | grep -q 'Starting RD=rd1'
	[ "$(grep -c 'engine: uring for 1 SD (O_DIRECT)$' out/logfile.html)" -eq 2 ]
	grep -A4 'engine: sync for 1 SD (buffered, reads of 64 KiB or more)$' out/logfile.html |
		grep -q 'Starting RD=rd1'
	grep -A2 'engine: sync for 1 SD (buffered, reads of 64 KiB or more)$' out/logfile.html |
		grep -q 'Synchronization of all slaves complete$'
	# every SD did I/O, on workers of its own backend
	[ "$(jq '[.runs[] | select(.name == "rd1") | .average.sds[] | .nr_ios > 0] | length == 4 and all' out/results.json)" = true ]
	if has_jsonschema; then
		run schema_valid out/results.json
		[ "$output" = valid ]
	fi
}

@test "--engine and engine= override the default engine on every SD" {
	write_kinds_parm || true
	run "$IORAMP" -f k.vdb -o out-sync --engine sync
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.runs[] | .sds[] | [.engine, .is_engine_default]] | unique' out-sync/results.json)" = '[["sync",false]]' ]
	! grep -q 'engine: ' out-sync/logfile.html || false
	(echo engine=aio; cat k.vdb) >ka.vdb
	run "$IORAMP" -f ka.vdb -o out-aio
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.runs[] | select(.name == "rd1") | .sds[] | .engine] | unique' out-aio/results.json)" = '["aio"]' ]
	! grep -q 'engine: ' out-aio/logfile.html || false
}

@test "a missing lun without size= fails before any I/O with its place" {
	printf 'sd=sd1,lun=%s/nothere\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2\n' \
		"$SCRATCH" >bad.vdb
	run "$IORAMP" -f bad.vdb -o out
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "bad.vdb:1:12: error: sd=sd1: lun=$SCRATCH/nothere does not exist;"* ]]
	[ ! -d out ]
}

@test "not supported keywords are refused, never ignored" {
	printf 'monitor=/x\nsd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2\n' \
		"$SCRATCH" >v.vdb
	run "$IORAMP" -f v.vdb -o out
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "v.vdb:1:9: error: not supported yet: monitor" ]]
}

@test "one process refuses hd= hosts other than this one, pointing at MPI" {
	cat >p.vdb <<PARM
hd=default,jvms=2
hd=h1
hd=h2
sd=sd1,lun=$SCRATCH/f1,size=1m
wd=wd1,sd=sd1
rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1
PARM
	run "$IORAMP" -f p.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "p.vdb:2:4: error: hd=h1 runs on another host; expected hd=localhost or no hd=, or an MPI job: mpirun -np N ioramp (built with make MPI=1)" ]
	# -s lists the runs as VDbench does, hosts or not
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 0 ]
}

@test "SIGINT ends the run with the completed intervals and exit 130" {
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=600\n' \
		"$SCRATCH" >long.vdb
	"$IORAMP" -f long.vdb -o out --engine null >console.txt 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -Eq '^[0-9:.]{12} +3 ' console.txt 2>/dev/null && break
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid" || status=$?
	[ "${status:-0}" -eq 130 ]
	grep -Eq '^[0-9:.]{12} +avg_2-[0-9]+ ' console.txt
	grep -q 'avg_2-' out/totals.html
}

@test "SIGTERM exits 143" {
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=600\n' \
		"$SCRATCH" >long.vdb
	"$IORAMP" -f long.vdb -o out --engine null >console.txt 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -Eq '^[0-9:.]{12} +2 ' console.txt 2>/dev/null && break
		sleep 0.1
	done
	kill -TERM "$pid"
	wait "$pid" || status=$?
	[ "${status:-0}" -eq 143 ]
}

@test "--record writes every issued I/O as a time-ordered fio iolog v3" {
	printf 'sd=sd1,lun=%s/r1,size=4m\nwd=wd1,sd=sd1,rdpct=70\nrd=rd1,wd=wd1,iorate=500,elapsed=2\n' \
		"$SCRATCH" >rec.vdb
	run "$IORAMP" -f rec.vdb -o out --engine model --seed 7 --record rec.log
	[ "$status" -eq 0 ]
	[ "$(head -1 rec.log)" = "fio version 3 iolog" ]
	grep -q " $SCRATCH/r1 add$" rec.log
	# every data line is in time order, within the run's 2 virtual seconds, reads about 70 %
	awk '$3 == "read" || $3 == "write" { if ($1 < prev) bad++; prev = $1; n++; if ($3 == "read") r++ }
		END { if (bad || n < 900 || n > 1100 || prev > 3000000 || r / n < 0.65 || r / n > 0.75) exit 1 }' rec.log
	# virtual time: the same seed records the same I/Os
	cp rec.log rec1.log
	run "$IORAMP" -f rec.vdb -o out --engine model --seed 7 --record rec.log
	cmp rec.log rec1.log
	run "$IORAMP" trace stat rec.log
	[ "$status" -eq 0 ]
	[[ "$output" == *"format fio3"* ]]
}

@test "compratio= makes the written data compress by about that ratio" {
	for c in 1 4; do
		printf 'compratio=%s\nsd=sd1,lun=%s/c%s,size=8m\nwd=wd1,sd=sd1,rdpct=0,seekpct=seq,xfersize=64k\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' \
			"$c" "$SCRATCH" "$c" >c.vdb
		run "$IORAMP" -f c.vdb -o out --engine sync
		[ "$status" -eq 0 ]
	done
	[ "$(gzip -c c1 | wc -c)" -gt $((8 << 20)) ]          # random: gzip cannot shrink it
	ratio=$(( (8 << 20) / $(gzip -c c4 | wc -c) ))
	[ "$ratio" -ge 3 ] && [ "$ratio" -le 5 ]
}

@test "startcmd= and endcmd= run around the execution and each run; loop= repeats the plan" {
	# a blank ends a line's parameters, parentheses or not (tests/parm [016]): quote commands
	printf 'startcmd="echo START $output"\nendcmd=("echo END",cons)\nloop=2\nsd=sd1,lun=%s/lp,size=4m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,startcmd="echo RDSTART",endcmd="echo RDEND"\n' \
		"$SCRATCH" >lp.vdb
	run "$IORAMP" -f lp.vdb -o lpo --engine model
	[ "$status" -eq 0 ]
	# as VDbench 5.04.07 says it: the master's commands with execute(), an RD's on its slave;
	# what a master's command prints is "Cmd: " in logfile.html, on the console too with cons
	[ "$(grep -c "[0-9] Start/end command: executing 'echo START .*lpo'$" <<<"$output")" -eq 1 ]
	[ "$(grep -c '[0-9] execute(): echo START ' <<<"$output")" -eq 1 ]
	[ "$(grep -c '[0-9] Cmd: START ' <<<"$output")" -eq 0 ]
	[ "$(grep -c '[0-9] Cmd: START .*lpo$' lpo/logfile.html)" -eq 1 ]
	[ "$(grep -c '[0-9] Cmd: END$' <<<"$output")" -eq 1 ]
	[ "$(grep -c "[0-9] localhost-0: Start/end command: executing 'echo RDSTART'$" \
		<<<"$output")" -eq 2 ]
	[ "$(grep -c 'execute(): echo RD' <<<"$output")" -eq 0 ]
	# an RD's command runs on the slave: what it prints is in localhost-0.stdout.html alone,
	# after the slave's own lines, the start's in the run's setup, the end's before its end
	[ "$(grep -c 'Cmd: RD' lpo/logfile.html)" -eq 0 ]
	cut -c27- lpo/localhost-0.stdout.html | grep -E '^(Beginning|Start/end|Message|execute|Cmd|Opening|End of)' |
		sed -n '/Beginning/,$p' | head -14 >got
	cat >want <<'W'
Beginning of run setup
Start/end command: executing 'echo RDSTART'
Message to master: Start/end command: executing 'echo RDSTART'
execute(): echo RDSTART
Cmd: RDSTART
Opening sd=sd1,lun=$SCRATCH/lp
Start/end command: executing 'echo RDEND'
Message to master: Start/end command: executing 'echo RDEND'
execute(): echo RDEND
Cmd: RDEND
End of run
Beginning of run setup
Start/end command: executing 'echo RDSTART'
Message to master: Start/end command: executing 'echo RDSTART'
W
	sed -i "s|\$SCRATCH|$SCRATCH|" want
	diff want got
	[ "$(grep -c '^RDSTART$' <<<"$output")" -eq 0 ]
	[ "$(grep -c 'Starting RD=rd1;' <<<"$output")" -eq 2 ]
	# with cons (observed): the console and logfile say it after "localhost-0: ", the slave's
	# log as its message to the master
	printf 'sd=sd1,lun=%s/lp,size=4m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,startcmd=("echo RDCONS",cons)\n' \
		"$SCRATCH" >lc.vdb
	run "$IORAMP" -f lc.vdb -o lco --engine model
	[ "$status" -eq 0 ]
	[ "$(grep -c '[0-9] localhost-0: Cmd: RDCONS$' <<<"$output")" -eq 1 ]
	[ "$(grep -c '[0-9] localhost-0: Cmd: RDCONS$' lco/logfile.html)" -eq 1 ]
	[ "$(grep -c '[0-9] Message to master: Cmd: RDCONS$' lco/localhost-0.stdout.html)" -eq 1 ]
	[ "$(grep -c ' Cmd: RDCONS$' lco/localhost-0.stdout.html)" -eq 1 ]
}

@test "startcmd= with sum: what the command prints goes to summary.html alone, with a blank" {
	printf 'startcmd=("echo ALPHA; echo BETA",sum)\nendcmd=("echo GAMMA",sum)\nsd=sd1,lun=%s/sm,size=4m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
		"$SCRATCH" >sm.vdb
	run "$IORAMP" -f sm.vdb -o smo --engine model
	[ "$status" -eq 0 ]
	# as VDbench 5.04.07 writes it: "Cmd: LINE " in summary.html, where it ran, with the time
	[ "$(grep -c '^[0-9:.]* Cmd: \(ALPHA\|BETA\|GAMMA\) $' smo/summary.html)" -eq 3 ]
	[ "$(grep -o 'Cmd: BETA \|Starting RD=rd1\|Cmd: GAMMA ' smo/summary.html)" = \
		$'Cmd: BETA \nStarting RD=rd1\nCmd: GAMMA ' ]
	[ "$(grep -c 'Cmd: ' smo/logfile.html)" -eq 0 ]
	[ "$(grep -c 'Cmd: ' <<<"$output")" -eq 0 ]
	# the other options keep no blank: log and cons
	[ "$(grep -c "[0-9] Start/end command: executing 'echo GAMMA'$" <<<"$output")" -eq 1 ]
}

@test "a point that misses its target says so: results.json, curves.csv, console, --strict" {
	# one modelled unit of 100 us: 10,000 IOPS at most, so the 130% point cannot be reached
	cat >miss.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=64m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=rd1,wd=wd1,iorate=curve,curve=(50,100,130),elapsed=3,interval=1
PARM
	eng=model:units=1,read_us=100,dist=fixed
	run "$IORAMP" -f miss.vdb -o out --engine "$eng" --seed 1
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nrd1_(130%): reached 10,000 of 13,000 (77%), limited by device\n'* ]]
	[ "$(echo "$output" | grep -c ': reached ')" -eq 1 ]
	[ "$(jq -r '.schema' out/results.json)" = "ioramp-results/3" ]
	[ "$(jq -c '[.runs[] | [.is_target_met, .limited_by]]' out/results.json)" = \
		'[[true,"device"],[true,null],[true,null],[false,"device"]]' ]
	[ "$(jq -c '[.curves[0].points[] | .is_target_met]' out/results.json)" = '[true,true,false]' ]
	# virtual time: ioramp's CPU says nothing about a modelled second
	[ "$(jq -r '.runs[0].ioramp_cpu_pct, .runs[0].intervals[0].ioramp_cpu_pct' out/results.json)" = $'null\nnull' ]
	head -1 out/curves.csv | grep -q ',target_met,limited_by$'
	[ "$(tail -1 out/curves.csv | cut -d, -f20-)" = "no,device" ]
	[ "$(sed -n 2p out/curves.csv | cut -d, -f20-)" = "yes," ]
	if has_jsonschema; then
		run schema_valid out/results.json
		[ "$output" = "valid" ]
	fi
	run "$IORAMP" -f miss.vdb -o out2 --engine "$eng" --seed 1 --strict
	[ "$status" -eq 1 ]
	[[ "$output" == *"ioramp: error: --strict: 1 run missed its target by more than 2%"* ]]
	# a fixed rate the drive carries passes --strict; a lone iorate= run that misses is listed
	sed -i 's/iorate=curve,curve=(50,100,130)/iorate=5000/' miss.vdb
	run "$IORAMP" -f miss.vdb -o out3 --engine "$eng" --seed 1 --strict
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.runs[-1].is_target_met, .runs[-1].limited_by]' out3/results.json)" = '[true,null]' ]
	sed -i 's/iorate=5000/iorate=20000/' miss.vdb
	run "$IORAMP" -f miss.vdb -o out4 --engine "$eng" --seed 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"rd1: reached 10,000 of 20,000 (50%), limited by device"* ]]
}

# A rate a little over the drive's: the backlog grows until it fills threads= in the last
# interval, while the average of the averaged intervals stays under it (1,266 of 1,500): the
# device held the point back all the same.
@test "a backlog that fills threads= before the run ends is the device's, though its average is under" {
	cat >b.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=64m,threads=1500
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=rd1,wd=wd1,iorate=10500,elapsed=4,interval=1
PARM
	run "$IORAMP" -f b.vdb -o out --engine model:units=1,read_us=100,dist=fixed --seed 1
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nrd1: reached 10,000 of 10,500 (95%), limited by device\n'* ]]
	[ "$(jq -c '[.runs[-1].is_target_met, .runs[-1].limited_by]' out/results.json)" = '[false,"device"]' ]
	# the average's queue depth is under 95% of threads=, the last interval's at it
	jq -e '.runs[-1] | .average.total.qdepth < 0.95 * 1500 and .intervals[-1].total.qdepth >= 0.95 * 1500' \
		out/results.json
}

@test "a real-time run records ioramp's own CPU per interval and per run" {
	printf 'sd=sd1,lun=%s/f1,size=1m,threads=2\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1\n' \
		"$SCRATCH" >cpu.vdb
	run "$IORAMP" -f cpu.vdb -o out --engine null
	[ "$status" -eq 0 ]
	[ "$(jq -r '.runs[-1].ioramp_cpu_pct | type' out/results.json)" = number ]
	[ "$(jq -r '[.runs[-1].intervals[].ioramp_cpu_pct | type] | unique | .[]' out/results.json)" = number ]
}

@test "what VDbench runs on a file: xfersize=1000, rdpct=150 as 100, forrdpct=-10 as 0" {
	cat >edge.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=8m
wd=wd1,sd=sd1,xfersize=1000,rdpct=150,rhpct=150
wd=wd2,sd=sd1,xfersize=4k
rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1
rd=rd2,wd=wd2,iorate=100,elapsed=2,interval=1,forrdpct=-10,forwhpct=120
PARM
	run "$IORAMP" -f edge.vdb -o out --engine model
	[ "$status" -eq 0 ]
	[ "$(jq -r '.runs[0].average.total.bytes_per_io' out/results.json)" = 1000 ]
	[ "$(jq -r '.runs[0].average.total.read_pct' out/results.json)" = 100 ]
	[ "$(jq -r '.runs[1].average.total.read_pct' out/results.json)" = 0 ]
	[ "$(jq -r '.runs[1].for_loops' out/results.json)" = "rdpct=10% whpct=120" ]
}
