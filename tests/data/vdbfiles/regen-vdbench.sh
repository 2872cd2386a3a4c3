#!/usr/bin/env bash
# Compares the output directory ioramp writes with the one VDbench 5.04.07 writes for the same
# parameter files (run.vdb and a -s run; scan.vdb for parmscan.html), after tests/data/vdbfiles/mask
# and the title line; prints "equal" or "differs" per file and the first differing lines.
# It never commits VDbench's output: the golden files stay ioramp's (vdbfiles.bats);
# this checks them against the real thing. Skips when VDbench is not installed.
# Usage: tests/data/vdbfiles/regen-vdbench.sh [VDBENCH]   (about a minute)
set -u
here=$(cd "$(dirname "$0")" && pwd)
vdb=${1:-${VDBENCH:-/opt/vdbench/vdbench}}
ior=${IORAMP:-$here/../../../ioramp}
if [ ! -x "$vdb" ]; then
	echo "regen-vdbench.sh: $vdb not found; nothing compared (skipped)"
	exit 0
fi
tmp=$(mktemp -d /tmp/ioramp-vdbfiles.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
dd if=/dev/zero of=g1 bs=1M count=8 status=none
dd if=/dev/zero of=g2 bs=1M count=8 status=none
# anchors are hash codes of the run (Java identity hashes in VDbench)
# config.html shows the machine: its command headings are compared; a slave's stdout: the lines
# ioramp writes there (VDbench's JVM, heap and garbage collector lines have no counterpart)
pick() {
	case $(basename "$1") in
	config.html) sed -n '1p;/^>>>>>/p' "$1" ;;
	*.stdout.html) sed -n 1p "$1"; grep -E 'Beginning of run setup|^[0-9:.]+ [0-9:.]+ \*+$|Start/end command|Message to master|execute\(\)|Cmd: |Opening sd=|Started .*i/o threads|End of run|<a name=|Link to Run|^ +<A HREF|^stdout' "$1" |
		sed -E 's/^([0-9:.]+ [0-9:.]+ Opening sd=[^;]*);.*/\1/' ;;
	*) cat "$1" ;;
	esac
}
m() { "$here/mask" "$tmp" <(pick "$1") | sed -E -e 1d -e "s/\"#?_[0-9]+\"/\"_A\"/g"; }
compare() { # LABEL VDBENCH-DIR IORAMP-DIR
	local f b
	for f in "$2"/*; do
		b=$(basename "$f")
		if [ ! -e "$3/$b" ]; then
			printf '%-28s %s: %s\n' "$b" "$1" "missing in ioramp"
		elif diff <(m "$f") <(m "$3/$b") >"$tmp/d"; then
			printf '%-28s %s: %s\n' "$b" "$1" "equal after masking"
		else
			printf '%-28s %s: %s (%s lines differ)\n' "$b" "$1" "differs" \
				"$(grep -c '^[<>]' "$tmp/d")"
			head -4 "$tmp/d" | sed 's/^/      /'
		fi
	done
}
mkdir v i
(cd v && "$vdb" -f "$here/run.vdb" dir="$tmp" -o out >/dev/null 2>&1)
(cd i && "$ior" -f "$here/run.vdb" dir="$tmp" -o out --engine null --seed 11 >/dev/null 2>&1)
compare run v/out i/out
(cd v && "$vdb" -f "$here/run.vdb" dir="$tmp" -s -o sim >/dev/null 2>&1)
(cd i && "$ior" -f "$here/run.vdb" dir="$tmp" -s -o sim >/dev/null 2>&1)
compare -s v/sim i/sim
(cd v && "$vdb" -f "$here/scan.vdb" dir="$tmp" -s -o scan >/dev/null 2>&1)
(cd i && "$ior" -f "$here/scan.vdb" dir="$tmp" -s -o scan >/dev/null 2>&1)
if diff <(tail -n +2 v/scan/parmscan.html | cut -c14-) <(tail -n +2 i/scan/parmscan.html | cut -c14-) >/dev/null; then
	echo "parmscan.html (scan.vdb)     byte-equal after the time of day"
else
	echo "parmscan.html (scan.vdb)     differs"
fi
