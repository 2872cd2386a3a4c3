#!/usr/bin/env bats
# Golden tests of every VDbench-format file (and the console) from a fixed-seed null-engine
# run, with times, dates, measured numbers, histogram bars and machine-dependent warning boxes
# masked (tests/data/vdbfiles/mask). The exact number formats are checked by
# tests/unit/test_report_vdb.c on synthetic statistics; this checks what a real run writes.
# IORAMP_UPDATE_GOLDEN=1 rewrites the golden files.

load helpers

@test "a fixed-seed run writes VDbench's files as the golden copies" {
	local data=$TESTS/data/vdbfiles
	TZ=UTC run "$IORAMP" -f "$data/run.vdb" -o out --engine null --seed 11 "dir=$SCRATCH"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >console.txt
	local n=0 f b
	for f in out/*.html console.txt; do
		b=$(basename "$f")
		[ "$b" = report.html ] && continue
		"$data/mask" "$SCRATCH" "$f" >"$b.masked"
		if [ -n "${IORAMP_UPDATE_GOLDEN:-}" ]; then
			cp "$b.masked" "$data/golden/$b.masked"
		fi
		diff -u "$data/golden/$b.masked" "$b.masked"
		n=$((n + 1))
	done
	# every golden file was produced
	[ "$n" -eq "$(ls "$data/golden" | wc -l)" ]
}
