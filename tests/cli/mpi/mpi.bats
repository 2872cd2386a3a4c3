#!/usr/bin/env bats
# Many hosts on MPI: three (or four) ranks on this one machine, files as SDs. Run against the
# MPI build (make check passes build/mpi/ioramp as IORAMP); skipped, visibly, without mpirun or
# with a binary built without MPI. Every run is a few seconds long.
#
# The thread splits checked below are the ones VDbench 5.04.07 made when observed (see
# doc/cluster.md): hd=localhost,jvms=3 with sd1 threads=8 and sd2 threads=5 gave its slaves
# 3,3,2 and 2,1,2 threads; two hosts of two slaves each with threads 8, 5 and 3 (the last SD on
# both hosts through host=/lun= pairs) gave 2,2,2,2 / 2,1,1,1 / 0,1,1,1.

load ../helpers

setup() {
	if ! command -v mpirun >/dev/null; then
		skip "mpirun not installed (make deps installs openmpi-bin)"
	fi
	if [[ "$("$IORAMP" --version 2>/dev/null)" != *"(MPI)"* ]]; then
		skip "$IORAMP was built without MPI (make MPI=1, or make check with Open MPI)"
	fi
	SCRATCH=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ioramp-mpi.XXXXXX")
	cd "$SCRATCH" || return 1
	truncate -s 8m a b c
	MPIRUN=(mpirun --allow-run-as-root --oversubscribe)
}

teardown() {
	if [ -n "${MPI_PID:-}" ]; then
		kill -KILL "$MPI_PID" 2>/dev/null || true
		wait "$MPI_PID" 2>/dev/null || true
	fi
	cd / && rm -rf "${SCRATCH:-/nonexistent}"
}

# The pid of rank $1 among the children of mpirun $2 (Open MPI sets OMPI_COMM_WORLD_RANK).
rank_pid() {
	local p
	for p in $(ps -o pid= --ppid "$2"); do
		if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# Waits until file $1 has $2 interval lines of run rd1 in it (at most 20 s).
wait_intervals() {
	local i
	for i in $(seq 200); do
		[ "$(grep -cE '^[0-9:.]+ +[0-9]+ ' "$1" 2>/dev/null)" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

@test "three ranks without hd=: host and slave totals add up to the total, all start together" {
	cat >p <<-EOF
		sd=sd1,lun=$SCRATCH/a,size=8m,threads=8
		sd=sd2,lun=$SCRATCH/b,size=8m,threads=5
		wd=wd1,sd=sd*,xfersize=4k,rdpct=70
		rd=rd1,wd=wd1,iorate=1500,elapsed=3,interval=1,distribution=deterministic
	EOF
	run "${MPIRUN[@]}" -np 3 "$IORAMP" -f p -o out --engine null --seed 7
	[ "$status" -eq 0 ]
	host=$(hostname)
	# one host (this machine) with three slaves, as VDbench names them
	[ "$(jq -c '.execution.hosts' out/results.json)" = "[{\"name\":\"$host\",\"slaves\":[\"$host-0\",\"$host-1\",\"$host-2\"]}]" ]
	# every interval and the average: I/Os add up exactly, rates within 1%
	run jq -r '.runs[] | select(.name == "rd1") | (.intervals[], .average) |
		[.label, .total.nr_ios, ([.slaves[].nr_ios] | add), ([.hosts[].nr_ios] | add),
		 .total.iops, ([.slaves[].iops] | add)] | @tsv' out/results.json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	for l in "${lines[@]}"; do
		read -r label total slaves hosts iops slave_iops <<<"$l"
		[ "$total" -gt 0 ]
		[ "$slaves" -eq "$total" ]
		[ "$hosts" -eq "$total" ]
		awk -v a="$iops" -v b="$slave_iops" 'BEGIN { exit !(b >= a * 0.99 && b <= a * 1.01) }'
	done
	# aligned start: the first interval has I/O from every rank
	[ "$(jq '[.runs[] | select(.name == "rd1") | .intervals[0].slaves[] | select(.nr_ios > 0)] | length' out/results.json)" -eq 3 ]
	# the threads: 3,3,2 of sd1 and 2,1,2 of sd2 (VDbench's split over three slaves); a rank
	# with threads for both SDs gets both, so every rank sees I/O on both
	# the per-host and per-slave files, with the average line
	grep -q "^Host summary report(s) for host=$host\$" "out/$host.html"
	grep -q "$host-2.html" "out/$host.html"
	for n in 0 1 2; do
		grep -q "^Slave summary report for slave=$host-$n\$" "out/$host-$n.html"
		grep -qE '^[0-9:.]+ +avg_2-3 ' "out/$host-$n.html"
	done
	grep -q 'IOPS per host' out/report.html
	# the totals are the ones a single-host run writes: the same files
	for f in summary.html flatfile.html totals.html sd1.html sd2.html histogram.html; do
		[ -s "out/$f" ]
	done
}

@test "-s prints the host mapping and VDbench's thread split (three slaves of one host)" {
	cat >p <<-EOF
		hd=localhost,jvms=3
		sd=sd1,lun=$SCRATCH/a,threads=8
		sd=sd2,lun=$SCRATCH/b,threads=5
		wd=wd1,sd=sd*,xfersize=4k
		rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1
	EOF
	run "${MPIRUN[@]}" -np 3 "$IORAMP" -f p -s
	[ "$status" -eq 0 ]
	host=$(hostname)
	[[ "$output" == *"host=localhost    system=$host"*"ranks: 0 (localhost-0) 1 (localhost-1) 2 (localhost-2)"* ]]
	[[ "$output" == *"rd1 threads: sd=sd1(localhost-0=3,localhost-1=3,localhost-2=2) sd=sd2(localhost-0=2,localhost-1=1,localhost-2=2)"* ]]
}

@test "-s: two hosts of two slaves, host=/lun= pairs: the split VDbench made" {
	cat >p <<-EOF
		hd=default,jvms=2
		hd=ha
		hd=hb
		sd=sd1,lun=$SCRATCH/a,threads=8
		sd=sd2,lun=$SCRATCH/b,threads=5
		sd=sd3,host=ha,lun=$SCRATCH/c,host=hb,lun=$SCRATCH/a,threads=3
		wd=wd1,sd=(sd1,sd2),xfersize=4k
		wd=wd2,sd=sd3,xfersize=4k,skew=20
		rd=rd1,wd=wd*,iorate=1000,elapsed=3,interval=1
	EOF
	run "${MPIRUN[@]}" -np 4 "$IORAMP" -f p -s
	[ "$status" -eq 0 ]
	[[ "$output" == *"sd=sd3: host=ha,lun=$SCRATCH/c host=hb,lun=$SCRATCH/a"* ]]
	[[ "$output" == *"rd1 threads: sd=sd1(ha-0=2,ha-1=2,hb-0=2,hb-1=2) sd=sd2(ha-0=2,ha-1=1,hb-0=1,hb-1=1) sd=sd3(ha-1=1,hb-0=1,hb-1=1)"* ]]
}

@test "hd= in order: per-host luns, WD host= and skew decide each host's rate" {
	cat >p <<-EOF
		hd=default,jvms=1
		hd=h1
		hd=h2
		hd=h3
		sd=sd1,host=h1,lun=$SCRATCH/a,host=h2,lun=$SCRATCH/b,host=h3,lun=$SCRATCH/c,size=8m,threads=6
		wd=wd1,sd=sd1,xfersize=4k,skew=80
		wd=wd2,sd=sd1,xfersize=8k,rdpct=0,host=h3,skew=20
		rd=rd1,wd=wd*,iorate=900,elapsed=3,interval=1,distribution=deterministic
	EOF
	run "${MPIRUN[@]}" -np 3 "$IORAMP" -f p -o out --engine null
	[ "$status" -eq 0 ]
	# wd1's 720 over three hosts, wd2's 180 on h3 only: 240, 240, 420. The division itself
	# is asserted exactly in test_cluster.c (test_share_divides_rates_over_instances); here,
	# in real seconds, only that every host ran and h3 ran wd2's share beside its part of wd1
	run jq -r '.runs[] | select(.name == "rd1") | .average.hosts[] | "\(.name) \(.nr_ios)"' out/results.json
	[ "${#lines[@]}" -eq 3 ]
	declare -A n
	for l in "${lines[@]}"; do
		read -r name ios <<<"$l"
		n[$name]=$ios
	done
	[ "${n[h1]}" -gt 0 ] && [ "${n[h2]}" -gt 0 ]
	[ "${n[h3]}" -gt $((n[h1] * 3 / 2)) ] && [ "${n[h3]}" -gt $((n[h2] * 3 / 2)) ]
	# writes only on h3 (wd2 host=h3)
	[ "$(jq '.runs[] | select(.name == "rd1") | .average.slaves[] | select(.name == "h1-0") | .read_pct' out/results.json)" = 100 ]
	grep -qE '^[0-9:.]+ +avg_2-3 ' out/h3.html
}

@test "a relative rate's target comes from the total of all hosts and is divided across ranks" {
	cat >p <<-EOF
		sd=sd1,lun=$SCRATCH/a,size=8m,threads=6
		wd=wd1,sd=sd1,xfersize=4k
		rd=rd1,wd=wd1,iorate=(1200,50%),elapsed=3,interval=1,distribution=deterministic
	EOF
	run "${MPIRUN[@]}" -np 3 "$IORAMP" -f p -o out --engine null
	[ "$status" -eq 0 ]
	observed=$(jq '.runs[] | select(.for_loops == "iorate=1200") | .observed_iops' out/results.json)
	target=$(jq '.runs[] | select(.for_loops == "iorate=50%") | .rate.target_iops' out/results.json)
	# VDbench's rounding: up to a multiple of 10 below 1000
	[ "$target" = "$(awk -v o="$observed" 'BEGIN { t = int(o * 50 / 100); printf "%d", (t % 10 ? t - t % 10 + 10 : t) }')" ]
	# every rank ran its third (the division: test_cluster.c, not these real seconds)
	run jq -r '.runs[] | select(.for_loops == "iorate=50%") | .average.slaves[].nr_ios' out/results.json
	[ "${#lines[@]}" -eq 3 ]
	for n in "${lines[@]}"; do
		[ "$n" -gt 0 ]
	done
}

@test "a curve's points are shares of the max of all hosts, divided across ranks" {
	cat >p <<-EOF
		sd=sd1,lun=$SCRATCH/a,size=8m,threads=3
		wd=wd1,sd=sd1,xfersize=1m
		rd=rd1,wd=wd1,iorate=curve,curve=(10),elapsed=2,interval=1,distribution=deterministic
	EOF
	run "${MPIRUN[@]}" -np 3 "$IORAMP" -f p -o out --engine sync
	[ "$status" -eq 0 ]
	max=$(jq '.runs[] | select(.name == "rd1") | select(.rate.kind == "curve_max" or .rate.kind == "max") | .observed_iops' out/results.json)
	# the max run's observed rate is the total of the three ranks
	sum=$(jq '.runs[] | select(.name == "rd1") | [.average.slaves[].iops] | add' out/results.json)
	awk -v a="$max" -v b="$sum" 'BEGIN { exit !(b >= a * 0.99 && b <= a * 1.01) }'
	target=$(jq '.runs[] | select(.name == "rd1_(10%)") | .rate.target_iops' out/results.json)
	[ "$target" = "$(awk -v o="$max" 'BEGIN { t = int(o * 10 / 100); s = t > 1000 ? 100 : 10; printf "%d", (t % s ? t - t % s + s : t) }')" ]
	# every rank ran its share; how the rate divides over the ranks' generators is asserted
	# exactly in test_cluster.c (test_share_divides_rates_over_instances): the rate each
	# rank reached in these real seconds is a benchmark figure, not a test's
	run jq -r '.runs[] | select(.name == "rd1_(10%)") | .average.slaves[].nr_ios' out/results.json
	[ "${#lines[@]}" -eq 3 ]
	for n in "${lines[@]}"; do
		[ "$n" -gt 0 ]
	done
}

@test "a lun missing on one host fails the execution before any I/O, naming the host" {
	cat >p <<-EOF
		hd=default,jvms=1
		hd=h1
		hd=h2
		hd=h3
		sd=sd1,host=h1,lun=$SCRATCH/a,host=h2,lun=$SCRATCH/missing,host=h3,lun=$SCRATCH/c
		wd=wd1,sd=sd1,xfersize=4k
		rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1
	EOF
	run "${MPIRUN[@]}" -np 3 "$IORAMP" -f p -o out --engine null
	[ "$status" -eq 2 ]
	[[ "$output" == *"host h2 (rank 1 on "*"lun=$SCRATCH/missing does not exist"* ]]
	[ "$(jq '.runs | length' out/results.json 2>/dev/null || echo 0)" -eq 0 ]
}

@test "data validation (-v or validate=) is refused in a job of several ranks, never ignored" {
	printf 'sd=sd1,lun=%s/a\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
		"$SCRATCH" >p
	run "${MPIRUN[@]}" -np 2 "$IORAMP" -f p -o out -v
	[ "$status" -eq 2 ]
	[[ "$output" == *"ioramp: error: data validation and journals do not run in an MPI job yet"* ]]
	{ echo validate=yes; cat p; } >pv
	run "${MPIRUN[@]}" -np 2 "$IORAMP" -f pv -o out
	[ "$status" -eq 2 ]
	[[ "$output" == *"do not run in an MPI job yet"* ]]
}

@test "hd= wanting more ranks than the job has is a parameter error" {
	cat >p <<-EOF
		hd=default,jvms=2
		hd=ha
		hd=hb
		sd=sd1,lun=$SCRATCH/a
		wd=wd1,sd=sd1
		rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1
	EOF
	run "${MPIRUN[@]}" -np 3 "$IORAMP" -f p -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p:3:4: error: hd=hb needs 2 ranks (jvms=2) and finds 1 free of 3"* ]]
}

@test "a rank killed mid-run: rank 0 names it, writes the intervals so far, exits 1, no hang" {
	cat >p <<-EOF
		sd=sd1,lun=$SCRATCH/a,size=8m,threads=6
		wd=wd1,sd=sd1,xfersize=4k
		rd=rd1,wd=wd1,iorate=600,elapsed=20,interval=1
	EOF
	"${MPIRUN[@]}" -np 3 "$IORAMP" -f p -o out --engine null >console 2>&1 &
	MPI_PID=$!
	wait_intervals console 2
	pid=$(rank_pid 2 "$MPI_PID")
	kill -KILL "$pid"
	start=$(date +%s)
	status=0
	wait "$MPI_PID" || status=$?
	MPI_PID=
	[ "$status" -ne 0 ]
	[ $(($(date +%s) - start)) -le 10 ]
	grep -q 'rank 2 on .* stopped answering' console
	[ "$(jq '.execution.status' out/results.json)" -eq 1 ]
	[[ "$(jq -r '.execution.errors[0]' out/results.json)" == *"rank 2 on"*"failed or was killed"* ]]
	[ "$(jq '[.runs[] | select(.name == "rd1") | .intervals[]] | length' out/results.json)" -ge 2 ]
	grep -qE '^[0-9:.]+ +avg_2-' out/summary.html
}

@test "a rank that stops answering is lost after --host-timeout: exit 1 with the reports" {
	cat >p <<-EOF
		sd=sd1,lun=$SCRATCH/a,size=8m,threads=6
		wd=wd1,sd=sd1,xfersize=4k
		rd=rd1,wd=wd1,iorate=600,elapsed=20,interval=1
	EOF
	"${MPIRUN[@]}" -np 3 "$IORAMP" -f p -o out --engine null --host-timeout 2 >console 2>&1 &
	MPI_PID=$!
	wait_intervals console 2
	pid=$(rank_pid 1 "$MPI_PID")
	kill -STOP "$pid"
	start=$(date +%s)
	status=0
	wait "$MPI_PID" || status=$?
	MPI_PID=
	[ "$status" -eq 1 ]
	# the interval (1 s) plus the timeout (2 s), with room for a busy machine
	[ $(($(date +%s) - start)) -le 8 ]
	grep -q 'rank 1 on .* sent no statistics for interval' console
	[ "$(jq '.execution.status' out/results.json)" -eq 1 ]
	[ "$(jq '[.runs[] | select(.name == "rd1") | .intervals[]] | length' out/results.json)" -ge 2 ]
}

@test "subcommands do not run under mpirun with several ranks" {
	run "${MPIRUN[@]}" -np 2 "$IORAMP" workloads
	[ "$status" -eq 2 ]
	[[ "$output" == *"ioramp workloads does not run in an MPI job of 2 ranks"* ]]
}
