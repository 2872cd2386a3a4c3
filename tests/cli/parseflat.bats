#!/usr/bin/env bats
# ioramp parseflat: VDbench's selective flatfile parsing over a fixed flatfile written by the
# report observers (tests/data/report/flatfile.html), and VDbench's own parseflat reading it.

load helpers
bats_require_minimum_version 1.5.0

FLAT=$BATS_TEST_DIRNAME/../data/report/flatfile.html

@test "parseflat selects columns case-insensitively and echoes the names as typed" {
	run --separate-stderr "$IORAMP" parseflat -i "$FLAT" -c RUN interval Rate resp
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "RUN,interval,Rate,resp" ]
	[ "${lines[1]}" = "SD_format,1,400,0.1004" ]
	[ "${lines[2]}" = "rd1,1,115,0.4354" ]
	[ "${lines[6]}" = "rd1,5,151,0.2186" ]
	[ "${#lines[@]}" -eq 11 ]
	[[ "$output" != *avg_* ]]
}

@test "parseflat -a keeps only the avg_ lines without the format pass's, -t separates with tabs" {
	run --separate-stderr "$IORAMP" parseflat -i "$FLAT" -c run interval rate -a -t
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf 'run\tinterval\trate')" ]
	[ "${lines[1]}" = "$(printf 'rd1\tavg_3-5\t142')" ]
	[ "${#lines[@]}" -eq 4 ]
	[[ "$output" != *SD_format* ]]
	# asked for by name, it is there (VDbench lists it under -a)
	run --separate-stderr "$IORAMP" parseflat -i "$FLAT" -c run interval rate -a -f run sd_format
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "SD_format,avg_2-1,0" ]
}

@test "parseflat filters are case-insensitive and all must hold" {
	run --separate-stderr "$IORAMP" parseflat -q -i "$FLAT" -c run interval rate -f run RD1 -f Interval 4
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'run,interval,rate\nrd1,4,142')" ]
	run "$IORAMP" parseflat -q -i "$FLAT" -c run xfersize -f run rd2 interval 1
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'run,xfersize\nrd2,4096\nrd2,8192')" ]
	run "$IORAMP" parseflat -q -i "$FLAT" -c run -f threads -1 interval 1 run rd1
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'run\nrd1')" ]
}

@test "parseflat all writes every column under the file's own names" {
	run "$IORAMP" parseflat -q -i "$FLAT" -c all -f run rd1 interval 2
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "tod,timestamp,Run,Interval,reqrate,rate,MB/sec,bytes/io,"* ]]
	[[ "${lines[0]}" == *",cpu_wait,cpu_idle" ]]
	[[ "${lines[1]}" == "08:04:20.012,11/30/2026-08:04:20-UTC,rd1,2,200,124,0.6953,5879,"* ]]
	[ "${#lines[@]}" -eq 2 ]
}

@test "parseflat reads the flatfile of an output directory and writes -o" {
	mkdir out
	cp "$FLAT" out/flatfile.html
	run --separate-stderr "$IORAMP" parseflat -i out -o sel.csv -c run rate -a
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}\ ParseFlat\ completed\ successfully\.$ ]]
	[ "$(head -2 sel.csv)" = "$(printf 'run,rate\nrd1,142')" ]
}

@test "parseflat is quiet on stderr; -v echoes its arguments as VDbench does" {
	run --separate-stderr "$IORAMP" parseflat -i "$FLAT" -c run
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	run --separate-stderr "$IORAMP" parseflat -i "$FLAT" -c run -v
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "ioramp parseflat arguments:" ]
	[ "${stderr_lines[1]}" = "Argument 0: -i" ]
	[ "${stderr_lines[4]}" = "Argument 3: run" ]
	run --separate-stderr "$IORAMP" parseflat -i "$FLAT" -c run -q
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "parseflat prints question marks as 0" {
	printf '* c\n tod timestamp Run Interval rate\n08:00:01.000 x rd1 1 ?\n' >q.html
	run "$IORAMP" parseflat -q -i q.html -c run rate
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'run,rate\nrd1,0')" ]
}

@test "parseflat: an unknown column is an input error (2), nothing matching a failure (1)" {
	run --separate-stderr "$IORAMP" parseflat -q -i "$FLAT" -c run nosuch
	[ "$status" -eq 2 ]
	[[ "$stderr" == "ioramp parseflat: error: column 'nosuch' unknown; expected a column of"* ]]
	[ -z "$output" ]
	run --separate-stderr "$IORAMP" parseflat -q -i "$FLAT" -c run -f run rd9
	[ "$status" -eq 1 ]
	[ "$output" = "run" ]
	[ "$stderr" = "No output written. Check column names and filters" ]
	run "$IORAMP" parseflat -q -i nonexistent.html -c run
	[ "$status" -eq 1 ]
	[[ "$output" == *"nonexistent.html: No such file or directory"* ]]
}

@test "parseflat usage errors exit 2" {
	run "$IORAMP" parseflat -q -c run
	[ "$status" -eq 2 ]
	[[ "$output" == *"no input file specified"* ]]
	[[ "$output" == *"usage: ioramp parseflat"* ]]
	run "$IORAMP" parseflat -q -i "$FLAT"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no data columns specified"* ]]
	run "$IORAMP" parseflat -q -i "$FLAT" -c run -f run
	[ "$status" -eq 2 ]
	[[ "$output" == *"'-f' filters must be specified in pairs"* ]]
	run "$IORAMP" parseflat -q -i "$FLAT" -c run -x
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid parameter: -x"* ]]
}

@test "VDbench's own parseflat reads ioramp's flatfile" {
	[ -x /opt/vdbench/vdbench ] || skip "VDbench not installed at /opt/vdbench"
	command -v java >/dev/null || skip "java not installed"
	run /opt/vdbench/vdbench parseflat -i "$FLAT" -o vdb.csv -c run interval rate resp
	[ "$status" -eq 0 ]
	[[ "$output" == *"ParseFlat completed successfully."* ]]
	"$IORAMP" parseflat -q -i "$FLAT" -o ours.csv -c run interval rate resp >/dev/null
	diff vdb.csv ours.csv
	[ "$(sed -n 3p vdb.csv)" = "rd1,1,115,0.4354" ]
}
