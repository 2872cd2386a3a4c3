#!/usr/bin/env bats
# report.html in a real browser (headless Chromium): no console errors, the charts and points
# in the DOM, and a screenshot. Skips visibly where chromium is not installed.

load helpers

DATA=$TESTS/data/report-own
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# chromium ARGS... URL: headless, offline, with its own profile under the scratch directory.
chromium_run() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update --disable-sync \
		--no-first-run --user-data-dir="$SCRATCH/profile" --enable-logging=stderr --v=0 "$@"
}

@test "report.html renders in Chromium with its charts and no console errors" {
	if [ ! -x "$CHROMIUM" ]; then
		skip "chromium not installed (apt-get install chromium): report.html not rendered"
	fi
	run "$IORAMP" report "$DATA/a" -o "$SCRATCH/report.html" --overlay "P=$DATA/overlay.csv"
	[ "$status" -eq 0 ]
	chromium_run --dump-dom "file://$SCRATCH/report.html" >dom.html 2>console.log
	if grep -E ':CONSOLE|Uncaught' console.log; then
		false
	fi
	[ "$(grep -o '<svg' dom.html | wc -l)" -eq 4 ]
	[ "$(grep -o '<circle class="pt"' dom.html | wc -l)" -eq 10 ]
	[ "$(grep -o '<circle class="ov"' dom.html | wc -l)" -eq 4 ]
	[ "$(grep -o '<table' dom.html | wc -l)" -eq 3 ]
	chromium_run --hide-scrollbars --window-size=1280,2000 \
		--screenshot="$SCRATCH/report.png" "file://$SCRATCH/report.html" 2>>console.log
	[ -s "$SCRATCH/report.png" ]
	[ "$(head -c 8 "$SCRATCH/report.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	if [ -n "${IORAMP_KEEP_SCREENSHOT:-}" ]; then
		cp "$SCRATCH/report.png" "$IORAMP_KEEP_SCREENSHOT"
	fi
}
