#!/usr/bin/env bats
# WD priority= as VDbench documents it (user guide 1.14.12): work in a higher priority's fifo
# starts first, so a priority=1 WD with its own iorate= keeps that rate while the RD asks the
# drive for more than it takes; VDbench 5.04.07 on a file kept priority=1 reads at iorate=3000
# at 3,008 IOPS under rd iorate=5000000. On modelled drives, in virtual time.

load helpers

# One modelled drive of 4 units at 100 us (40,000 IOPS at most) shared by fixed reads and the
# writes the RD's iorate= controls; the last two steps ask for more than it takes.
shared_parm() {
	printf '%s\n' "sd=sd1,lun=$SCRATCH/f1,size=16m,threads=32" \
		"wd=reads,sd=sd1,rdpct=100,xfersize=4k,iorate=6000,priority=$1" \
		"wd=writes,sd=sd1,rdpct=0,xfersize=4k,priority=$2" \
		"rd=rd1,wd=(reads,writes),iorate=(20000,80000,400000),elapsed=4,interval=1" >p.vdb
}

# wd_iops RUN WD: the WD's average IOPS in run RUN (0-based) of out/results.json, whole.
wd_iops() {
	jq -r ".runs[$1].average.wds[] | select(.name == \"$2\") | .iops | floor" out/results.json
}

@test "priority=1 reads keep their fixed iorate= beside saturating priority=2 writes on one SD" {
	shared_parm 1 2
	run "$IORAMP" -f p.vdb -o out --engine model:units=4,read_us=100,write_us=100 --seed 1
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.runs[].is_target_met]' out/results.json)" = '[true,false,false]' ]
	for r in 0 1 2; do
		# 6000 within 3% (exponential arrivals over 4 virtual seconds)
		local n
		n=$(wd_iops $r reads)
		echo "run $r reads $n"
		[ "$n" -ge 5820 ] && [ "$n" -le 6180 ]
	done
	# the writes take what the drive has left: about 40,000 - 6,000
	local w
	w=$(wd_iops 2 writes)
	[ "$w" -ge 30000 ] && [ "$w" -le 36000 ]
	# served first, the reads wait for no queued write: their response time stays near
	# their service time while the writes' grows with their queue
	jq -e '.runs[2].average.wds[] | select(.name == "reads") |
		.response.mean_us < 2 * .service.mean_us' out/results.json
	jq -e '(.runs[2].average.wds[] | select(.name == "writes") | .response.mean_us) >
		10 * (.runs[2].average.wds[] | select(.name == "reads") | .response.mean_us)' \
		out/results.json
}

@test "the priority decides: reads at priority=2 behind saturating priority=1 writes get their share only" {
	shared_parm 2 1
	run "$IORAMP" -f p.vdb -o out --engine model:units=4,read_us=100,write_us=100 --seed 1
	[ "$status" -eq 0 ]
	local n
	n=$(wd_iops 2 reads)
	echo "reads $n"
	# the writes' queue is served first: the reads get no more than their share of arrivals
	# (6000 of 400,000 asked for), far below their 6000
	[ "$n" -lt 3000 ]
}
