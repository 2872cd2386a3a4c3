#!/usr/bin/env bash
# Checks the workload library against VDbench 5.04.07 itself: VDbench must accept every
# workloads/*.vdb with -s (simulate) on file luns, and ioramp's -s listing must equal
# VDbench's (time of day stripped). Also checks the README's lun forms (",size=1g",
# ",count=(1,8)") and the -e/-i/-w overrides. Nothing is written under /dev or in the repo.
# Usage: workloads/check-vdbench.sh [IORAMP]   (default: ./ioramp; VDBENCH=/opt/vdbench/vdbench)
# Exit: 0 all agree (or VDbench absent: skipped with a message), 1 a disagreement.
set -u
here=$(cd "$(dirname "$0")" && pwd)
vdbench=${VDBENCH:-/opt/vdbench/vdbench}
ioramp=${1:-$here/../ioramp}

if [ ! -x "$vdbench" ]; then
	echo "check-vdbench: skipped: no VDbench at $vdbench (set VDBENCH=)"
	exit 0
fi
if [ ! -x "$ioramp" ]; then
	echo "check-vdbench: no ioramp binary at $ioramp; build it with make" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-vdbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0

# listing: the run lines of the -s output on stdin, without the time of day.
listing() {
	grep -E '^[0-9:.]{12} (Simulating RD=|Total amount of Run Definitions)' | cut -c14-
}

# check NAME FILE ARGS...: VDbench accepts FILE with ARGS, and ioramp lists the same runs.
check() {
	local name=$1 file=$2 out=$tmp/out
	shift 2
	rm -rf "$out"
	if ! "$vdbench" -f "$file" -o "$out" -s "$@" >"$tmp/vdbench.txt" 2>&1 ||
		! grep -q 'Vdbench simulation completed successfully' "$tmp/vdbench.txt"; then
		echo "FAIL $name: VDbench rejects it:"
		grep -iE 'error|exception|unknown|invalid' "$tmp/vdbench.txt" | head -5 | sed 's/^/  /'
		failed=1
		return 1
	fi
	listing <"$tmp/vdbench.txt" >"$tmp/vdbench.list"
	if ! "$ioramp" -f "$file" -s "$@" >"$tmp/ioramp.txt" 2>&1; then
		echo "FAIL $name: ioramp rejects it:"
		head -5 "$tmp/ioramp.txt" | sed 's/^/  /'
		failed=1
		return 1
	fi
	if ! listing <"$tmp/ioramp.txt" | diff "$tmp/vdbench.list" - >"$tmp/diff.txt"; then
		echo "FAIL $name: listings differ (< VDbench, > ioramp):"
		head -10 "$tmp/diff.txt" | sed 's/^/  /'
		failed=1
		return 1
	fi
	echo "ok   $name ($(wc -l <"$tmp/vdbench.list") lines)"
}

# sds_are WANT...: the SDs VDbench expanded from count= in the last check, in order.
sds_are() {
	local got
	got=$(sed -n "s/.*parameter added \(sd=sd[0-9]*,lun=[^ ]*\).*/\1/p" "$tmp/out/logfile.html" |
		tr '\n' ' ')
	if [ "$got" != "$* " ]; then
		echo "FAIL VDbench made the SDs: $got"
		echo "     expected:              $*"
		failed=1
	fi
}

cd "$here/.." || exit 1
for f in workloads/*.vdb; do
	check "$f" "$f" "lun=$tmp/drive%d"
done

check "sql.vdb lun=...drive%d" workloads/sql.vdb "lun=$tmp/drive%d" &&
	sds_are $(for i in 0 1 2 3 4 5 6 7; do printf 'sd=sd%d,lun=%s/drive%d ' $i "$tmp" $i; done)
check "sql.vdb lun=...,count=(1,8)" workloads/sql.vdb "lun=$tmp/nvme%dn1,count=(1,8)" &&
	sds_are $(for i in 1 2 3 4 5 6 7 8; do printf 'sd=sd%d,lun=%s/nvme%dn1 ' $i "$tmp" $i; done)
check "sql.vdb lun=...,size=1g" workloads/sql.vdb "lun=$tmp/drive%d,size=1g"
check "vdi-lc-boot.vdb -e 2 -i 1 -w 1" workloads/vdi-lc-boot.vdb -e 2 -i 1 -w 1 "lun=$tmp/drive%d"
check "precondition.vdb -e 4 -i 2" workloads/precondition.vdb -e 4 -i 2 "lun=$tmp/drive%d"

if [ "$failed" -ne 0 ]; then
	echo "check-vdbench: VDbench and ioramp disagree (see FAIL lines)"
	exit 1
fi
echo "check-vdbench: all files accepted, listings equal"
