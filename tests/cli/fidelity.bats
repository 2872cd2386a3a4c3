#!/usr/bin/env bats
# Issue 12's fidelity targets on the real trace samples of ../shared/trace-samples (databases,
# multi-device OLTP, web search, a web/SQL server, a VM disk), measured independently of
# ioramp's code by tests/fidelity/check.py: it parses the traces and the synthesized iologs
# itself and recomputes every figure. Skips when the samples are absent.

load helpers

SAMPLES=${IORAMP_TRACE_SAMPLES:-$BATS_TEST_DIRNAME/../../../shared/trace-samples}

@test "profiles of six real traces reproduce their figures within the targets" {
	[ -d "$SAMPLES" ] || skip "no trace samples at $SAMPLES (set IORAMP_TRACE_SAMPLES)"
	command -v python3 >/dev/null || skip "python3 is not installed"
	run python3 "$TESTS/fidelity/check.py" "$IORAMP" "$SAMPLES"
	echo "$output"
	[ "$status" -ne 77 ] || skip "no trace samples at $SAMPLES"
	[ "$status" -eq 0 ]
	[ "$(grep -c ' ok$' <<<"$output")" -ge 50 ]
}
