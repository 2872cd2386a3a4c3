#!/usr/bin/env bats
# The workload library (workloads/*.vdb): every file accepted by ioramp -s on file luns with
# the README's lun forms, listings equal to VDbench's where VDbench is installed, every file
# run on modelled drives (virtual time) with shortened curves, and one on real files.

load helpers

WORKLOADS=$BATS_TEST_DIRNAME/../../workloads

# The runs a file lists: a curve is its max run and 12 points; the precondition has 3 runs,
# a QD sweep one per depth, a pressure test one per write step.
nr_runs() {
	case $1 in
	precondition.vdb) echo 3 ;;
	qd-sweep-*) echo 9 ;;
	write-pressure-* | noisy-neighbor.vdb) echo 7 ;;
	*) echo 13 ;;
	esac
}

@test "every workload file passes ioramp -s with file luns" {
	local n=0
	for f in "$WORKLOADS"/*.vdb; do
		run "$IORAMP" -f "$f" -s "lun=$SCRATCH/drive%d"
		[ "$status" -eq 0 ] || { echo "$f: exit $status: $output"; return 1; }
		local want
		want=$(nr_runs "$(basename "$f")")
		[[ "$output" == *"Total amount of Run Definitions: $want;"* ]] ||
			{ echo "$f: $output"; return 1; }
		[ "$(grep -c 'Simulating RD=' <<<"$output")" -eq "$want" ]
		n=$((n + 1))
	done
	[ "$n" -eq 25 ]
}

@test "the curves ramp from 10% to 120% of the max in 10% steps" {
	run "$IORAMP" -f "$WORKLOADS/sql.vdb" -s "lun=$SCRATCH/drive%d"
	[ "$status" -eq 0 ]
	mapfile -t lines < <(grep 'Simulating RD=' <<<"$output") # after VDbench's notices
	[[ "${lines[0]}" == *"Simulating RD=sql; I/O rate: Uncontrolled curve; elapsed=300 warmup=60; For loops: None" ]]
	[[ "${lines[1]}" == *"Simulating RD=sql_(10%); I/O rate: 1000; elapsed=300 warmup=60;"* ]]
	[[ "${lines[12]}" == *"Simulating RD=sql_(120%); I/O rate: 12000; elapsed=300 warmup=60;"* ]]
	run "$IORAMP" -f "$WORKLOADS/vdi-lc-boot.vdb" -s "lun=$SCRATCH/drive%d"
	mapfile -t lines < <(grep 'Simulating RD=' <<<"$output")
	[[ "${lines[0]}" == *"Simulating RD=vdi-lc-boot; I/O rate: Controlled curve;"* ]]
}

@test "the README's lun forms: size= for files, count=(1,8), -e -i -w" {
	run "$IORAMP" -f "$WORKLOADS/sql.vdb" -s "lun=$SCRATCH/drive%d,size=1g"
	[ "$status" -eq 0 ]
	run "$IORAMP" -f "$WORKLOADS/sql.vdb" -s "lun=$SCRATCH/nvme%dn1,count=(1,8)"
	[ "$status" -eq 0 ]
	run "$IORAMP" -f "$WORKLOADS/oracle.vdb" -s -e 60 -i 5 -w 10 "lun=$SCRATCH/drive%d"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Simulating RD=oracle_(120%); I/O rate: 12000; elapsed=60 warmup=10;"* ]]
}

@test "a workload file without lun= is refused with a located error" {
	run "$IORAMP" -f "$WORKLOADS/sql.vdb" -s
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"sql.vdb:"*": error: "* ]]
}

@test "VDbench 5.04.07 accepts every file and lists the same runs" {
	[ -x "${VDBENCH:-/opt/vdbench/vdbench}" ] ||
		skip "no VDbench at ${VDBENCH:-/opt/vdbench/vdbench}"
	run "$WORKLOADS/check-vdbench.sh" "$IORAMP"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "check-vdbench: all files accepted, listings equal" ]]
}

# A copy of a library file with its curve cut to one point and no warmup, so that a run
# takes a max run and one 2-second point.
short_copy() {
	sed -e 's/curve=(10-120,10)/curve=(100)/' -e 's/,warmup=60//' "$1" >"$2"
}

@test "every workload file runs on modelled drives with shortened curves" {
	for f in "$WORKLOADS"/*.vdb; do
		local name
		name=$(basename "$f")
		short_copy "$f" "$SCRATCH/$name"
		# slow drives and -w 1 keep virtual time cheap: the test is that each file runs, not a
		# figure (a warmup= on a continuation line escapes short_copy: the QD sweeps' nine
		# runs were 62 s of virtual time each, 80% of this case)
		run "$IORAMP" -f "$SCRATCH/$name" -o "$SCRATCH/out" --seed 1 -e 2 -w 1 -i 1 \
			--engine model:units=2,read_us=1000,write_us=1000 "lun=$SCRATCH/drive%d,size=64m"
		[ "$status" -eq 0 ] || { echo "$name: exit $status: $output"; return 1; }
		local rd
		rd=$(sed -n 's/^rd=\([^,]*\),.*/\1/p' "$f" | tail -1)
		[[ "$output" == *"RD=$rd"* ]] || { echo "$name: no RD=$rd in: $output"; return 1; }
		[[ "${lines[0]}" == *"ioramp: note: modelled drives, not measurements:"* ]]
	done
}

@test "a workload file opens its files with o_direct on the null engine" {
	dd if=/dev/zero of="$SCRATCH/direct" bs=4096 count=1 oflag=direct 2>/dev/null ||
		skip "the scratch file system refuses O_DIRECT (the files use openflags=o_direct)"
	for i in 0 1 2 3 4 5 6 7; do truncate -s 64m "$SCRATCH/drive$i"; done
	short_copy "$WORKLOADS/sql.vdb" "$SCRATCH/sql.vdb"
	run "$IORAMP" -f "$SCRATCH/sql.vdb" -o "$SCRATCH/out" --engine null --seed 1 -e 2 -i 1 \
		"lun=$SCRATCH/drive%d"
	[ "$status" -eq 0 ]
	[[ "$output" == *"RD=sql_(100%)"* ]]
}
