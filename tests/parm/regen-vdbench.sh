#!/bin/bash
# Regenerate NNN-*.expected / NNN-*.vdbench-error from the real VDbench 5.04.07.
#
# usage: tests/parm/regen-vdbench.sh [NNN-name.vdb ...]     (default: all)
#   VDBENCH=/path/to/vdbench   override the VDbench launcher (default /opt/vdbench/vdbench)
#
# Every parameter file is run as
#     cd tests/parm && $VDBENCH -f NNN-name.vdb <words of NNN-name.args> -s -o <tmpdir>
# Output files:
#   valid   (exit 0)  -> NNN-name.expected: stdout lines from the first "Simulating RD="
#                        line through the "Total amount of Run Definitions:" line, with the
#                        13-character "HH:MM:SS.mmm " timestamp removed.
#   invalid (exit!=0) -> NNN-name.vdbench-error: "# line N" (taken from the
#                        "* expect: error, line N" header of the .vdb), "# exit N", then every
#                        timestamped stdout line after the "input argument scanned" lines,
#                        timestamp removed, without blank lines, without the usage text that
#                        follows "Parameterscan error", without "java.*" exception-name
#                        lines; the absolute current directory is replaced by <CWD> and its
#                        parent directory by <CWD>/.. (include= error messages).
#   NNN-name.notices (valid files that have one already or whose header has a
#                        "* check: notices" line): the lines before the first "Simulating RD="
#                        line, timestamps removed (VDbench's informational notices).
# Each file is run twice (three times if the two runs differ) to catch the occasional
# stdout race in VDbench's error path.
set -u
VDBENCH=${VDBENCH:-/opt/vdbench/vdbench}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$VDBENCH" ]; then
    echo "regen-vdbench.sh: $VDBENCH not found or not executable; nothing regenerated (skipped)."
    exit 0
fi
cd "$here" || exit 1
tmp=$(mktemp -d /tmp/ioramp-regen.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# strip timestamps, keep only VDbench's own timestamped lines after argument scanning
clean() {
    awk -v cwd="$here" '
        /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9] / {
            l = substr($0, 14)
            if (l ~ /^input argument scanned/ || l ~ /^Created output directory/) next
            if (l ~ /^ usage:/) { skip = 1; next }
            if (skip) { if (l ~ /^For documentation, browse file/) skip = 0; next }
            print l
        }'
}

runone() {   # $1 = .vdb file; prints "rc=N" then cleaned stdout
    local f=$1 base=${1%.vdb} words=()
    if [ -f "$base.args" ]; then
        read -r -a words <<< "$(grep -v '^[[:space:]]*#' "$base.args" | tr '\n' ' ')"
    fi
    rm -rf "$tmp/out"
    local out rc
    out=$("$VDBENCH" -f "$f" "${words[@]}" -s -o "$tmp/out" 2>/dev/null)
    rc=$?
    echo "rc=$rc"
    printf '%s\n' "$out" | clean
}

if [ $# -gt 0 ]; then files=("$@"); else files=([0-9][0-9][0-9]-*.vdb); fi
nvalid=0; nerr=0; nwarn=0
for f in "${files[@]}"; do
    f=${f##*/}
    base=${f%.vdb}
    r1=$(runone "$f"); r2=$(runone "$f")
    if [ "$r1" != "$r2" ]; then
        r3=$(runone "$f")
        if [ "$r3" = "$r1" ]; then r2=$r1; elif [ "$r3" = "$r2" ]; then r1=$r2
        else echo "WARNING: $f: output differs on every run; using the last"; r1=$r3; nwarn=$((nwarn+1)); fi
        echo "note: $f: unstable output, used majority of 3 runs"
    fi
    rc=$(printf '%s\n' "$r1" | head -1 | sed 's/^rc=//')
    body=$(printf '%s\n' "$r1" | tail -n +2)
    want=$(sed -n '2s/^\* expect: //p' "$f")
    if [ "$rc" = 0 ] && printf '%s\n' "$body" | grep -q '^Total amount of Run Definitions:'; then
        printf '%s\n' "$body" | awk '/^Simulating RD=/ {on=1} on {print} /^Total amount of Run Definitions:/ {exit}' > "$base.expected"
        if [ -f "$base.notices" ] || grep -q '^\* check: notices' "$f"; then
            printf '%s\n' "$body" | awk '/^Simulating RD=/ {exit} {print}' > "$base.notices"
        fi
        rm -f "$base.vdbench-error"
        nvalid=$((nvalid+1))
        case $want in valid*) ;; *) echo "WARNING: $f: header says '$want' but VDbench accepted it"; nwarn=$((nwarn+1));; esac
    else
        line=$(printf '%s\n' "$want" | sed -n 's/^error, line \(.*\)$/\1/p')
        [ -n "$line" ] || line='?'
        {
            echo "# line $line"
            echo "# exit $rc"
            printf '%s\n' "$body" | grep -v '^[[:space:]]*$' | grep -v '^java\.' | sed -e "s|$here|<CWD>|g" -e "s|$(dirname "$here")/|<CWD>/../|g"
        } > "$base.vdbench-error"
        rm -f "$base.expected"
        nerr=$((nerr+1))
        case $want in error*) ;; *) echo "WARNING: $f: header says '$want' but VDbench rejected it (exit $rc)"; nwarn=$((nwarn+1));; esac
    fi
done
echo "regen-vdbench.sh: $nvalid valid (.expected), $nerr invalid (.vdbench-error), $nwarn warnings"
