#!/usr/bin/env bash
# VDbench's shipped file-system examples (/opt/vdbench/examples/filesys), adapted at run time
# (never copied into the repository) to a local anchor under $BASE, a fixed fwdrate= and
# elapsed=10, their own files= (FILES=N: N instead; multi_host: its hd= lines and host=
# removed, one host), run with
# VDbench 5.04.07 and ioramp one after the other. Prints a table: example, same anchor tree
# (names of dirs and files), VDbench and ioramp avg ReqstdOps rate of the first work run, their
# ratio, and the output directories: how many of VDbench's files ioramp writes too, and how
# many of those are equal after tests/data/fsfiles/mask (times of day and figures masked) and
# with the number of interval lines left out (norm below).
# Usage: bench/fs/run.sh [IORAMP] (RATE=200 FILES= BASE=/tmp/ioramp-fsbench EXAMPLES="seq_read ...")
set -u
here=$(cd "$(dirname "$0")" && pwd)
ioramp=${1:-$here/../../ioramp}
vdbench=${VDBENCH:-/opt/vdbench/vdbench}
mask=$here/../../tests/data/fsfiles/mask
rate=${RATE:-200}
files=${FILES:-}
base=${BASE:-/tmp/ioramp-fsbench}
examples=${EXAMPLES:-seq_read random_read seq_write random_write seq_rw random_rw create_files delete_files multi_host}
# mask, and what the machine's speed decides: how many intervals a run had (its avg_, std_
# and max_ ranges; repeated interval lines, identical once masked, count once)
norm() {
	"$mask" "$1" "$2" | sed -E 's/\b(avg|std|max)_[0-9]+-[0-9]+/\1_R/' | uniq
}
rm -rf "$base"
mkdir -p "$base/vdbench" "$base/ioramp"
printf '%-14s %-6s %10s %10s %7s %8s %8s\n' example tree vdbench ioramp ratio files equal
for ex in $examples; do
	src=/opt/vdbench/examples/filesys/$ex
	[ -f "$src" ] || continue
	for tool in vdbench ioramp; do
		d=$base/$tool
		# one anchor per FSD: /dir, /dir1, /home/.../dir2 become $d/$ex, $d/$ex.dir2
		sed -e '/^hd=/d' -e 's/,host=[a-z]*//' \
			-e 's#anchor=/[A-Za-z0-9_/]*/dir2,#anchor=@D2@,#' -e 's#anchor=/[A-Za-z0-9_/]*#anchor=@D1@#' \
			-e "s#@D1@#$d/$ex#" -e "s#@D2@#$d/$ex.dir2#" -e "s/files=\([0-9]*\)/files=${files:-\\1}/" \
			-e "s/fwdrate=[a-z0-9]*/fwdrate=$rate/" -e 's/elapsed=[0-9]*/elapsed=10/' \
			"$src" >"$d/$ex.vdb"
		bin=$ioramp
		[ $tool = ioramp ] || bin=$vdbench
		"$bin" -f "$d/$ex.vdb" -o "$d/out.$ex" >"$base/$ex.$tool.log" 2>&1
		(cd "$d/$ex" && find . | sort) >"$base/$ex.$tool.tree"
	done
	rm -rf "$base"/*/"$ex" "$base"/*/"$ex.dir2" # the trees (up to 1.3 GB), once listed
	same=no
	cmp -s "$base/$ex.vdbench.tree" "$base/$ex.ioramp.tree" && same=yes
	# the first work run's average (delete_files: its reading run; the delete and rmdir
	# runs end as soon as nothing is left)
	first_avg='/Starting RD=.*elapsed=/ { on = 1 } on && $2 ~ /^avg_/ { print $3; exit }'
	v=$(awk "$first_avg" "$base/$ex.vdbench.log")
	i=$(awk "$first_avg" "$base/$ex.ioramp.log")
	ratio=$(awk -v a="$i" -v b="$v" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }')
	nv=0 ni=0 ne=0
	for f in "$base/vdbench/out.$ex"/*; do
		b=$(basename "$f")
		nv=$((nv + 1))
		[ -e "$base/ioramp/out.$ex/$b" ] || { echo "$ex: $b: not written by ioramp" >>"$base/files.txt"; continue; }
		ni=$((ni + 1))
		if diff <(norm "$base/vdbench" "$f") <(norm "$base/ioramp" "$base/ioramp/out.$ex/$b") \
			>"$base/$ex.$b.diff"; then
			ne=$((ne + 1))
			rm "$base/$ex.$b.diff"
		else
			echo "$ex: $b: differs after masking ($(grep -c '^[<>]' "$base/$ex.$b.diff") lines)" >>"$base/files.txt"
		fi
	done
	printf '%-14s %-6s %10s %10s %7s %8s %8s\n' "$ex" "$same" "$v" "$i" "$ratio" "$ni/$nv" "$ne/$ni"
done
echo "(per-file differences: $base/files.txt and $base/*.diff)"
