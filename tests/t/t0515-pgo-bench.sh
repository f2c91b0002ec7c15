# t0515-pgo-bench.sh - make pgo-bench on the fixture: the PGO program against a plain build of
# the same sources on a user's command (profopt compare), in time and in callgrind's counts.
# Times are never asserted (the machine is shared): only the report's structure, and the
# instruction counts, which callgrind makes deterministic.

bench_cmd='./toy ppas 20000'

# Numbers of a pgo-bench JSON report: that they follow from each other.
check_report_json() {
	python3 - "$1" "$2" <<'PY' || fail "bench.json (above)"
import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps({k: d[k] for k in ("time", "instructions") if k in d}))
assert d["command"] == "./toy ppas 20000", d["command"]
assert [b["name"] for b in d["builds"]] == ["plain", "pgo"], d["builds"]
assert d["builds"][1]["dir"] == sys.argv[2], d["builds"][1]["dir"]
assert d["builds"][0]["dir"] == sys.argv[2] + "/pgo/bench-plain/tree", d["builds"][0]["dir"]
for b in d["builds"]:
    assert len(b["samples"]) == d["rounds"] == 3 and all(s > 0 for s in b["samples"]), b
    assert min(b["samples"]) <= b["median"] <= max(b["samples"]), b
    assert b["instructions"] > 10**6 and b["processes"] >= 1, b
t = d["time"]
assert t["interval"][0] <= t["speedup"] <= t["interval"][1] and t["verdict"] in ("faster", "slower", "noise"), t
ratio = d["builds"][0]["instructions"] / d["builds"][1]["instructions"]
assert abs(d["instructions"]["speedup"] - ratio) < 1e-4 * ratio, (d["instructions"], ratio)
for f in d["slower_functions"]:
    assert f["after"] - f["before"] > d["threshold"] * f["before"], f
PY
}

# same_count KEY WHAT: KEY of pgo/bench.json within 0.01% of first.json's.
same_count() {
	local a b; a=$(json_get pgo/bench.json "$1"); b=$(json_get first.json "$1")
	awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b / 10000) }' ||
		fail "$2: $a now, $b before (more than 0.01% apart)"
}

test_plain_and_pgo_builds_made_then_reused() {
	require valgrind
	configured_fixture gcc
	make pgo-bench PGO_BENCH_COMMAND="$bench_cmd" PGO_BENCH_ROUNDS=3 > make.out 2>&1 || { cat make.out; fail "make pgo-bench"; }
	# the PGO program is the pipeline's: it ran to the end first
	expect_contains make.out '^==> training'
	expect_stamps configure instrument train merge clean use verify
	expect_contains make.out '^==> plain build \(no PGO flags\) in .*/pgo/bench-plain/tree'
	# the plain program: the same sources and configure arguments, no profile flag
	plain=pgo/bench-plain/tree
	expect_contains pgo/logs/bench-plain.log '^gcc .*-c -o interp\.o interp\.c'
	expect_not_contains pgo/logs/bench-plain.log '^gcc .*-fprofile'
	expect_contains pgo/logs/use.log '^gcc .*-fprofile-use.* -c -o interp\.o interp\.c'
	expect_contains $plain/config.log '^  \$ \./configure --enable-optimizations CC=gcc PROFOPT='
	expect_eq "$($plain/toy ppas 1000)" "$(./toy ppas 1000)" "the plain toy's answer"
	[ ! -e $plain/pgo ] || fail "the PGO pipeline's directory was copied into the plain build"
	# the report: the terminal's table, the same in bench.txt, and the JSON
	expect_contains make.out '^compare: \./toy ppas 20000$'
	expect_contains make.out '^ +plain +pgo +pgo against plain$'
	expect_contains make.out '^time +[0-9.]+ (s|ms|us) ±[0-9.]+% +[0-9.]+ (s|ms|us) ±[0-9.]+% +[0-9.]+x \[[0-9.]+,[0-9.]+\] (faster|slower|noise)  \(median of 3 rounds, interleaved; 95% interval\)'
	expect_contains make.out '^instructions +[0-9.]+ M +[0-9.]+ M +[0-9.]+x (faster|slower|same)  \(callgrind Ir, [0-9]+ and [0-9]+ processes\)'
	expect_contains make.out '^functions with more instructions in pgo than in plain \(own counts, grown by more than 2% and by at least 0\.1% of plain.s total\):'
	# (under make check, make itself says where it enters and leaves: not the table's)
	sed -n '/^compare: \.\/toy/,$p' make.out | grep -v '^make\[[0-9]*\]: ' > table.out
	cmp table.out pgo/bench.txt || fail "bench.txt is not the table shown"
	check_report_json pgo/bench.json "$PWD"
	cp pgo/bench.json first.json
	stat -c '%i %Y' toy $plain/toy > built.txt
	# a second run reuses both programs, and callgrind counts the same instructions
	make pgo-bench PGO_BENCH_COMMAND="$bench_cmd" PGO_BENCH_ROUNDS=3 > again.out 2>&1 || { cat again.out; fail "second make pgo-bench"; }
	expect_contains again.out '^==> pgo-bench: the PGO build is finished: reusing it'
	expect_contains again.out '^==> pgo-bench: the plain build in .* is newer than the PGO build: reusing it'
	expect_not_contains again.out '^==> (training|rebuild with profile|plain build)'
	stat -c '%i %Y' toy $plain/toy | cmp - built.txt || fail "a program was built again"
	# (a few instructions of a program's start-up vary between two runs: equal to 0.01%)
	same_count builds.0.instructions "plain's count"
	same_count builds.1.instructions "pgo's count"
	# an edited source: the PGO build is made again with the kept profile, and so is the plain one
	echo '/* edited */' >> interp.c
	make pgo-bench PGO_BENCH_COMMAND="$bench_cmd" PGO_BENCH_ROUNDS=3 > edited.out 2>&1 || { cat edited.out; fail "make pgo-bench after an edit"; }
	expect_contains edited.out '^==> rebuild with profile'
	expect_contains edited.out '^==> plain build \(no PGO flags\)'
	expect_contains $plain/interp.c '/\* edited \*/'
}

# Training that never runs the hot loop (only `toy version`): GCC optimizes the function no
# training ran for size, and the loop runs more instructions than in the plain build, which
# pgo-bench names.
test_training_elsewhere_names_the_slower_function() {
	require valgrind
	configured_fixture gcc
	make pgo-bench PGO_TRAIN_ARGS='-- "./toy version"' PGO_BENCH_COMMAND="$bench_cmd" PGO_BENCH_ROUNDS=3 > make.out 2>&1 ||
		{ cat make.out; fail "make pgo-bench"; }
	expect_contains make.out '^instructions .* 0\.[0-9]+x slower'
	expect_contains make.out '^  run \(toy\) +[0-9.]+ M -> +[0-9.]+ M  \+[0-9.]+%$'
	# and says what to do: train on what users run
	expect_contains make.out "^advice: pgo is slower than plain on $bench_cmd: its training ran other code than this command does .*PGO_TRAIN_ARGS = -- 'COMMAND \.\.\.'"
	check_report_json pgo/bench.json "$PWD"
	expect_eq "$(json_get pgo/bench.json instructions.verdict)" slower
	expect_eq "$(json_get pgo/bench.json slower_functions.0.function)" run
	expect_eq "$(json_get pgo/bench.json slower_functions.0.object)" toy
}

test_without_valgrind_time_only() {
	configured_fixture gcc
	VALGRIND=/nonexistent/valgrind make pgo-bench PGO_BENCH_COMMAND="$bench_cmd" PGO_BENCH_ROUNDS=3 > make.out 2>&1 ||
		{ cat make.out; fail "make pgo-bench without valgrind"; }
	expect_contains make.out '^time +[0-9.]+ '
	expect_contains make.out '^instructions +not counted: valgrind is not installed .*; time only$'
	expect_not_contains make.out '^functions with more instructions'
	expect_contains pgo/bench.json '"instructions_not_counted": "valgrind is not installed'
	expect_not_contains pgo/bench.json '"slower_functions"'
}

# clang 14 writes DWARF 5, which valgrind 3.19 cannot read: AX_PGO asks clang for DWARF 4, and
# the plain build gets the same, so callgrind counts both; a build that insists on DWARF 5 is
# said, and timed only.
test_clang() {
	require valgrind clang
	configured_fixture clang
	make pgo-bench PGO_BENCH_COMMAND="$bench_cmd" PGO_BENCH_ROUNDS=3 > make.out 2>&1 || { cat make.out; fail "make pgo-bench"; }
	expect_contains make.out '^==> plain build \(no PGO flags\)'
	expect_not_contains pgo/logs/bench-plain.log '^clang .*-fprofile'
	expect_contains pgo/logs/use.log '^clang .*-fprofile-use=.* -c -o interp\.o interp\.c'
	expect_contains make.out '^time +[0-9.]+ '
	expect_contains pgo/logs/use.log '^clang .*-fdebug-default-version=4 .*-c -o interp\.o interp\.c'
	expect_contains pgo/logs/bench-plain.log '^clang -g -O2 -fdebug-default-version=4 .*-c -o interp\.o interp\.c'
	readelf --debug-dump=info toy | grep -m1 -q 'Version: *4' || fail "the PGO toy's DWARF is not version 4"
	expect_contains make.out '^instructions +[0-9.]+ M +[0-9.]+ M +[0-9.]+x (faster|slower|same)'
	check_report_json pgo/bench.json "$PWD"
	./configure --enable-optimizations CC=clang CFLAGS='-O2 -gdwarf-5' PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	make clean > /dev/null && make pgo-bench PGO_BENCH_COMMAND="$bench_cmd" PGO_BENCH_ROUNDS=3 > make.out 2>&1 || { cat make.out; fail "make pgo-bench, DWARF 5"; }
	expect_contains make.out '^instructions +not counted: valgrind cannot read the debug information of the programs of plain: .*build with DWARF 4 \(AX_PGO.s clang flags ask for it, unless CFLAGS name a version: -gdwarf-4\).*; time only$'
}

# A time interval that holds 1 says how many rounds would decide at the spread measured: two
# programs whose runs alternate between short and long, the second 50 ms slower and out of step
# (a round pairs a short run with a long one, either way).
test_compare_says_the_rounds_that_would_decide() {
	mkdir a b
	printf '#!/bin/sh\nc=$(cat n 2> /dev/null || echo 0); echo $((c + 1)) > n\nif [ $((c %% 2)) = 0 ]; then sleep %s; else sleep %s; fi\n' 0.01 0.2 > a/prog
	printf '#!/bin/sh\nc=$(cat n 2> /dev/null || echo 0); echo $((c + 1)) > n\nif [ $((c %% 2)) = 0 ]; then sleep %s; else sleep %s; fi\n' 0.06 0.25 > b/prog
	chmod +x a/prog b/prog
	echo 1 > b/n
	"$PROFOPT" compare --command=./prog --rounds=6 --warmup=0 --callgrind=no --json=c.json one=a two=b > out 2>&1 || { cat out; fail "compare"; }
	expect_contains out '^time .* noise  \(median of 6 rounds'
	expect_contains out '^ +the interval holds 1: at this spread about [0-9]+ rounds would decide \(--rounds; make pgo-bench: PGO_BENCH_ROUNDS\)$'
	local n; n=$(sed -n 's/.*about \([0-9]*\) rounds would decide.*/\1/p' out)
	[ "$n" -gt 6 ] || fail "rounds to decide: $n"
	expect_eq "$(json_get c.json rounds_to_decide)" "$n" "rounds_to_decide in the JSON"
}

test_bad_input() {
	configured_fixture gcc
	expect_status 2 make pgo-bench
	expect_contains out 'make pgo-bench: PGO_BENCH_COMMAND is empty: give the command your users run'
	[ ! -e pgo/instrument.stamp ] || fail "nothing is built without a command"
	expect_status 2 make pgo-bench PGO_BENCH_COMMAND=true PGO_BENCH_PLAIN_DIR=..
	expect_contains out "PGO_BENCH_PLAIN_DIR '\.\.' holds this build directory"
	# a command that fails on the programs: named, with its last line, and no report
	expect_status 2 make pgo-bench PGO_BENCH_COMMAND='./toy nosuch' PGO_BENCH_ARGS=--callgrind=no
	expect_contains out 'profopt compare: error: the command failed on (plain|pgo) \(in .*, exit 2\): \./toy nosuch: usage: toy PROGRAM N'
	[ ! -e pgo/bench.json ] || fail "a report of a failed command"
	expect_status 2 make pgo-bench PGO_BENCH_COMMAND='./toy crash' PGO_BENCH_ARGS=--callgrind=no
	expect_contains out 'the command failed on (plain|pgo) .*exit 139.*\./toy crash'
	# a tree without PGO has no PGO build to compare
	./configure CC=gcc PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	expect_status 2 make pgo-bench PGO_BENCH_COMMAND="$bench_cmd"
	expect_contains out 'make pgo-bench: this tree was configured without --enable-optimizations'
}

test_out_of_tree_build() {
	require valgrind
	mkdir src build && cd src && setup_fixture && cd ../build
	../src/configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	make pgo-bench PGO_BENCH_COMMAND="$bench_cmd" PGO_BENCH_ROUNDS=3 > make.out 2>&1 || { cat make.out; fail "make pgo-bench"; }
	expect_contains make.out '^instructions +[0-9.]+ M '
	# configured by the source tree's absolute path: the plain build's directory is elsewhere
	expect_contains pgo/logs/bench-plain.log "^gcc -g -O2 .*-c -o interp\\.o $(cd ../src && pwd)/interp\\.c\$"
	[ -x pgo/bench-plain/tree/toy ] || fail "no plain toy"
	check_report_json pgo/bench.json "$PWD"
	# the plain build was configured afresh beside, never in the source tree
	[ ! -e ../src/config.status ] && [ ! -e ../src/interp.o ] || fail "the source tree was built in"
}

# profopt compare itself, on two programs that differ in one function: the deterministic list.
test_compare_names_the_function_that_grew() {
	require valgrind gcc
	printf '%s\n' '#include <stdio.h>' '#include <stdlib.h>' \
		'__attribute__((noinline)) long hot(long n) { long s = 0; for (long i = 0; i < n * WORK; i++) s += i ^ (s >> 3); return s; }' \
		'__attribute__((noinline)) long steady(long n) { long s = 0; for (long i = 0; i < n; i++) s += i * 7; return s; }' \
		'int main(int argc, char **argv) { long n = atol(argv[1]); printf("%ld %ld\n", hot(n), steady(n)); return 0; }' > p.c
	mkdir a b
	gcc -O1 -g -DWORK=1 -o a/prog p.c && gcc -O1 -g -DWORK=2 -o b/prog p.c || fail "gcc"
	"$PROFOPT" compare --command='./prog 300000' --rounds=2 --json=c.json one=a two=b > out 2>&1 || { cat out; fail "compare"; }
	expect_contains out '^  hot \(prog\) +[0-9.]+ M -> +[0-9.]+ M  \+[0-9.]+%$'
	expect_not_contains out 'steady'
	python3 -c 'import json
d = json.load(open("c.json"))
s = d["slower_functions"]
assert [f["function"] for f in s] == ["hot"], s
assert 1.9 < s[0]["after"] / s[0]["before"] < 2.1, s
assert d["instructions"]["verdict"] == "slower", d["instructions"]' || fail "c.json"
	# the same program twice: the same count, nothing slower
	mkdir a2 && cp a/prog a2/
	"$PROFOPT" compare --command='./prog 300000' --rounds=2 --json=s.json one=a two=a2 > out 2>&1 || { cat out; fail "compare, same"; }
	expect_eq "$(json_get s.json instructions.verdict)" same
	expect_eq "$(json_get s.json slower_functions)" "[]"
	expect_contains out 'than in one .*: none$'
	# usage
	expect_status 2 "$PROFOPT" compare one=a two=b
	expect_contains out 'no command'
	expect_status 2 "$PROFOPT" compare --command=true one=a
	expect_contains out 'give two builds'
	expect_status 2 "$PROFOPT" compare --command=true one=a one=b
	expect_contains out "build name 'one' given twice"
	expect_status 2 "$PROFOPT" compare --command=true --callgrind=maybe one=a two=b
	expect_contains out "^profopt compare: --callgrind wants auto, yes or no, not 'maybe'$"
	expect_status 2 "$PROFOPT" compare --command=true --threshold=1001 one=a two=b
	expect_contains out "^profopt compare: --threshold wants a percentage from 0 to 1000, not '1001'$"
	expect_status 2 "$PROFOPT" compare --command=true --confidence=1 one=a two=b
	expect_contains out "^profopt compare: --confidence wants a number between 0.5 and 1"
	expect_status 2 "$PROFOPT" compare --command=true --rounds=0 one=a two=b
	expect_contains out "^profopt compare: --rounds wants a whole number from 1 to 100000, not '0'$"
	expect_status 2 "$PROFOPT" compare --command=true --frobnicate one=a two=b
	expect_contains out "^profopt compare: unknown option '--frobnicate' \(see 'profopt compare --help'\)$"
	expect_status 1 "$PROFOPT" compare --command=true one=a two=nosuch
	expect_contains out "two: no directory 'nosuch'"
	VALGRIND=/nonexistent/valgrind expect_status 1 "$PROFOPT" compare --command=true --callgrind=yes one=a two=b
	expect_contains out 'needs valgrind, which is not installed'
}

# Issue 51: compare keeps only what it needs of a command's output (its first and last part:
# valgrind's warnings, a failure's last line), however much the command prints: 300 MB of
# output under a 400 MB address space, where keeping it all ran out of memory.
test_compare_output_is_bounded() {
	# (ASan maps terabytes of shadow memory at start, which no ulimit -v allows)
	! ldd "$PROFOPT" 2> /dev/null | grep -q libasan || skip "profopt is built with ASan: ulimit -v cannot bound it"
	mkdir a b
	local big='head -c 300000000 /dev/zero | tr "\0" x; echo; echo the-last-line'
	(ulimit -v 400000; "$PROFOPT" compare --command="$big" --rounds=2 --callgrind=no a=a b=b) > out 2>&1 ||
		{ cat out; fail "compare of a command with 300 MB of output"; }
	expect_contains out '^time '
	(ulimit -v 400000; "$PROFOPT" compare --command="$big; exit 3" --rounds=2 --callgrind=no a=a b=b) > out 2>&1 &&
		fail "a failing command passed"
	expect_contains out 'the command failed on (a|b) \(in .*, exit 3\): .*: the-last-line$'
}
