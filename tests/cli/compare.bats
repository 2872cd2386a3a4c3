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
