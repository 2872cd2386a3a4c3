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

# has_jsonschema: whether python3 can check documents against doc/results.schema.json.
has_jsonschema() {
	python3 -c 'import jsonschema' 2>/dev/null
}

# schema_valid FILE...: checks the schema itself, then every results.json given; prints "valid"
# or the first violation (call under `run`).
schema_valid() {
	python3 - "$TESTS/../doc/results.schema.json" "$@" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
for path in sys.argv[2:]:
    jsonschema.Draft202012Validator(schema).validate(json.load(open(path)))
print("valid")
PY
}

# chart_of FILE TITLE: every <svg> chart of the page whose title (aria-label) is TITLE, whole.
chart_of() {
	awk -v t="aria-label=\"$2\"" 'index($0, "<svg ") && index($0, t) { on = 1 }
		on { print } on && index($0, "</svg>") { on = 0 }' "$1"
}
