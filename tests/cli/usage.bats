#!/usr/bin/env bats
# The basic command line: --help, --version, usage errors.

load helpers

@test "--version prints the version" {
	run "$IORAMP" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^ioramp\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "--help prints the usage on stdout" {
	run "$IORAMP" --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: ioramp -f FILE"* ]]
}

@test "no arguments is a usage error with exit 2" {
	run "$IORAMP"
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage:"* ]]
}

@test "did you mean: a mistyped keyword, subcommand or library profile names the near one" {
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1,thraeds=4,rdpcnt=50\nrd=rd1,wd=wd1,iorate=10\n' \
		"$SCRATCH" >p.vdb
	run "$IORAMP" -f p.vdb -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.vdb:2:15: error: unknown keyword: thraeds in wd=wd1; expected a wd parameter; did you mean threads=? It belongs to the SD"* ]]
	sed -i 's/thraeds=4,//' p.vdb
	run "$IORAMP" -f p.vdb -s
	[[ "$output" == *"unknown keyword: rdpcnt in wd=wd1; expected a wd parameter; did you mean rdpct=?"* ]]
	printf 'sd=sd1,lun=%s/f,size=1m,xfersize=4k\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10\n' \
		"$SCRATCH" >p.vdb
	run "$IORAMP" -f p.vdb -s
	[[ "$output" == *"unknown keyword: xfersize in sd=sd1; expected an sd parameter; xfersize= is a wd parameter"* ]]
	run "$IORAMP" sute
	[ "$status" -eq 2 ]
	[ "$output" = "ioramp: error: unknown subcommand 'sute'; did you mean 'ioramp suite'?" ]
	run "$IORAMP" -f sqll -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"-f sqll: no such file, and the library has no profile sqll; did you mean -f sql?"* ]]
	# a name near nothing keeps the plain error
	run "$IORAMP" -f nonesuchthing -s
	[ "$status" -eq 2 ]
	[[ "$output" == *"nonesuchthing: cannot read: No such file or directory"* ]]
}

@test "-e shorter than two intervals says which -i fits; -e keeping a long warmup says so" {
	printf 'sd=sd1,lun=%s/f,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=60,interval=5,warmup=10\n' \
		"$SCRATCH" >p.vdb
	run "$IORAMP" -f p.vdb -s -e 6
	[ "$status" -eq 2 ]
	[[ "$output" == *"'elapsed=6' must be at least twice 'interval=5'; -e 6 is shorter than two intervals: add -i 2"* ]]
	run "$IORAMP" -f p.vdb -s -e 6 -i 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"ioramp: note: -e 6 does not shorten warmup=10 of rd=rd1: each run lasts 16 s; -w N sets the warmup too"* ]]
	run "$IORAMP" -f p.vdb -s -e 6 -i 2 -w 2
	[ "$status" -eq 0 ]
	[[ "$output" != *"note: -e"* ]]
}
