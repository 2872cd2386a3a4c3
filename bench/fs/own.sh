#!/usr/bin/env bash
# Parameter files of our own (bench/fs/own/*.vdb, @D@ the anchors' directory), each run by
# VDbench 5.04.07 and by ioramp one after the other, -s and for real, on local directories.
# Prints a table: file, -s listing equal (times of day and paths masked), anchor tree equal
# (names and sizes; vdb_control.file's size left out: its first line holds a pid), the two
# heading lines equal (every run's), the avg ReqstdOps rate of the first work run (or of the
# run a "* rate: rdN" line in the file names) of each tool and their ratio, both exit codes, and the output files VDbench writes that ioramp does not.
# Usage: bench/fs/own.sh [IORAMP] (VDBENCH=, BASE=/tmp/ioramp-fsown, FILES="t1 t4 ...")
set -u
here=$(cd "$(dirname "$0")" && pwd)
ioramp=$(realpath "${1:-$here/../../ioramp}")
vdbench=${VDBENCH:-/opt/vdbench/vdbench}
base=${BASE:-/tmp/ioramp-fsown}
files=${FILES:-$(cd "$here/own" && ls *.vdb | sed 's/\.vdb$//')}
printf '%-4s %-3s %-4s %-4s %9s %9s %6s %3s %3s %s\n' file -s tree head vdbench ioramp ratio rcv rci "only VDbench writes"
for n in $files; do
	for t in v i; do
		d=$base/$n/$t
		rm -rf "$d"
		mkdir -p "$d/a"
		sed "s#@D@#$d/a#g" "$here/own/$n.vdb" >"$d/parm.vdb"
		bin=$ioramp
		[ $t = v ] && bin=$vdbench
		(cd "$d" && "$bin" -f parm.vdb -o s -s >s.log 2>&1)
		(cd "$d" && timeout -k 5 300 "$bin" -f parm.vdb -o o >run.log 2>&1; echo $? >rc)
		(cd "$d/a" && find . -printf '%y %s %p\n' | sed 's/^f [0-9]* \(.*vdb_control.file\)/f - \1/' | sort -k3) >"$d/tree"
		ls "$d/o" >"$d/files"
		grep -E '^ *(Dec|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov) [0-9]+, [0-9]+ \.\.Interval|^ +rate +resp' "$d/run.log" |
			sed 's/^[A-Z][a-z][a-z] [0-9]*, [0-9]*/DATE/' >"$d/head"
		grep -E 'Simulating|Anchor size|Total amount|error|Note' "$d/s.log" | sed -E 's/^[0-9:.]+ //' |
			sed "s#$d#D#g" | grep -v '^Vdbench simulation' >"$d/s.txt"
	done
	r=$base/$n
	same() { cmp -s "$r/v/$1" "$r/i/$1" && echo yes || echo no; }
	rd=$(sed -n 's/^\* rate: //p' "$here/own/$n.vdb")
	first_avg='/Starting RD=/ && !/format_for/ && (rd == "" || index($0, "RD=" rd ";")) { on = 1 }
		on && $2 ~ /^avg_/ { print $3; exit }'
	v=$(awk -v rd="$rd" "$first_avg" "$r/v/run.log")
	i=$(awk -v rd="$rd" "$first_avg" "$r/i/run.log")
	ratio=$(awk -v a="$i" -v b="$v" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }')
	only=$(comm -23 "$r/v/files" "$r/i/files" | tr '\n' ' ')
	printf '%-4s %-3s %-4s %-4s %9s %9s %6s %3s %3s %s\n' "$n" "$(same s.txt)" "$(same tree)" "$(same head)" \
		"${v:--}" "${i:--}" "$ratio" "$(cat "$r/v/rc")" "$(cat "$r/i/rc")" "$only"
done
