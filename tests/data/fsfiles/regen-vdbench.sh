#!/usr/bin/env bash
# Compares the file-system pages ioramp writes (fsd, fwd and histogram pages, totals,
# summary, flatfile rows) with VDbench 5.04.07's for prep.vdb then run.vdb on a scratch
# directory, after ./mask; prints "equal" or "differs" per file and the first differing lines.
# VDbench's output is never committed: the golden files are ioramp's (fs.bats).
# Usage: tests/data/fsfiles/regen-vdbench.sh [VDBENCH]   (about a minute)
set -u
here=$(cd "$(dirname "$0")" && pwd)
vdb=${1:-${VDBENCH:-/opt/vdbench/vdbench}}
ior=${IORAMP:-$here/../../../ioramp}
if [ ! -x "$vdb" ]; then
	echo "regen-vdbench.sh: $vdb not found; nothing compared (skipped)"
	exit 0
fi
tmp=$(mktemp -d /tmp/ioramp-fsfiles.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT # KEEP=1: the two directories stay (printed)
[ -z "${KEEP:-}" ] || echo "kept: $tmp/v $tmp/i"
# relative anchors (fs.bats does the same): their HashMap order depends on their names
mkdir -p "$tmp/v/fsroot" "$tmp/i/fsroot"
(cd "$tmp/v" && "$vdb" -f "$here/prep.vdb" dir=fsroot -o prep >/dev/null 2>&1 &&
	"$vdb" -f "$here/run.vdb" dir=fsroot -o out >/dev/null 2>&1)
(cd "$tmp/i" && "$ior" -f "$here/prep.vdb" dir=fsroot -o prep >/dev/null 2>&1 &&
	"$ior" -f "$here/run.vdb" dir=fsroot -o out >/dev/null 2>&1)
for d in prep out; do
	for f in "$tmp/v/$d"/*.html; do
		b=$(basename "$f")
		[ -e "$tmp/i/$d/$b" ] || { printf '%-24s %s: missing in ioramp\n' "$b" "$d"; continue; }
		if diff <("$here/mask" "$tmp/v" "$f" | grep -v '^\*') \
			<("$here/mask" "$tmp/i" "$tmp/i/$d/$b" | grep -v '^\*') >"$tmp/d"; then
			printf '%-24s %s: equal after masking\n' "$b" "$d"
		else
			printf '%-24s %s: differs (%s lines)\n' "$b" "$d" "$(grep -c '^[<>]' "$tmp/d")"
			head -4 "$tmp/d" | sed 's/^/      /'
		fi
	done
done
