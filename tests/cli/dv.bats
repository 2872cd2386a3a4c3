#!/usr/bin/env bats
# Data validation and journals (reference 12.1-12.2): clean runs, runs killed with SIGKILL and
# recovered, blocks corrupted behind ioramp's back and found, data_errors=, exit codes. Files in
# a scratch directory (journals land in the current directory, the scratch one); no time is
# asserted.

load helpers

# Byte surgery behind ioramp's back: flip the bits of mask in one byte; copy a 4 KiB block.
flip() {
	local b
	b=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059
	printf "$(printf '\\%03o' $((b ^ $3)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

copy_block() {
	dd if="$1" of="$3" bs=4096 skip="$2" seek="$4" count=1 conv=notrunc status=none
}

# The "key blocks marked in error" count of a console.
errors_of() {
	sed -n 's/.*key blocks marked in error: *\([0-9,]*\).*/\1/p' "$1" | tail -1
}

@test "validating runs of several workloads find no error" {
	cat >mix.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=4m,threads=8
sd=sd2,lun=$SCRATCH/f2,size=4m,threads=4
wd=wd1,sd=sd*,xfersize=(4k,40,8k,30,64k,30),rdpct=50
wd=wd2,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof
rd=rd1,wd=wd*,iorate=max,elapsed=2,interval=1
rd=rd2,wd=wd1,iorate=2000,elapsed=2,interval=1,forrdpct=(0)
PARM
	run "$IORAMP" -f mix.vdb -o out -v
	[ "$status" -eq 0 ]
	[[ "$output" == *"Allocating Data Validation map for sd=sd1: 1,024 one-byte entries for each 4,096-byte block."* ]]
	[[ "$output" == *"key blocks marked in error:    0"* ]]
	jq -e '.data_validation | .key_blocks_validated > 1000 and .key_blocks_in_error == 0 and
		(.errors | length) == 0 and .is_journal == false' out/results.json
	grep -q 'no error messages beyond this line' out/errorlog.html
	! grep -q 'Data Validation error' out/errorlog.html || false

	cat >w.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=4m,threads=8
wd=wd1,sd=sd1,xfersize=(8k,16k,8k),rdpct=0
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1
PARM
	sed -i 's/threads=8$/threads=8,align=8k/' w.vdb
	# -vr: each write is read back, and those reads count (VDbench: 50% asked, 68% read)
	run "$IORAMP" -f w.vdb -o out-vr -vr --engine sync
	[ "$status" -eq 0 ]
	[[ "$output" == *"key blocks marked in error:    0"* ]]
	pct=$(grep -a 'avg_' <<<"$output" | awk '{print int($6)}')
	[ "$pct" -gt 30 ]
	sed -i 's/rdpct=0/rdpct=60/' w.vdb
	run "$IORAMP" -f w.vdb -o out-vw -vw --engine aio
	[ "$status" -eq 0 ]
	[[ "$output" == *"key blocks marked in error:    0"* ]]
}

@test "a validating run that validates nothing fails as in VDbench" {
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1,rdpct=100\nrd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1\n' \
		"$SCRATCH" >r.vdb
	run "$IORAMP" -f r.vdb -o out -v
	[ "$status" -eq 1 ]
	[[ "$output" == *"No read validations done during a Data Validation run."* ]]
	[[ "$output" == *"Total amount of key blocks read and validated:        0;"* ]]
}

@test "validation parameters are checked before any I/O, with their place" {
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1,xfersize=(4k,50,6k,50)\nrd=rd1,wd=wd1,iorate=10,elapsed=2\n' \
		"$SCRATCH" >x.vdb
	run "$IORAMP" -f x.vdb -o out -v
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "x.vdb:2:4: error: wd=wd1: xfersize 6144 is not a multiple of 4096, the key block of sd=sd1"* ]]
	[ ! -e f ]
	printf 'sd=longer_than8,lun=%s/f,size=1m\nwd=wd1,sd=*\nrd=rd1,wd=wd1,iorate=10,elapsed=2\n' \
		"$SCRATCH" >n.vdb
	run "$IORAMP" -f n.vdb -o out -j
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "n.vdb:1:4: error: sd=longer_than8: name longer than 8 characters"* ]]
	printf 'validate=tim\nsd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2\n' \
		"$SCRATCH" >t.vdb
	run "$IORAMP" -f t.vdb -o out
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "t.vdb:1:10: error: validate=tim is not a validate= word; expected yes, no, read_after_write, no_preread, time, reportdedupsets, xfersize or ignore_zero_reads" ]]
	printf 'journal=(yes,max=1.5k)\nsd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2\n' \
		"$SCRATCH" >m.vdb
	run "$IORAMP" -f m.vdb -o out
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "m.vdb:1:14: error: invalid journal=max=1.5k; expected max=N, N a whole number"* ]]
	run "$IORAMP" -f t.vdb -o out -vx
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "ioramp: error: -vx: 'x' is not supported; expected -v, -vr, -vw or -vt" ]
	sed -i 's/^validate=tim$/validate=yes/' t.vdb
	run "$IORAMP" -f t.vdb -o out --engine null
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"data validation needs an engine that reads and writes; engine=null does no I/O" ]]
	run "$IORAMP" -f t.vdb -o out -jr
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "t.vdb:2:4: error: sd=sd1: -jr: ./sd1.jnl: no journal; expected one from an earlier run with -j" ]]
}

@test "SIGKILL at random moments, then -jro: never a false error (20 times)" {
	cat >k.vdb <<PARM
sd=sd1,lun=$SCRATCH/k1,size=4m,threads=8
sd=sd2,lun=$SCRATCH/k2,size=2m,threads=4
wd=wd1,sd=sd*,xfersize=(4k,50,8k,30,16k,20),rdpct=30
rd=rd1,wd=wd1,iorate=max,elapsed=60,interval=1
PARM
	run "$IORAMP" -f k.vdb -o out -j -e 2
	[ "$status" -eq 0 ]
	[ -s sd1.jnl ] && [ -s sd1.map ] && [ -s sd2.jnl ]
	# the sanitized pass kills 5 times (the plain pass 20): the kills are real-time behaviour,
	# what ASan checks is the recovery after one
	in_run=0 times=$([ -z "${IORAMP_SANITIZED:-}" ] && echo 20 || echo 5)
	for i in $(seq "$times"); do
		"$IORAMP" -f k.vdb -o out -jr >"kill.$i.txt" 2>&1 &
		pid=$!
		ms=$((200 + RANDOM % 1600))
		sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
		kill -KILL "$pid"
		wait "$pid" || true
		grep -q 'Starting RD=rd1' "kill.$i.txt" && in_run=$((in_run + 1))
		"$IORAMP" -f k.vdb -o "check$i" -jro >"check.$i.txt" 2>&1 || {
			cat "check.$i.txt"
			false
		}
		[ "$(errors_of "check.$i.txt")" = 0 ]
		grep -q 'Journal recovery of sd=sd1' "check.$i.txt"
	done
	echo "killed while writing: $in_run of $times"
	[ "$in_run" -ge $((times / 4)) ]
}

@test "blocks corrupted behind ioramp's back are all found and classified" {
	cat >c.vdb <<PARM
sd=sd1,lun=$SCRATCH/c1,size=1m,threads=4
sd=sd2,lun=$SCRATCH/c2,size=1m,threads=4
wd=wd1,sd=sd*,xfersize=4k,rdpct=0,seekpct=eof
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1
PARM
	# every block written once (and read back, so that something is validated)
	run "$IORAMP" -f c.vdb -o out1 -j -vr
	[ "$status" -eq 0 ]
	cp c1 c1.old
	# every block written again: keys move on, c1.old is stale now
	run "$IORAMP" -f c.vdb -o out2 -jr
	[ "$status" -eq 0 ]
	[[ "$output" == *"Journal recovery of sd=sd1: 256 key blocks read and validated, 0 in error"* ]]
	cp c1 c1.good
	copy_block c1.old 5 c1 5  # an older version of block 5: a lost write
	flip c1 $((10 * 4096 + 1000)) 255  # one byte of block 10's body
	flip c1 $((20 * 4096 + 3000)) 4  # one bit of block 20
	copy_block c1 31 c1 30  # block 31's data at block 30: a misplaced write
	copy_block c2 40 c1 40  # sd2's block at sd1's: the data of another SD
	sum=$(md5sum c1 c2)
	run "$IORAMP" -f c.vdb -o out3 -jro
	[ "$status" -eq 1 ]
	[ "$(md5sum c1 c2)" = "$sum" ] # -jro writes nothing
	[[ "$output" == *"Total amount of key blocks read and validated:      512; key blocks marked in error:    5"* ]]
	[[ "$output" == *"Total Data Validation or I/O error count: 5"* ]]
	[ "$(grep -c "errno: 60003: 'A Data Validation error was discovered'" <<<"$output")" -eq 5 ]
	[[ "$output" == *"lba:        20480 0x00005000 xfer:     4096 errno: 60003"* ]]
	run jq -r '.data_validation.errors[] | "\(.sd) \(.lun | split("/") | last) \(.block_offset_bytes / 4096) \(.class)"' out3/results.json
	[ "${lines[0]}" = "sd1 c1 5 key" ]
	[ "${lines[1]}" = "sd1 c1 10 corrupt" ]
	[ "${lines[2]}" = "sd1 c1 20 bit" ]
	[ "${lines[3]}" = "sd1 c1 30 offset" ]
	[ "${lines[4]}" = "sd1 c1 40 sd" ]
	[ "${#lines[@]}" -eq 5 ]
	jq -e '.data_validation.errors | (.[0].found_key + 1 == .[0].expected_key or
		(.[0].found_key == 126 and .[0].expected_key == 1)) and
		.[1].found_key == .[1].expected_key' out3/results.json
	jq -e '.data_validation.errors[2] | .bits == 1 and .sector == 5 and .line_offset == 432 and
		.expected_line != .found_line' out3/results.json
	jq -e '.data_validation.errors[3].found_offset_bytes == 31 * 4096 and
		.data_validation.errors[4].found_sd == "sd2" and
		(.data_validation.errors[0].expected | test("^0000000000500000[.]{16}"))' out3/results.json
	for what in "bad key (lost or stale write)" "data corruption" "single bit error" "bad lba" \
		"wrong sd name"; do
		grep -q "===> $what" out3/errorlog.html
	done
	grep -q 'Data Validation error for sd=sd1,lun=.*/c1: key block lba 0x00005000 (4096 bytes): bad key' \
		out3/errorlog.html
	# the blocks in error stay marked and are reported again while they are still bad
	run "$IORAMP" -f c.vdb -o out4 -jro
	[ "$status" -eq 1 ]
	[[ "$output" == *"validated:      512; key blocks marked in error:    5"* ]]
	[ "$(jq '.data_validation.key_blocks_in_error' out4/results.json)" -eq 5 ]
	run jq -r '[.data_validation.errors[] | "\(.block_offset_bytes / 4096) \(.class)"] | join(",")' \
		out4/results.json
	[ "$output" = "5 key,10 corrupt,20 bit,30 offset,40 sd" ]
	run "$IORAMP" -f c.vdb -o out5 -jro
	[ "$status" -eq 1 ]
	[[ "$output" == *"validated:      512; key blocks marked in error:    5"* ]]
	# a block that holds its last write again is no longer in error; the others stay
	copy_block c1.good 10 c1 10
	run "$IORAMP" -f c.vdb -o out6 -jro
	[ "$status" -eq 1 ]
	[[ "$output" == *"validated:      512; key blocks marked in error:    4"* ]]
	[ "$(jq -r '[.data_validation.errors[].class] | join(",")' out6/results.json)" = \
		"key,bit,offset,sd" ]
}

@test "data_errors=N stops after N errors; any error is exit status 1" {
	cat >d.vdb <<PARM
data_errors=3
sd=sd1,lun=$SCRATCH/d1,size=1m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1
PARM
	run "$IORAMP" -f d.vdb -o out1 -j -vr
	[ "$status" -eq 0 ]
	for b in 3 9 12 40 41 42 100 200; do
		flip d1 $((b * 4096 + 700)) 255
	done
	run "$IORAMP" -f d.vdb -o out2 -jro
	[ "$status" -eq 1 ]
	[[ "$output" == *"key blocks marked in error:    3"* ]]
	[ "$(jq '.data_validation.errors | length' out2/results.json)" -eq 3 ]
	[ "$(jq '.execution.status' out2/results.json)" -eq 1 ]
	# the next check reports the three again and finds the rest
	sed -i 's/^data_errors=3$/data_errors=50/' d.vdb
	run "$IORAMP" -f d.vdb -o out3 -jro
	[ "$status" -eq 1 ]
	[[ "$output" == *"key blocks marked in error:    8"* ]]
}

@test "results.json with data validation errors validates against doc/results.schema.json" {
	if ! has_jsonschema; then
		skip "python3-jsonschema not installed (apt-get install python3-jsonschema)"
	fi
	# the file is created by a format run shorter than an interval: its average is null
	printf 'sd=sd1,lun=%s/s1,size=256k\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' \
		"$SCRATCH" >s.vdb
	run "$IORAMP" -f s.vdb -o out1 -j
	[ "$status" -eq 0 ]
	flip s1 $((7 * 4096 + 100)) 1
	run "$IORAMP" -f s.vdb -o out2 -jro
	[ "$status" -eq 1 ]
	run schema_valid out1/results.json out2/results.json
	[ "$status" -eq 0 ]
	[ "$output" = "valid" ]
	[ "$(jq -r '.data_validation.errors[0].class' out2/results.json)" = bit ]
}

@test "a format pass after -jr leaves the blocks it wrote unknown, not in error" {
	printf 'sd=sd1,lun=%s/g1,size=1m,threads=4\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' \
		"$SCRATCH" >g.vdb
	run "$IORAMP" -f g.vdb -o out1 -j
	[ "$status" -eq 0 ]
	(echo formatsds=yes; cat g.vdb) >gf.vdb
	run "$IORAMP" -f gf.vdb -o out2 -jr
	[ "$status" -eq 0 ]
	[[ "$output" == *"Starting RD=SD_format"* ]]
	[[ "$output" == *"key blocks marked in error:    0"* ]]
	run "$IORAMP" -f g.vdb -o out3 -jro
	[ "$status" -eq 0 ]
}

@test "SIGINT with a journal: exit 130, the map checkpointed, -jro clean" {
	printf 'sd=sd1,lun=%s/i1,size=2m,threads=8\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=max,elapsed=600,interval=1\n' \
		"$SCRATCH" >i.vdb
	"$IORAMP" -f i.vdb -o out -j >console.txt 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -Eq '^[0-9:.]{12} +2 ' console.txt 2>/dev/null && break
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid" || status=$?
	[ "${status:-0}" -eq 130 ]
	grep -q 'key blocks marked in error:    0' console.txt
	run "$IORAMP" -f i.vdb -o out2 -jro
	[ "$status" -eq 0 ]
	# everything was in the map: no journal record was left to apply
	[[ "$output" == *"Completed apply of journal records (before/after): 0/0"* ]]
	[[ "$output" == *"0 writes were in flight"* ]]
}

@test "-v at a fixed rate: the pre-reads are in the rate, as VDbench's, not in the verdict" {
	# all writes on 256 blocks: once a block is known each write reads it first. VDbench
	# 5.04.07 (iorate=500, rdpct=0, -v, 8 MiB) reports 793.8 IOPS at 41.29% reads; ioramp
	# 840.4 at 40.96% with 496.2 requested of 495.6 scheduled
	cat >pre.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=1m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=0
rd=rd1,wd=wd1,iorate=100,elapsed=4,interval=1
PARM
	run "$IORAMP" -f pre.vdb -o out -v --seed 1 --strict
	echo "$output" # shown when a check fails
	[ "$status" -eq 0 ]
	[[ "$output" != *": reached "* ]]
	# the pre-reads are counted, are reads, and are all the rate has over the requested I/Os
	jq -e '.runs[-1] | .is_target_met and .limited_by == null and .dv_prereads > 50 and
		.dv_rereads == 0 and .average.total.read_pct > 10 and
		(.observed_iops * .average.elapsed_s - .dv_prereads -
		 .requested_iops * .average.elapsed_s | fabs) < 0.01' out/results.json
	jq -e '.curves[0].points[0] | .is_target_met and .iops > 1.2 * .requested_iops' \
		out/results.json
}

@test "-vt: a block found bad is reported with its last good read or write" {
	printf 'sd=sd1,lun=%s/v1,size=1m,threads=4\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1\n' \
		"$SCRATCH" >v.vdb
	# the fault engine flips a byte of some reads: found as soon as a known block is read
	run "$IORAMP" -f v.vdb -o out1 -vt --engine fault:sync,corrupt=0.05,seed=3
	[ "$status" -eq 1 ]
	grep -Eq 'Last good read or write of the key block: (Mon|Tue|Wed|Thu|Fri|Sat|Sun) .* UTC$' \
		out1/errorlog.html
	jq -e '.data_validation.errors[0].last_good_time_ms > 1600000000000' out1/results.json
	if has_jsonschema; then
		run schema_valid out1/results.json
		[ "$output" = "valid" ]
	fi
	run "$IORAMP" -f v.vdb -o out2 -v --engine fault:sync,corrupt=0.05,seed=3
	[ "$status" -eq 1 ]
	grep -q 'Timestamp found in sector' out2/errorlog.html
	! grep -q 'Last good read or write' out2/errorlog.html || false
	jq -e '.data_validation.errors[0] | has("last_good_time_ms") | not' out2/results.json
	(echo validate=time; cat v.vdb) >vt.vdb
	run "$IORAMP" -f vt.vdb -o out3 --engine fault:sync,corrupt=0.05,seed=3
	[ "$status" -eq 1 ]
	grep -q 'Last good read or write of the key block: ' out3/errorlog.html
}

@test "journal=max=N clears the journal as it fills; maponly writes no records, never fills it" {
	printf 'journal=(yes,max=4k)\nsd=sd1,lun=%s/x1,size=1m,threads=4\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof\nrd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1\n' \
		"$SCRATCH" >x.vdb
	run "$IORAMP" -f x.vdb -o out1 -vr
	[ "$status" -eq 0 ]
	[[ "$output" == *"'journal_max' reached. Clearing journal file for sd=sd1: ./sd1.jnl cleared "*" (journal=max=4,096)"* ]]
	[ "$(stat -c %s sd1.jnl)" -le 4096 ]
	run "$IORAMP" -f x.vdb -o out2 -jro
	[ "$status" -eq 0 ]
	[[ "$output" == *"Journal recovery of sd=sd1: 256 key blocks read and validated, 0 in error"* ]]
	# the map only: 512 writes make no record, the journal never reaches max=
	sed -i 's/^journal=(yes,max=4k)$/journal=(maponly,max=4k)/' x.vdb
	run "$IORAMP" -f x.vdb -o out3 -vr
	[ "$status" -eq 0 ]
	[[ "$output" == *"Created journal file ./sd1.jnl"* ]]
	[[ "$output" != *"journal_max"* ]]
	run "$IORAMP" -f x.vdb -o out4 -jro
	[ "$status" -eq 0 ]
	[[ "$output" == *"Completed apply of journal records (before/after): 0/0"* ]]
	[[ "$output" == *"Journal recovery of sd=sd1: 256 key blocks read and validated, 0 in error"* ]]
	# -jm is maponly
	sed -i 's/^journal=(maponly,max=4k)$/journal=max=4k/' x.vdb
	run "$IORAMP" -f x.vdb -o out5 -jm -vr
	[ "$status" -eq 0 ]
	[[ "$output" != *"journal_max"* ]]
}

@test "journal=skip_read_all: the recovery reads no block but the pending writes" {
	printf 'sd=sd1,lun=%s/y1,size=1m,threads=4\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof\nrd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1\n' \
		"$SCRATCH" >y.vdb
	run "$IORAMP" -f y.vdb -o out1 -j -vr
	[ "$status" -eq 0 ]
	flip y1 $((9 * 4096 + 700)) 255
	(echo 'journal=(only,skip_read_all)'; cat y.vdb) >ys.vdb
	run "$IORAMP" -f ys.vdb -o out2
	[ "$status" -eq 0 ]
	[[ "$output" == *"Journal recovery of sd=sd1: 0 key blocks read and validated, 0 in error"* ]]
	# without it every block is read, and block 9 is found
	run "$IORAMP" -f y.vdb -o out3 -jro
	[ "$status" -eq 1 ]
	[[ "$output" == *"Journal recovery of sd=sd1: 256 key blocks read and validated, 1 in error"* ]]
}
