#!/usr/bin/env bash
# VDbench's shipped file-system examples (/opt/vdbench/examples/filesys), adapted at run time
# (never copied into the repository) to a local anchor under $BASE, 200 files, a fixed
# fwdrate= and elapsed=10, run with VDbench 5.04.07 and ioramp one after the other. Prints a
# table: example, same anchor tree (names of dirs and files), VDbench and ioramp avg
# ReqstdOps rate, their ratio. Usage: bench/fs/run.sh [IORAMP] (RATE=200 BASE=/tmp/ioramp-fsbench)
set -u
here=$(cd "$(dirname "$0")" && pwd)
ioramp=${1:-$here/../../ioramp}
vdbench=${VDBENCH:-/opt/vdbench/vdbench}
rate=${RATE:-200}
base=${BASE:-/tmp/ioramp-fsbench}
examples=${EXAMPLES:-seq_read random_read seq_write random_rw create_files}
rm -rf "$base"
mkdir -p "$base"
printf '%-14s %-6s %10s %10s %7s\n' example tree vdbench ioramp ratio
for ex in $examples; do
	src=/opt/vdbench/examples/filesys/$ex
	[ -f "$src" ] || continue
	for tool in vdbench ioramp; do
		mkdir -p "$base/$tool"
		sed -e "s#anchor=/[A-Za-z0-9_/]*#anchor=$base/$tool/$ex#" -e 's/files=[0-9]*/files=200/' \
			-e "s/fwdrate=[a-z0-9]*/fwdrate=$rate/" -e 's/elapsed=[0-9]*/elapsed=10/' \
			"$src" >"$base/$ex.$tool.vdb"
		if [ $tool = vdbench ]; then
			"$vdbench" -f "$base/$ex.$tool.vdb" -o "$base/out.$ex.$tool" >"$base/$ex.$tool.log" 2>&1
		else
			"$ioramp" -f "$base/$ex.$tool.vdb" -o "$base/out.$ex.$tool" >"$base/$ex.$tool.log" 2>&1
		fi
		(cd "$base/$tool/$ex" && find . | sort) >"$base/$ex.$tool.tree"
	done
	same=no
	cmp -s "$base/$ex.vdbench.tree" "$base/$ex.ioramp.tree" && same=yes
	v=$(grep -E ' avg_[0-9]+-[0-9]+ ' "$base/$ex.vdbench.log" | tail -1 | awk '{print $3}')
	i=$(grep -E ' avg_[0-9]+-[0-9]+ ' "$base/$ex.ioramp.log" | tail -1 | awk '{print $3}')
	ratio=$(awk -v a="$i" -v b="$v" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }')
	printf '%-14s %-6s %10s %10s %7s\n' "$ex" "$same" "$v" "$i" "$ratio"
done
