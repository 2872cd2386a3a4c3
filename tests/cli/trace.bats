#!/usr/bin/env bats
# "ioramp trace": stat, compare, profile and convert on the traces of traces/; exit codes,
# key output lines, JSON that parses, profiles VDbench accepts, recordings fio replays.

load helpers

TRACES=$BATS_TEST_DIRNAME/../../traces

# Pretty-prints JSON on stdin, failing on invalid input: jq if present, else python3.
json_check() {
	if command -v jq >/dev/null; then jq . >/dev/null; else python3 -m json.tool >/dev/null; fi
}

# Writes NAME.trace with NAME.awk and profiles it: every figure within its tolerance.
profile_checks_ok() {
	awk -f "$1.awk" >"$1.trace"
	run "$IORAMP" trace profile --check -o p.vdb "$1.trace"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "trace without a subcommand is a usage error" {
	run "$IORAMP" trace
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: ioramp trace stat"* ]]
}

@test "trace --help prints the usage on stdout" {
	run "$IORAMP" trace --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: ioramp trace stat [OPTIONS] [--device DEV] [--json] FILE..." ]]
}

@test "unknown subcommand, format, action or device are usage errors" {
	run "$IORAMP" trace frob
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp trace: unknown subcommand frob" ]]
	run "$IORAMP" trace stat --format nope "$TRACES/msr.csv"
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "ioramp trace: unknown --format nope" ]]
	run "$IORAMP" trace stat --action Z "$TRACES/blkparse.txt"
	[ "$status" -eq 2 ]
	run "$IORAMP" trace stat --device x "$TRACES/blkparse.txt"
	[ "$status" -eq 2 ]
	run "$IORAMP" trace stat
	[ "$status" -eq 2 ]
	run "$IORAMP" trace compare "$TRACES/msr.csv"
	[ "$status" -eq 2 ]
}

@test "stat of a blkparse trace: devices, total, counts" {
	run "$IORAMP" trace stat "$TRACES/blkparse.txt"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "trace $TRACES/blkparse.txt: format blkparse, action Q, 2 devices" ]]
	[ "${lines[1]}" = "device 8,16" ]
	[[ "$output" == *$'\ntotal\n  records         240 (reads 180, writes 60); flushes 3, discards 2\n'* ]]
	[[ "$output" == *"  read            75.00 % of I/Os,"* ]]
	[[ "$output" == *"  top sizes       4K 33.3 %, 8K 33.3 %, 16K 33.3 %"* ]]
}

@test "stat --device keeps one device; --action C reads completions" {
	run "$IORAMP" trace stat --device 8,32 --action C "$TRACES/blkparse.txt.gz"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"format blkparse, action C, 1 device" ]]
	# the flushes follow odd I/Os (8,32), the discards even ones (8,16)
	[[ "$output" == *"  records         120 (reads 120, writes 0); flushes 3, discards 0"* ]]
}

@test "stat --json parses and holds the figures" {
	run "$IORAMP" trace stat --json "$TRACES/msr.csv.gz" "$TRACES/percpu.blktrace.0"
	[ "$status" -eq 0 ]
	echo "$output" | json_check
	if command -v jq >/dev/null; then
		[ "$(echo "$output" | jq -r .schema)" = "ioramp-trace-stat/1" ]
		[ "$(echo "$output" | jq '.files | length')" = 2 ]
		[ "$(echo "$output" | jq .files[0].total.records)" = 240 ]
		[ "$(echo "$output" | jq -r .files[1].format)" = blktrace ]
		[ "$(echo "$output" | jq -r '.files[1].devices[0].device')" = "8,16" ]
	fi
}

@test "a missing file fails with exit 2 and names it" {
	run "$IORAMP" trace stat no-such.csv
	[ "$status" -eq 2 ]
	[ "$output" = "no-such.csv: error: cannot open: No such file or directory" ]
}

@test "a malformed line fails with file:line; --skip-bad counts and goes on" {
	printf '1,0,8,0,5\n1,0,8,2,5\n2,8,8,1,5\n' >bad.csv
	run "$IORAMP" trace stat bad.csv
	[ "$status" -eq 2 ] # an input error, as a bad parameter file is
	[ "$output" = "bad.csv:2: error: bad IOType '2'; expected 0 (read) or 1 (write)" ]
	run "$IORAMP" trace stat --skip-bad bad.csv
	[ "$status" -eq 0 ]
	[[ "$output" == *"bad.csv: warning: 1 malformed lines skipped"* ]]
	[[ "$output" == *"  records         2 (reads 1, writes 1)"* ]]
	for cmd in profile "convert -o x.iolog" "compare bad.csv"; do
		run "$IORAMP" trace $cmd bad.csv
		[ "$status" -eq 2 ] || { echo "$cmd: $status $output"; return 1; }
	done
}

@test "a truncated blktrace keeps the records before the cut, with a warning at its offset" {
	head -c 500 "$TRACES/blktrace.bin" >cut.bin
	run "$IORAMP" trace stat cut.bin
	[ "$status" -eq 0 ]
	[[ "$output" =~ cut\.bin\+[0-9]+:\ warning:\ (truncated\ record|record\ with\ a\ truncated\ payload).*the\ records\ before\ it\ are\ kept ]]
	[[ "$output" == *"  records         "* ]]
}

@test "a gzip file cut inside its stream is an error; --skip-bad keeps the lines before" {
	head -c 2000 "$TRACES/msr.csv.gz" >cut.csv.gz
	run "$IORAMP" trace stat cut.csv.gz
	[ "$status" -eq 2 ]
	[[ "$output" == *"ends inside its gzip data (truncated)"* ]]
	run "$IORAMP" trace stat --skip-bad cut.csv.gz
	[ "$status" -eq 0 ]
	[[ "$output" == *"cut.csv.gz:"*": warning: the file ends inside its gzip data (truncated)"* ]]
	# cut before its first byte of data: not an "empty trace"
	head -c 40 "$TRACES/msr.csv.gz" >head.csv.gz
	run "$IORAMP" trace stat head.csv.gz
	[ "$status" -eq 2 ]
	[ "$output" = "head.csv.gz: error: the file ends inside its gzip data (truncated) before any data; expected a whole gzip file" ]
}

@test "reads and writes of 0 bytes are passed over with a warning at the first, in every command" {
	# MSR Size 0, a blkparse "W 1008 + 0", an Alibaba length 0: they became 512-byte I/Os
	printf '128166372003061629,hm,0,Write,7014912,0,26\n128166372016382155,hm,0,Read,1074696192,4096,113\n128166372026382155,hm,0,Write,8192,8192,113\n' >zero.csv
	run "$IORAMP" trace stat zero.csv
	[ "$status" -eq 0 ]
	[[ "$output" == *"zero.csv:1: warning: 1 reads or writes of 0 bytes passed over"* ]]
	[[ "$output" == *"  records         2 (reads 1, writes 1)"* ]]
	[[ "$output" == *"  top sizes       4K 50.0 %, 8K 50.0 %"* ]]
	[ "$("$IORAMP" trace stat --json zero.csv 2>/dev/null | jq .files[0].zero_size)" = 1 ]
	run "$IORAMP" trace profile -o z.vdb zero.csv
	[ "$status" -eq 0 ]
	[[ "$output" == *"zero.csv:1: warning: 1 reads or writes of 0 bytes passed over"* ]]
	! grep -q 'xfersize=512' z.vdb
	printf '  8,0    1        1     0.000000000  100  Q   W 1000 + 8 [x]\n  8,0    1        2     0.000010000  100  Q   W 1008 + 0 [x]\n' >zero.txt
	run "$IORAMP" trace stat zero.txt
	[[ "$output" == *"zero.txt:2: warning: 1 reads or writes of 0 bytes passed over"* ]]
	[[ "$output" == *"  records         1 (reads 0, writes 1)"* ]]
	run "$IORAMP" trace convert -o z.iolog zero.txt
	[ "$status" -eq 0 ]
	[ "$(grep -c ' write ' z.iolog)" -eq 1 ]
}

@test "an I/O past 2^64 bytes is an error at its line or record, not a wrapped extent" {
	printf '128166372003061629,hm,0,Write,18446744073709551000,4096,26\n' >huge.csv
	run "$IORAMP" trace stat huge.csv
	[ "$status" -eq 2 ]
	[ "$output" = "huge.csv:1: error: offset 18446744073709551000 + size 4096 runs past 2^64 bytes; expected an I/O inside a device" ]
	run "$IORAMP" trace profile -o h.vdb huge.csv
	[ "$status" -eq 2 ]
	[ ! -e h.vdb ] # no empty file left that looks like a profile
	# vscsi v1: len 4096, READ(10), version 1, lbn 2^64-1 (times 512 wrapped)
	printf '\1\0\0\0\0\20\0\0\1\0\0\0\50\0\0\1\377\377\377\377\377\377\377\377\1\0\0\0\0\0\0\0' >huge.vscsi
	run "$IORAMP" trace stat --format vscsi huge.vscsi
	[ "$status" -eq 2 ]
	[[ "$output" == "huge.vscsi+0: error: lbn 18446744073709551615 too large"* ]]
}

@test "a clock that jumps back a second or more is named at its line" {
	# a real blkparse file whose CPU 13 printed 1266874889 s: the step back showed only as a count
	printf '  1,0   15        1     0.000000000 19146  C  WS 299456 + 1 [0]\n  1,0   13        1 1266874889.670077392 19144  C  WS 284144 + 1 [0]\n  1,0   15        2     0.030248945 19146  C  WS 313472 + 1 [0]\n  1,0   15        3     0.030250000 19146  C  WS 313473 + 1 [0]\n' >jump.txt
	run "$IORAMP" trace stat jump.txt
	[ "$status" -eq 0 ]
	[[ "$output" == *"jump.txt:3: warning: the clock goes back 1266874889.640 s here (1 steps back of 1 s or more)"* ]]
	run "$IORAMP" trace profile -o j.vdb jump.txt
	[[ "$output" == *"jump.txt:3: warning: the clock goes back"* ]]
	# steps back under a second (I/Os logged out of order) stay a count in the figures
	printf '  8,0    1        1     0.100000000  100  Q   W 1000 + 8 [x]\n  8,0    1        2     0.000010000  100  Q   W 2000 + 8 [x]\n' >order.txt
	run "$IORAMP" trace stat order.txt
	[[ "$output" != *"warning"* ]]
	[[ "$output" == *"time order      1 I/Os earlier than the one before"* ]]
}

@test "a clock that jumps by years is not years of per-second counts in a profile" {
	# found by fuzz_profile: 240 records whose clock jumped 185,220,000 s took 4.5 GB
	printf 'fio version 3 iolog\n0 /dev/x add\n0 /dev/x read 0 4096\n1000 /dev/x read 4096 4096\n315360000000000 /dev/x read 8192 4096\n' >years.iolog
	run "$IORAMP" trace profile -o y.vdb years.iolog
	[ "$status" -eq 0 ]
	[[ "$output" == *"years.iolog: warning: the trace spans more than 97 days; its records after that count in its last second (a clock that jumped?)"* ]]
	grep -q '^rd=rd1,' y.vdb
}

@test "a profile's notes print as they read: one %, lun=/dev/nvme%dn1" {
	run "$IORAMP" trace profile "$TRACES/msr.csv"
	[ "$status" -eq 0 ]
	[[ "$output" != *"%%"* ]]
	[[ "$output" == *"* Run:   vdbench -f THIS_FILE lun=/dev/nvme%dn1 "* ]]
}

@test "an hour of a profile with no I/O idles but for a last second at the least rate, not at none (max in ioramp)" {
	# two I/Os 83 hours apart: every RD but the ends had iorate=(0,3600), and --check failed
	printf '128166372003061629,hm,0,Write,7014912,4096,26\n128169372003061629,hm,0,Read,1074696192,4096,113\n' >idle.csv
	run "$IORAMP" trace profile -o idle.vdb idle.csv
	[ "$status" -eq 0 ]
	! grep -q 'iorate=(0,[0-9]*)$' idle.vdb
	grep -q '^rd=rd2,.*,iorate=(0,3599,0.001,1)$' idle.vdb
	run "$IORAMP" -f idle.vdb lun=x%d -s
	[ "$status" -eq 0 ]
}

@test "MSR volumes of several hosts in one file stay apart: the next host's disks from 65536" {
	# hm_0 and prn_0 concatenated: both were device 0, one volume of merged extents
	printf '128166372003061629,hm,0,Write,7014912,4096,26\n128166372016382155,hm,1,Read,1074696192,4096,113\n128166372026382155,prn,0,Read,1074696192,4096,113\n128166372036382155,prn,0,Read,1074700288,4096,113\n' >mixed.csv
	run "$IORAMP" trace stat mixed.csv
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "trace mixed.csv: format msr, 3 devices" ]]
	[[ "$output" == *$'device 65536\n  records         2 (reads 2, writes 0)'* ]]
	[[ "$output" == *"sequential      50.00 % start where"* ]] # prn's second read follows its first
	run "$IORAMP" trace stat --device 65536 mixed.csv
	[[ "$output" == *"  records         2 (reads 2, writes 0)"* ]]
	printf '128166372003061629,hm,70000,Write,7014912,4096,26\n' >disk.csv
	run "$IORAMP" trace stat disk.csv
	[ "$status" -eq 2 ]
	[ "$output" = "disk.csv:1: error: bad DiskNumber '70000'; expected a disk number up to 65535" ]
}

@test "compare shows the fidelity figures of B against A" {
	run "$IORAMP" trace compare "$TRACES/msr.csv" "$TRACES/blkreplay.load"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "A: $TRACES/msr.csv" ]
	[[ "${lines[2]}" == "figure           A "*" B "*" difference tolerance ok" ]]
	# 240 I/Os: a count's tolerance is three times its sampling error, 3 / sqrt(240)
	grep -q '^records  *240  *240  *+0.0 %  *19.4 %  *ok$' <<<"$output"
	for f in rate "read %" "mean read size" "mean write size" "size mix" "sequential %" \
		footprint "hot 10% share" "per-second CV"; do
		grep -q "^$f " <<<"$output" || { echo "no row $f"; return 1; }
	done
	run "$IORAMP" trace compare --json "$TRACES/msr.csv" "$TRACES/msr.csv.gz"
	[ "$status" -eq 0 ]
	echo "$output" | json_check
	[ "$(jq -r .schema <<<"$output")" = "ioramp-trace-compare/2" ]
	[ "$(jq '[.figures[] | select(.ok)] | length' <<<"$output")" -eq 10 ]
	jq -e '.figures[] | select(.figure == "seq_pct") | .difference == 0' <<<"$output"
}

@test "profile writes plain VDbench parameters: one SD per traced device" {
	run "$IORAMP" trace profile -o p.vdb "$TRACES/msr.csv"
	[ "$status" -eq 0 ]
	grep -q '^sd=sd,count=(0,1),lun=\$lun,size=[0-9]*m,threads=[0-9]*$' p.vdb
	grep -q '^sd=sd,count=(1,1),lun=\$lun,size=[0-9]*m,threads=[0-9]*$' p.vdb
	grep -q '^wd=w0c[0-9]*r,sd=sd0,xfersize=' p.vdb
	grep -q '^wd=w0c[0-9]*w,sd=sd0,xfersize=' p.vdb
	grep -q '^wd=w1c[0-9]*r,sd=sd1,xfersize=' p.vdb # the rule writes on device 0 only
	grep -q '^rd=rd1,wd=w\*,iorate=[0-9.]*,elapsed=2,interval=1$' p.vdb # under two seconds
	# every SD and WD says which trace figures it stands for
	[ "$(grep -c '^\* sd[01]: device ' p.vdb)" -eq 2 ]
	[ "$(grep -c '^\* w[01]c' p.vdb)" -eq "$(grep -c '^wd=' p.vdb)" ]
	# parameter lines hold no blank: VDbench ignores everything after one
	! grep -v '^\*' p.vdb | grep -q ' ' || false
	# --device keeps one
	"$IORAMP" trace profile --device 1 -o p1.vdb "$TRACES/msr.csv"
	[ "$(grep -c '^sd=' p1.vdb)" -eq 1 ]
}

# 60 s of a made-up workload, about 56,000 I/Os: a hot table (reads and writes of 8 KiB over
# 64 MiB, a tenth of them in its first MiB), a log written in 64 KiB pieces, a scan reading
# 128 KiB at a time, five times the load every tenth second.
make_workload() {
	awk 'BEGIN { srand(7); print "fio version 3 iolog"; print "0 /dev/d add"
		lw = 8 * 1048576 * 1024; sc = 20 * 1048576 * 1024
		for (s = 0; s < 60; s++) {
			n = s % 10 ? 600 + (s * 37) % 200 : 3000
			for (j = 0; j < n; j++) {
				t = s * 1000000 + int(j * 1000000 / n); x = rand()
				if (x < 0.6) { op = rand() < 0.7 ? "read" : "write"; size = 8192
					off = (rand() < 0.1 ? int(rand() * 128) : int(rand() * 8192)) * 8192 }
				else if (x < 0.8) { op = "write"; size = 65536; off = lw; lw += size }
				else { op = "read"; size = 131072; off = sc; sc += size }
				printf "%.0f /dev/d %s %.0f %d\n", t, op, off, size
			}
		}
	}' >work.iolog
}

@test "profile --check synthesizes the profile and prints every figure" {
	make_workload
	run "$IORAMP" trace profile --check -o p.vdb work.iolog
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "figure           trace "*" synthesized "*" difference tolerance ok" ]]
	[ "${lines[-1]}" = "every figure within its tolerance" ]
	[ -s p.vdb ]
	run "$IORAMP" trace profile --check --json work.iolog
	[ "$status" -eq 0 ]
	echo "$output" | json_check
	[ "$(jq -r .schema <<<"$output")" = "ioramp-trace-fidelity/1" ]
	[ "$(jq -r .ok <<<"$output")" = true ]
	[ "$(jq '[.figures[] | select(.trace != null and .synthesized != null)] | length' \
		<<<"$output")" -eq 10 ]
	# what it checks is what synth writes (another seed: within the tolerances too)
	"$IORAMP" trace synth p.vdb lun=/x/l%d --all --seed 9 --duration 59.9 -o s.iolog
	run "$IORAMP" trace compare work.iolog s.iolog
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *" NO"* ]]
}

@test "a log writer and a scan among random I/O keep their footprint: a WD of their own each" {
	# every 32nd I/O a 256K log write, every 53rd a 1M scan read, 8K random in between: the
	# sequential window of 16 never sees them continue, yet each sweeps its bytes once
	awk 'BEGIN { srand(7); lg = 4194304; sc = 1048576
		for (i = 0; i < 45000; i++) {
			t = int(i * 1e9 / 3000)
			if (i % 32 == 5) { print t, 0, lg, 512, 0; lg += 512 }
			else if (i % 53 == 7) { print t, 0, sc, 2048, 1; sc += 2048 }
			else print t, 0, int(rand() * 196608) * 16, 16, rand() < 0.7 ? 1 : 0
		} }' >streams.trace
	run "$IORAMP" trace profile --check -o p.vdb streams.trace
	echo "$output"
	[ "$status" -eq 0 ]
	grep '^footprint ' <<<"$output" | grep -q ' ok$'
	# (the scan's may hold a few random reads that happened to start where it had ended)
	grep -q '^wd=w0s[0-9]r,sd=sd0,xfersize=.*1024k.*,rdpct=100,seekpct=0.00,range=(536870912,' p.vdb
	grep -q '^wd=w0s[0-9]w,sd=sd0,xfersize=256k,rdpct=0,seekpct=0.00,range=(2147483648,' p.vdb
	[ "$(grep -c 'interleaved sequential stream' p.vdb)" -eq 2 ]
}

@test "forty images read at once keep footprint and hot share: a WD each, continued as traced" {
	# a boot storm: 70 % of the I/O are 32K reads of 40 images 64 MiB apart, the next read
	# from any of them (the window sees each continue about a time in three), among 4K
	# random writes over 8 GiB
	awk 'BEGIN { srand(11); for (s = 0; s < 40; s++) at[s] = s * 131072
		for (i = 0; i < 60000; i++) {
			t = int(i * 1e9 / 3000)
			if (rand() < 0.7) { s = int(rand() * 40); printf "%.0f 0 %.0f 64 1\n", t, at[s]; at[s] += 64 }
			else printf "%.0f 0 %.0f 8 0\n", t, int(rand() * 2000000) * 8
		} }' >boot.trace
	run "$IORAMP" trace profile --check -o p.vdb boot.trace
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^wd=w0s[0-9]*r,.*seekpct=0.00,' p.vdb)" -eq 40 ]
}

@test "consumers that read a log as it is written: each stream keeps its op and its bytes" {
	# eight partitions 50 GiB apart, each appended with 128K writes and read back by a consumer
	# that often catches up with it (its read ends where the last write ended)
	awk 'BEGIN { srand(5); for (p = 0; p < 8; p++) { h[p] = p * 104857600; r[p] = h[p] }
		for (i = 0; i < 40000; i++) {
			t = i * 1e9 / 1500; p = int(rand() * 8)
			if (rand() < 0.5) { printf "%.0f 0 %.0f 256 0\n", t, h[p]; h[p] += 256 }
			else if (r[p] < h[p]) { printf "%.0f 0 %.0f 256 1\n", t, r[p]; r[p] += 256 }
		} }' >kafka.trace
	run "$IORAMP" trace profile --check -o p.vdb kafka.trace
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^wd=w0s[0-9]*r,.*seekpct=0.00,' p.vdb)" -eq 8 ]
	[ "$(grep -c '^wd=w0s[0-9]*w,.*seekpct=0.00,' p.vdb)" -eq 8 ]
}

@test "a file server reading and writing five files at once: swept whole, in five sweeps" {
	# files of 1 to 64 MiB, each read or written whole in 64K transfers, five at a time, the
	# next I/O from any of them: every 1 MiB region is moved once (16 I/Os), 97 % sequential
	cat >files.awk <<'EOF'
function open_file(a) { cur[a] = pos; end[a] = pos + 2048 * 2 ^ int(rand() * 7); op[a] = rand() < 0.6
	pos = end[a] + int(rand() * 64) * 2048 }
BEGIN { srand(13); pos = 0
	for (a = 0; a < 5; a++) open_file(a)
	for (i = 0; i < 60000; i++) {
		t = i * 1e9 / 4000; a = int(rand() * 5)
		printf "%.0f 0 %.0f 128 %d\n", t, cur[a], op[a]; cur[a] += 128
		if (cur[a] >= end[a]) open_file(a)
	} }
EOF
	profile_checks_ok files
	grep -q '^\* w0c[0-9]*r1: .*, its part 1 of [3-8] sweeps at once$' p.vdb
	grep -q '^wd=w0c[0-9]*w2,.*seekpct=0.00,' p.vdb
}

@test "spills written whole and read back whole share their range: both ops sweep the same bytes" {
	# a sort's spill files of 1 to 16 MiB, 64K at a time, three at once: each written, then
	# read back; 30 % of the I/O 8K random elsewhere
	cat >spill.awk <<'EOF'
function next_file(a) {
	if (op[a] == 0 && st[a] != "") { cur[a] = st[a]; op[a] = 1; return }
	st[a] = pos; cur[a] = pos; end[a] = pos + 2048 * 2 ^ int(rand() * 5); op[a] = 0
	pos = end[a] + 2048 * int(rand() * 8) }
BEGIN { srand(3); pos = 0
	for (a = 0; a < 3; a++) { st[a] = ""; op[a] = 1; next_file(a) }
	for (i = 0; i < 60000; i++) {
		t = i * 1e9 / 3000
		if (rand() < 0.3) {
			printf "%.0f 0 %.0f 16 %d\n", t, 40000000 + int(rand() * 262144) * 16, rand() < 0.7
			continue
		}
		a = int(rand() * 3)
		printf "%.0f 0 %.0f 128 %d\n", t, cur[a], op[a]; cur[a] += 128
		if (cur[a] >= end[a]) { if (op[a] == 1) st[a] = ""; next_file(a) }
	} }
EOF
	profile_checks_ok spill
}

@test "LSM compactions: the sweeps that streams in bursts cannot make up for are merged back" {
	# a compaction's streams live a few seconds: as WDs of a constant mix they are seen
	# continuing less often than traced (sequential -7 pt), and swept classes split into
	# sweeps to match their own share only made it worse
	cat >lsm.awk <<'EOF'
# compactions: four of the tables read at once, 256K at a time, merged into one written
# sequentially; three memtables flushed (128K); a WAL (4K); 4K point reads: in sectors
function emit(op, off, n) { t += -log(1 - rand()) / 3000; printf "%.0f 0 %.0f %d %d\n", t * 1e9, off, n, op; nr++ }
BEGIN { srand(31); M = 2048; pos = 0; wal = 900 * 1024 * M; nf = 0
	for (i = 0; i < 40; i++) { fs[nf] = pos; fl[nf++] = 64 * M; pos += 64 * M }
	while (nr < 200000) {
		tot = 0
		for (k = 0; k < 4; k++) {   # four tables at random, taken out of the list
			j = int(rand() * nf); cur[k] = fs[j]; end[k] = fs[j] + fl[j]; tot += fl[j]
			fs[j] = fs[nf - 1]; fl[j] = fl[nf - 1]; nf--
		}
		out = pos; pos += tot; o = out; fls = pos; pos += 3 * 64 * M; fo = fls
		for (left = 4; left > 0; ) {
			r = rand()
			if (r < 0.15) emit(1, int(rand() * pos / 8) * 8, 8)
			else if (r < 0.25) { emit(0, wal, 8); wal += 8 }
			else if (r < 0.3) { if (fo < fls + 3 * 64 * M) { emit(0, fo, 256); fo += 256 } }
			else if (r < 0.7) { k = int(rand() * 4)
				if (cur[k] < end[k]) { emit(1, cur[k], 512); cur[k] += 512; if (cur[k] >= end[k]) left-- } }
			else if (o < out + tot) { emit(0, o, 512); o += 512 }
		}
		fs[nf] = out; fl[nf++] = tot
		for (k = 0; k < 3; k++) { fs[nf] = fls + k * 64 * M; fl[nf++] = 64 * M }
	} }
EOF
	profile_checks_ok lsm
}

@test "a block rewritten over and over beside a sweep is not packed where it continues itself" {
	# half the I/O one sequential reader, half 64K writes to one block: packed into a range of
	# a few transfers, the writes would start where another ended nearly every time
	awk 'BEGIN { srand(3); a = 0
		for (i = 0; i < 30000; i++) {
			t = int(i * 1e9 / 3333)
			if (rand() < 0.5) { printf "%.0f 0 %.0f 256 1\n", t, a; a += 256 }
			else printf "%.0f 0 4194304 128 0\n", t
		} }' >hotblock.trace
	run "$IORAMP" trace profile --check hotblock.trace
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^sequential % .* ok$' <<<"$output"
}

@test "blocks rewritten in regions of their own keep a region each: the hottest is not split" {
	# a file server's metadata (blkreplay's windows-shared-server): a few 4K blocks rewritten
	# over and over, each spot in a 1 MiB region far from the others, beside a 1 MiB journal.
	# Packed into 128K ranges placed across region ends, the hottest spot's I/Os fell in two
	# regions: hot 10 % 31 % for 56 % traced, footprint -13 %
	cat >spots.awk <<'EOF'
function emit(off, n) { t += -log(1 - rand()) / 20; printf "%.0f 0 %.0f %d 0\n", t * 1e9, off, n }
BEGIN { srand(5); M = 2048; j = 2960 * M
	for (i = 0; i < 6000; i++) {
		r = rand()
		if (r < 0.55) emit(2912 * M + 8 * int(rand() * 4), 8)
		else if (r < 0.75) emit(3072 * M + 8 * int(rand() * 2), 8)
		else if (r < 0.87) emit(2998 * M + 8 * int(rand() * 4), 8)
		else if (r < 0.96) emit(3040 * M + 8 * int(rand() * 64), 8)
		else { emit(j, 8); j += 8 }
	} }
EOF
	profile_checks_ok spots
	grep -q '^hot 10% share .* ok$' <<<"$output"
	# a range of six blocks continues 5/6 as often as 1 - (5/6)^n says: the first block
	# follows none (-2.3 pt when the model forgot it)
	grep -q '^sequential % .* [-+][01]\.[0-9]* pt .* ok$' <<<"$output"
}

@test "a web proxy's hottest block, rewritten at one offset in every size, is not packed where it continues itself" {
	# MSR prxy's shape: packed into a range of a few transfers, the random writes of sizes
	# 512 to 4608 start where another ended: sequential +10.4 pt where none was traced
	cat >proxy.awk <<'EOF'
BEGIN { srand(11); G = 1073741824; split("512 1024 4096 4096 4096 4608", sz, " ")
	for (i = 0; i < 300; i++) hot[i] = int(rand() * 20 * G / 4096) * 4096
	for (i = 0; i < 40000; i++) {
		t += -log(1 - rand()) / 200
		if (rand() < 0.9) {
			off = rand() < 0.6 ? hot[int(1 / rand() ^ (1 / 1.2)) % 300] : int(rand() * 20 * G / 4096) * 4096
			printf "%.0f,proxy,0,Write,%.0f,%d,500\n", 128166372000000000 + t * 1e7, off, sz[1 + int(rand() * 6)]
			recent[n++ % 1000] = off
		} else
			printf "%.0f,proxy,0,Read,%.0f,4096,500\n", 128166372000000000 + t * 1e7, recent[int(rand() * (n < 1000 ? n : 1000))]
	} }
EOF
	profile_checks_ok proxy
	grep -q '^sequential % .* ok$' <<<"$output"
}

@test "Hadoop map tasks reading blocks 1 MiB at a time continue as traced, not as sparse regions" {
	# eight tasks at once, each reading a 128 MiB block of NB 1 MiB at a time, so a region
	# holds an I/O per read of its block; 4 MiB spills, 64K shuffle reads of them. As WDs of
	# 2-5 % of the I/Os such classes were seen continuing a third as often as traced (device
	# -4.1 pt); let continue more, the sweeps' excess then had to be taken back (+2.2 pt)
	cat >hadoop.awk <<'EOF'
function emit(op, off, n) { t += -log(1 - rand()) / 400; printf "%.0f 0 %.0f %d %d\n", t * 1e9, off, n, op }
BEGIN { srand(17); M = 2048
	for (i = 0; i < NB; i++) blk[i] = int(rand() * 2000) * 128 * M
	for (k = 0; k < 8; k++) { b = blk[int(rand() * NB)]; cur[k] = b; end[k] = b + 128 * M }
	sp = 300 * 1024 * M
	for (i = 0; i < 60000; i++) {
		r = rand()
		if (r < 0.75) { k = int(rand() * 8); emit(1, cur[k], M); cur[k] += M
			if (cur[k] >= end[k]) { b = blk[int(rand() * NB)]; cur[k] = b; end[k] = b + 128 * M } }
		else if (r < 0.85) { emit(0, sp, 4 * M); spl[ns++] = sp; sp += 4 * M }
		else if (ns) emit(1, spl[int(rand() * ns)] + int(rand() * 64) * 128, 128)
	} }
EOF
	awk -v NB=150 -f hadoop.awk >hadoop.trace
	run "$IORAMP" trace profile --check hadoop.trace
	echo "$output"
	[ "$status" -eq 0 ]
	awk -v NB=400 -f hadoop.awk >hadoop.trace
	run "$IORAMP" trace profile --check hadoop.trace
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^sequential % .* [-+]0\.[0-9]* pt .* ok$' <<<"$output" # within a point
}

@test "Elasticsearch merges: classes are laid beside the streams' ranges, not over them" {
	# merges read 3 to 10 segments at once (128K) and write one; searches read 4K from the
	# newest segments; a translog. The largest merge's output is a stream; the classes of the
	# regions around it were laid over its range, so their bytes and its counted once:
	# footprint -11.6 %, hot -5.8 pt
	cat >es.awk <<'EOF'
function emit(op, off, n) { t += -log(1 - rand()) / 2500
	printf "%.0f,es,0,%s,%.0f,%d,500\n", 128166372000000000 + t * 1e7, op ? "Write" : "Read", off, n }
BEGIN { srand(41); K = 1024; M = 1048576; G = 1024 * M; tl = 900 * G; pos = 0; ns = 0
	for (i = 0; i < 30; i++) { so[ns] = pos; sl[ns] = 64 * M * (1 + int(rand() * 7)); pos += sl[ns++] }
	for (i = 0; i < NR_IOS; i++) {
		r = rand()
		if (r < 0.1) { n = 4 * K * (1 + int(rand() * 4)); emit(1, tl, n); tl += n; continue }
		if (r < 0.45) {
			if (!nm) {   # a merge: take 3-10 segments out of the list
				nm = 3 + int(rand() * 8); if (nm > ns) nm = ns; tot = 0
				for (k = 0; k < nm; k++) { j = int(rand() * ns); mc[k] = so[j]; me[k] = so[j] + sl[j]; tot += sl[j]
					so[j] = so[ns - 1]; sl[j] = sl[ns - 1]; ns-- }
				out = pos; oc = pos; pos += tot
			}
			live = 0; for (k = 0; k < nm; k++) if (mc[k] < me[k]) live++
			if (live && rand() < 0.5) { do k = int(rand() * nm); while (mc[k] >= me[k]); emit(0, mc[k], 128 * K); mc[k] += 128 * K }
			else if (oc < out + tot) { emit(1, oc, 128 * K); oc += 128 * K }
			if (oc >= out + tot) { live = 0; for (k = 0; k < nm; k++) if (mc[k] < me[k]) live++
				if (!live) { so[ns] = out; sl[ns++] = tot; nm = 0 } }
			continue
		}
		j = int(ns * rand() ^ 0.2); if (j >= ns) j = ns - 1
		emit(0, so[j] + int(rand() * sl[j] / (4 * K)) * 4 * K, 4 * K)
	} }
EOF
	awk -v NR_IOS=200000 -f es.awk >es.csv
	run "$IORAMP" trace profile --check es.csv
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "profile --check of a trace too small for its tolerances says so and exits 1" {
	run "$IORAMP" trace profile --check "$TRACES/blkreplay.load" # 240 I/Os
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "some figures outside their tolerance (NO)" ]
}

@test "the per-second CV is judged as far as a CV can be: against Poisson, and from 10 seconds" {
	# evenly paced (CV 0): Poisson arrivals cannot be steadier; "new ... NO" whatever the profile
	awk 'BEGIN { print "fio version 3 iolog"; print "0 /dev/x add"
		for (i = 0; i < 30000; i++) printf "%d /dev/x read %d 4096\n", i * 1000, (i * 7 % 1024) * 4096 }' >even.iolog
	run "$IORAMP" trace profile --check even.iolog
	[ "$status" -eq 0 ]
	grep -q '^per-second CV  *0\.000  *0\.0[0-9]*  *[-+][0-9.]* %  *40\.1 %  *ok$' <<<"$output"
	# 4 whole seconds: a CV from 4 counts is noise (0.003 to 0.028 for Poisson at 2000 IOPS)
	head -5003 even.iolog >short.iolog
	run "$IORAMP" trace profile --check short.iolog
	[ "$status" -eq 0 ]
	grep -q '^per-second CV  *0\.000  *0\.0[0-9]*  *-  *-  *-$' <<<"$output"
}

@test "a profile keeps a trace's idle hours idle: no I/O every 180 s in them" {
	# 500 I/Os, ten hours without one, 500 more: each idle hour's RD ran at 0.001 IOPS, and
	# exponential gaps end at 180 s (as VDbench's), so it issued 20 an hour: records +20 %
	awk 'BEGIN { print "fio version 3 iolog"; print "0 /dev/x add"
		for (i = 0; i < 1000; i++)
			printf "%.0f /dev/x write %d 4096\n", (i < 500 ? 0 : 36000e6) + i % 500 * 20000,
				(i * 37 % 4096) * 4096 }' >idle.iolog
	run "$IORAMP" trace profile --check -o idle.vdb idle.iolog
	echo "$output"
	grep -q '^records .* ok$' <<<"$output"
}

@test "a profile of a long trace gives every second its rate, in RDs of 3600 s" {
	awk 'BEGIN { print "fio version 3 iolog"; print "0 /dev/x add"
		for (s = 0; s < 4000; s++) for (k = 0; k < (s % 10 ? 1 : 20); k++)
			printf "%.0f /dev/x %s %.0f 4096\n", s * 1000000 + k * 1000 + 500000,
				k % 3 ? "read" : "write", ((s * 13 + k) % 5000) * 1048576 }' >long.iolog
	run "$IORAMP" trace profile --check -o long.vdb long.iolog
	echo "$output"
	grep -q '^rd=rd1,wd=w\*,distribution=(exponential,variable),elapsed=3600,interval=1,iorate=(' long.vdb
	grep -q '^rd=rd2,wd=w\*,distribution=(exponential,variable),elapsed=399,' long.vdb
	[[ "$output" == *$'\nper-second CV    1.965 '* ]]
	[ "$status" -eq 0 ]
}

@test "VDbench accepts the profiles (vdbench -s) and lists the same runs" {
	local vdb=${VDBENCH:-/opt/vdbench/vdbench}
	[ -x "$vdb" ] && command -v java >/dev/null || skip "VDbench not installed at $vdb"
	awk 'BEGIN { print "fio version 3 iolog"; print "0 /dev/x add"
		for (s = 0; s < 3700; s++) printf "%d /dev/x read %d 8192\n", s * 1000000 + 1000,
			(s % 977) * 1048576 }' >long.iolog
	for t in "$TRACES/msr.csv" "$TRACES/blkparse.txt" "$TRACES/fio3.iolog" \
		"$TRACES/mqsim.trace" long.iolog; do
		n=$(basename "$t")
		"$IORAMP" trace profile -o "p-$n.vdb" "$t"
		run "$vdb" -f "p-$n.vdb" -s "lun=$SCRATCH/lun%d" -o "$SCRATCH/out-$n"
		[ "$status" -eq 0 ] || { echo "$n: $output"; return 1; }
		[[ "$output" == *"Vdbench simulation completed successfully"* ]]
		diff <(grep -E '(Simulating RD=|Total amount)' <<<"$output" | cut -c14-) \
			<("$IORAMP" -f "p-$n.vdb" -s "lun=$SCRATCH/lun%d" | cut -c14-)
	done
}

@test "convert writes a fio v3 iolog that fio replays" {
	command -v fio >/dev/null || skip "fio not installed"
	truncate -s 64M data.img
	run "$IORAMP" trace convert --target "$SCRATCH/data.img" -o rec.iolog "$TRACES/blkreplay.load"
	[ "$status" -eq 0 ]
	[ "$(head -1 rec.iolog)" = "fio version 3 iolog" ]
	run "$IORAMP" trace stat rec.iolog
	[[ "$output" == *"  records         240 (reads 180, writes 60)"* ]]
	run fio --name=replay --read_iolog=rec.iolog --ioengine=psync --output-format=terse
	[ "$status" -eq 0 ]
	IFS=';' read -r -a f <<<"${lines[-1]}"
	[ "${f[4]}" = 0 ] # error
	[ "$((f[5] + f[46]))" -gt 0 ] # KiB read + written
}

@test "ftrace's blk tracer and block tracepoints read as the same trace as blkparse's text" {
	# the same events in three layouts: every figure alike but the first line (the format)
	for a in Q C; do
		"$IORAMP" trace stat --action $a "$TRACES/blkparse.txt" | tail -n +2 >blkparse.out
		for f in ftrace-blk.txt ftrace-events.txt; do
			run "$IORAMP" trace stat --action $a "$TRACES/$f"
			[ "$status" -eq 0 ]
			[ "${lines[0]}" = "trace $TRACES/$f: format ftrace, action $a, 2 devices" ]
			diff blkparse.out <(printf '%s\n' "${lines[@]:1}")
		done
	done
	run "$IORAMP" trace stat --device 8,32 "$TRACES/ftrace-events.txt"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "trace $TRACES/ftrace-events.txt: format ftrace, action Q, 1 device" ]
	[[ "${lines[2]}" == *"records         120 (reads 120, writes 0); flushes 3"* ]]
}

@test "Systor '17, FIU, Microsoft ETW and biosnoop traces: devices, records, latency, a profile" {
	for f in systor.csv:systor:"device 0" fiu.trace:fiu:"device 8,16" etw.csv:etw:"device 0" \
		biosnoop.txt:biosnoop:"device 0"; do
		IFS=: read -r file fmt dev <<<"$f"
		run "$IORAMP" trace stat "$TRACES/$file"
		[ "$status" -eq 0 ]
		[ "${lines[0]}" = "trace $TRACES/$file: format $fmt, 2 devices" ]
		[ "${lines[1]}" = "$dev" ]
		[[ "$output" == *$'\ntotal\n  records         240 (reads 180, writes 60); flushes 0, discards 0\n'* ]]
		run "$IORAMP" trace profile -o "$fmt.vdb" "$TRACES/$file"
		[ "$status" -eq 0 ]
		run "$IORAMP" -f "$fmt.vdb" 'lun=/tmp/x%d' -s
		[ "$status" -eq 0 ]
	done
	# the traces that carry a latency give it back
	run "$IORAMP" trace stat "$TRACES/systor.csv"
	[[ "$output" == *"  latency         mean 54.96 us"* ]]
	run "$IORAMP" trace stat "$TRACES/etw.csv"
	[[ "$output" == *"  latency         mean 54.96 us"* ]]
	run "$IORAMP" trace stat "$TRACES/biosnoop.txt"
	[[ "$output" == *"  latency         mean 54.96 us"* ]]
}

@test "libCacheSim's CSV of a vSCSI trace reads as the binary trace does, less its sub-second times" {
	local dir=${IORAMP_TRACE_SAMPLES:-$BATS_TEST_DIRNAME/../../../shared/trace-samples}/cloudphysics-vscsi
	[ -f "$dir/cloudPhysicsIO.csv" ] || skip "no trace sample at $dir/cloudPhysicsIO.csv"
	run "$IORAMP" trace stat "$dir/cloudPhysicsIO.csv"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *": format vscsicsv, 1 device" ]]
	[[ "$output" == *"inter-arrival   mean 63.23 ms; median, CV and burstiness unknown (the times are whole seconds)"* ]]
	# every figure but the times: the same as the binary's
	diff <(grep -Ev '^ *(duration|rate|inter-arrival) ' <<<"$output" | tail -n +2) \
		<("$IORAMP" trace stat "$dir/cloudPhysicsIO.vscsi" |
			grep -Ev '^ *(duration|rate|inter-arrival) ' | tail -n +2)
}

@test "a vSCSI CSV line with a bad opcode names the line and the field" {
	printf 'version,time,op,size,lbn\n1,5,2a,512,8\n1,6,zz,512,9\n' >bad.csv
	run "$IORAMP" trace stat --format vscsicsv bad.csv
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad.csv:3:"*"bad op 'zz'; expected a SCSI opcode in hexadecimal (28, 2a)"* ]]
	run "$IORAMP" trace stat bad.csv # detected from the good line
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad.csv:3: error: bad op 'zz'"* ]]
}
