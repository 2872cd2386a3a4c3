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
