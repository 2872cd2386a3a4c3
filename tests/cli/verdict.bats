#!/usr/bin/env bats
# The target verdict (man ioramp(1) POINT VALIDITY) against an open-loop schedule's own
# sampling: a short run at a low rate draws fewer or more arrivals than the target, and the
# verdict compares with what the schedule generated, counted exactly. Modelled drives, virtual
# time: every figure is exact.

load helpers

@test "a point whose schedule sampled off its target still meets it; a drive that cannot, misses" {
	cat >low.vdb <<PARM
sd=sd1,lun=$SCRATCH/f1,size=1g,threads=4
wd=wd1,sd=sd1,xfersize=4k
rd=rd1,wd=wd1,iorate=50,elapsed=4,interval=1
PARM
	# seed 2 draws 130 arrivals in the three averaged seconds: 43.3 a second, 13% under 50
	run "$IORAMP" -f low.vdb -o out --engine model --seed 2 --strict
	[ "$status" -eq 0 ]
	[[ "$output" != *": reached "* ]]
	jq -e '.runs[-1] | .is_target_met and .limited_by == null and
		(.scheduled_iops * 3 | round) == 130 and .requested_iops == .scheduled_iops and
		.observed_iops == .requested_iops and .dv_prereads == null' out/results.json
	jq -e '.curves[0].points[0] | .is_target_met and (.scheduled_iops * 3 | round) == 130' \
		out/results.json
	# a drive of 40 IOPS (one unit, 25 ms a read) misses it: the line says what the schedule
	# asked, being off the target by more than 1%
	run "$IORAMP" -f low.vdb -o out2 --engine model:units=1,read_us=25000,dist=fixed --seed 2 \
		--strict
	[ "$status" -eq 1 ]
	[[ "$output" == *$'\nrd1: reached 40 of 50 (80%), its schedule asked 43, limited by device\n'* ]]
	jq -e '.runs[-1] | (.is_target_met | not) and .limited_by == "device" and
		.requested_iops == 40' out2/results.json
}

@test "the schedule's count is the target times the time when it has no sampling (deterministic)" {
	printf 'sd=sd1,lun=%s/f1,size=1g,threads=4\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=50,elapsed=4,interval=1,distribution=deterministic\n' \
		"$SCRATCH" >uni.vdb
	run "$IORAMP" -f uni.vdb -o out --engine model --seed 2
	[ "$status" -eq 0 ]
	jq -e '.runs[-1] | .is_target_met and .scheduled_iops == 50 and .requested_iops == 50' \
		out/results.json
}
