#!/usr/bin/env bats
# pattern=FILE (src/engine/pattern.c): every write carries the file's data as VDbench 5.04.07
# writes it (observed: 4-byte words in machine order, a tail under 4 bytes dropped, each write
# from the pattern's start, no stamp).

load helpers

@test "pattern=: every written block is the file's words, swapped, from its start; a short tail dropped" {
	printf 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789xy' >pat
	head -c 262144 /dev/zero >f
	printf 'pattern=%s/pat\nsd=sd1,lun=%s/f,threads=2\n' "$SCRATCH" "$SCRATCH" >p.vdb
	printf 'wd=wd1,sd=sd1,xfersize=8k,rdpct=30,seekpct=0\n' >>p.vdb
	printf 'rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' >>p.vdb
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 0 ]
	run python3 - "$SCRATCH/f" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
pat = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
words = b"".join(pat[i:i + 4][::-1] for i in range(0, len(pat), 4))
want = (words * 300)[:8192]
blocks = [d[i:i + 8192] for i in range(0, len(d), 8192)]
print(sum(b == want for b in blocks), sum(not any(b) for b in blocks), len(blocks))
PY
	# every block written (30% reads leave no read data behind in a write)
	[ "$output" = "32 0 32" ]
}

@test "pattern=: a missing or too short file is refused at its location before any I/O" {
	head -c 65536 /dev/zero >f
	printf 'pattern=%s/none\nsd=sd1,lun=%s/f\nwd=wd1,sd=sd1,rdpct=0\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' \
		"$SCRATCH" "$SCRATCH" >p.vdb
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "p.vdb:1:9: error: pattern=$SCRATCH/none: No such file or directory; expected a readable file" ]
	printf 'AB' >none
	run "$IORAMP" -f p.vdb -o out
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"holds less than 4 bytes"* ]]
	[ -z "$(tr -d '\0' <f)" ]
	printf 'ABCD' >none
	run "$IORAMP" -f p.vdb -o out -v
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"p.vdb:1:9: error: not supported yet: pattern= with data validation"* ]]
	[ -z "$(tr -d '\0' <f)" ]
}
