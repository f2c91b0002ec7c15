# Crafted inputs of ~200,000 records (several MB) for every command that reads profiles:
# each finishes within a few seconds (no nested scans), and NUL bytes hide nothing.

# gcov_files DIR N: a .gcno and a .gcda (GCC 12 format) of N functions, in DIR/big.*;
# every function has one counted arc, whose counter is its number (0 for the first).
gcov_files() {
	require python3
	mkdir -p "$1"
	python3 - "$1" "$2" <<'PY'
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
w = lambda *v: struct.pack('<%dI' % len(v), *v)
s = lambda t: w(len(t) + 1) + t + b'\0'
version = (ord('B') << 24) | (ord('2') << 16) | (ord('2') << 8) | ord('*')
notes = [w(0x67636e6f, version, 7, 0), s(b'/'), w(0)]
data = [w(0x67636461, version, 7, 0)]
for i in range(n):
    body = w(i + 1, 11, 22) + s(b'f%d' % i) + w(0) + s(b'big.c') + w(i + 1, 1, i + 2, 1)
    notes.append(w(0x01000000, len(body)) + body)
    notes.append(w(0x01430000, 12, 0, 1, 0))
    data.append(w(0x01000000, 12, i + 1, 11, 22))
    data.append(w(0x01a10000, 8) + struct.pack('<Q', i))
open(d + '/big.gcno', 'wb').write(b''.join(notes))
data.append(w(0))  # the end-of-file word libgcov writes
open(d + '/big.gcda', 'wb').write(b''.join(data))
PY
}

# elapsed COMMAND...: runs it (output in ./out, status in $rc), seconds taken in $secs
elapsed() {
	local t0; t0=$(date +%s.%N)
	set +e; "$@" > out 2>&1; rc=$?; set -e
	secs=$(echo "$(date +%s.%N) - $t0" | bc)
}
fast_enough() { # WHAT: fails unless $secs < 5
	awk -v s="$secs" 'BEGIN { exit !(s < 5) }' || { head -c 2000 out; fail "$1 took $secs s"; }
}

test_report_gcc_200000_functions() {
	require bc
	gcov_files big 200000
	[ "$(stat -c %s big/big.gcno)" -gt 5000000 ] || fail "the crafted notes are too small"
	elapsed "$PROFOPT" report --profile-dir=big --json
	fast_enough "report of 200,000 functions"
	expect_eq "$rc" 0 "report's exit status"
	cp out r.json
	expect_eq "$(json_get r.json functions.total)" 200000
	expect_eq "$(json_get r.json functions.executed)" 199999
	expect_eq "$(json_get r.json never_executed.0.name)" f0
	expect_eq "$(json_get r.json mismatched_files)" 0
}

test_diff_gcc_200000_functions() {
	require bc
	gcov_files a 200000
	mkdir b && cp a/big.gcda b/
	rm a/big.gcno
	elapsed "$PROFOPT" diff --json a b
	fast_enough "diff of 200,000 functions"
	expect_eq "$rc" 0 "diff's exit status (identical)"
	cp out d.json
	expect_eq "$(json_get d.json similarity)" 1.0
	expect_eq "$(json_get d.json identical)" true
}

# A raw profile (format version 8, 64-bit) of N records that all claim the same C counters.
profraw_shared_counters() {
	python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
path, n, c = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
q = lambda *v: struct.pack('<%dQ' % len(v), *v)
head = q(0xff6c70726f667281, 8 | (1 << 56), 0, n, 0, c, 0, 0, 0, 0, 1)
# the counter pointer of record i is relative to the record: -48*i points every one at 0
recs = b''.join(q(i, 7, (-48 * i) % (1 << 64), 0, 0) + struct.pack('<IHH', c, 0, 0) for i in range(n))
counters = q(*([0] * (c - 1) + [5]))
open(path, 'wb').write(head + recs + counters)
PY
}

test_check_raw_200000_records() {
	require bc python3
	profraw_shared_counters big.profraw 200000 20000
	[ "$(stat -c %s big.profraw)" -gt 9000000 ] || fail "the crafted raw profile is too small"
	# the tool is `true`: only profopt's own reading is timed
	elapsed "$PROFOPT" check-raw --tool=true --json big.profraw
	fast_enough "check-raw of 200,000 records x 20,000 counters"
	expect_eq "$rc" 0 "check-raw's exit status"
	cp out c.json
	expect_eq "$(json_get c.json 0.functions)" 200000
	expect_eq "$(json_get c.json 0.executed)" 200000
	expect_eq "$(json_get c.json 0.counters)" 20000
}

# A fake llvm-profdata whose `show` prints FILE (a crafted text), for report's reader.
fake_show() {
	fake_bin llvm-profdata "if [ \"\$1\" = show ]; then cat '$PWD/$1'; else exit 1; fi"
}

test_report_clang_200000_functions_and_a_nul() {
	require bc python3
	python3 - <<'PY'
with open('show.txt', 'wb') as f:
    f.write(b'Counters:\n  first\0hidden:\n    Function count: 3\n    Block counts: [0, 2]\n')
    for i in range(1, 200000):
        f.write(b'  f%d:\n    Hash: 0x1\n    Counters: 3\n    Block counts: [%d, 0, 1]\n' % (i, i % 2))
    f.write(b'Instrumentation level: IR  entry_first = 0\n')
PY
	fake_show show.txt
	touch merged.profdata
	elapsed "$PROFOPT" report --profdata=merged.profdata --tool="$PWD/fakebin/llvm-profdata" --json --top=3
	fast_enough "report of 200,000 clang functions"
	expect_eq "$rc" 0 "report's exit status"
	cp out r.json
	# a NUL byte in the first name hides neither that function nor the 199,999 after it
	expect_eq "$(json_get r.json functions.total)" 200000
	expect_eq "$(json_get r.json functions.executed)" 200000
	expect_eq "$(json_get r.json hottest.0.name)" 'first?hidden'
	expect_eq "$(json_get r.json format)" IR
}

test_diff_damaged_or_missing_input_is_an_error_not_a_difference() {
	require python3
	gcov_files a 10
	rm a/big.gcno
	mkdir b && head -c 100 a/big.gcda > b/big.gcda
	expect_status 2 "$PROFOPT" diff a b
	expect_contains out 'profopt diff: error: b/big\.gcda: offset [0-9]+ .*truncated'
	expect_status 2 "$PROFOPT" diff a missing-dir
	expect_contains out 'missing-dir: No such file or directory'
	expect_status 2 "$PROFOPT" diff a.profdata missing.profdata
	expect_contains out 'a\.profdata: No such file or directory'
	printf 'not a tar' > junk.tar
	expect_status 2 "$PROFOPT" diff a junk.tar
	expect_contains out 'junk\.tar is neither a directory nor a stash'
}
