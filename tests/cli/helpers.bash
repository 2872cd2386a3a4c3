# Shared set-up for the bats suites: which binary to test and a scratch directory per test.
IORAMP=${IORAMP:-$BATS_TEST_DIRNAME/../../ioramp}
TESTS=$BATS_TEST_DIRNAME/..

setup() {
	SCRATCH=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ioramp-test.XXXXXX")
	cd "$SCRATCH" || return 1
}

teardown() {
	cd / && rm -rf "$SCRATCH"
}
