# `profopt report`: coverage of a training run from real gcc and clang profiles.

# A program with a hot function, a function never called, and a loop.
write_prog() {
	cat > prog.c <<'C'
#include <stdio.h>
static int __attribute__((noinline)) hot(int x) { return x % 3 ? x * 3 + 1 : x / 2; }
int __attribute__((noinline)) never_called(int x) { if (x > 5) return x - 1; return x + 2; }
int __attribute__((noinline)) once(int x) { return x + 1; }
int main(int argc, char **argv)
{
	long s = once(argc);
	(void)argv;
	for (int i = 0; i < 5000; i++)
		s += hot(i);
	if (argc > 5)
		s += never_called(argc);
	printf("%ld\n", s);
	return 0;
}
C
}

# The names of the functions gcov says ran / never ran (gcov's JSON, read by python3).
gcov_functions() {
	gcov --json-format --stdout "$1" 2>/dev/null | python3 -c '
import json, sys
want = sys.argv[1] == "ran"
for doc in sys.stdin:
    for f in json.loads(doc)["files"]:
        for fn in f["functions"]:
            if (fn["execution_count"] > 0) == want: print(fn["name"])' "$2" | sort
}

test_report_gcc_with_notes() {
	require gcc gcov python3
	write_prog
	gcc -O1 -fprofile-generate -ftest-coverage -o prog prog.c
	./prog > /dev/null
	"$PROFOPT" report --profile-dir=. > out || { cat out; fail "report failed"; }
	expect_contains out 'functions executed: +3 of 4 \(75\.0%\)'
	expect_contains out 'never executed: +1 function'
	expect_contains out '^prog\.c +4 +3 +1'
	# the hottest two: main's loop (5000) and hot() (called 5000 times); never_called not listed
	expect_eq "$(sed -n '/^hottest/,$p' out | sed -n '2,3p' | awk '{print $2}' | sort | tr '\n' ' ')" "hot main " "hottest"
	expect_eq "$(sed -n '/^hottest/,$p' out | grep -c never_called)" 0 "never_called among the hottest"
	"$PROFOPT" report --profile-dir=. --json > r.json
	expect_eq "$(json_get r.json functions.total)" 4
	expect_eq "$(json_get r.json functions.executed)" 3
	expect_eq "$(json_get r.json never_executed.0.name)" never_called
	expect_eq "$(json_get r.json never_executed.0.line)" 3
	expect_eq "$(json_get r.json notes_files)" 1
	[ "$(json_get r.json lines.in_never_executed_functions)" -ge 1 ] || fail "no cold lines"
	# the same verdict as gcov's own
	expect_eq "$(gcov_functions prog.gcda never)" never_called "gcov: never executed"
	expect_eq "$(gcov_functions prog.gcda ran | tr '\n' ' ')" "hot main once " "gcov: executed"
}

test_report_gcc_without_notes() {
	require gcc
	write_prog
	gcc -O1 -fprofile-generate -o prog prog.c
	./prog > /dev/null
	"$PROFOPT" report --profile-dir=. --json > r.json
	expect_eq "$(json_get r.json functions.total)" 4
	expect_eq "$(json_get r.json functions.executed)" 3
	expect_eq "$(json_get r.json notes_files)" 0
	expect_eq "$(json_get r.json lines)" null
	# global functions are named from prog's symbols (-c keeps prog.o beside prog.gcda)
	rm -f ./*.gcda && gcc -O1 -fprofile-generate -c prog.c && gcc -fprofile-generate -o prog prog.o
	./prog > /dev/null
	"$PROFOPT" report --profile-dir=. --json > r.json
	expect_eq "$(json_get r.json named_by_symbol)" 3
	expect_eq "$(json_get r.json objects_without_data)" 0
	echo 'int unused_module(int x) { return x * 2; }' > mod.c
	gcc -O1 -fprofile-generate -c mod.c
	"$PROFOPT" report --profile-dir=. --json > r.json
	expect_eq "$(json_get r.json objects_without_data)" 1
	expect_eq "$(json_get r.json never_executed.0.name)" never_called
	"$PROFOPT" report --profile-dir=. > out
	expect_contains out 'static ones numbered'
	expect_contains out '#[0-9]+  \(prog\.o\)'
}

test_report_gcc_archive_and_unloaded_object() {
	require gcc tar
	write_prog
	echo 'int unused_module(int x) { return x * 2; }' > mod.c
	gcc -O1 -fprofile-generate -ftest-coverage -c mod.c
	gcc -O1 -fprofile-generate -ftest-coverage -o prog prog.c
	./prog > /dev/null
	tar -cf profiles.tar prog.gcda
	rm prog.gcda
	"$PROFOPT" report --archive=profiles.tar --profile-dir=. --json > r.json
	expect_eq "$(json_get r.json profile_files)" 1
	expect_eq "$(json_get r.json objects_never_loaded)" 1
	expect_eq "$(json_get r.json functions.total)" 5
	expect_eq "$(json_get r.json functions.executed)" 3
}

test_report_fixture_gcc() {
	require gcc
	setup_fixture
	gcc -O1 -fprofile-generate -ftest-coverage -c interp.c main.c
	gcc -fprofile-generate -o toy interp.o main.o
	./toy ppas 20000 > /dev/null
	./toy pdpapmsq 10000 > /dev/null
	"$PROFOPT" report --profile-dir=. --json > r.json
	expect_eq "$(json_get r.json functions.total)" 2
	expect_eq "$(json_get r.json functions.executed)" 2
	expect_eq "$(json_get r.json runs)" 2
	expect_eq "$(json_get r.json hottest.0.name)" run
	expect_eq "$(json_get r.json hottest.0.file)" interp.c
}

test_report_clang() {
	require clang llvm-profdata
	write_prog
	clang -O1 -fprofile-generate -o prog prog.c
	mkdir raw
	LLVM_PROFILE_FILE=raw/prog-%p.profraw ./prog > /dev/null
	LLVM_PROFILE_FILE=raw/prog-%p.profraw ./prog a b > /dev/null
	llvm-profdata merge -o merged.profdata raw/*.profraw
	"$PROFOPT" report --profdata=merged.profdata --json > r.json || { cat r.json; fail "report failed"; }
	expect_eq "$(json_get r.json family)" clang
	expect_eq "$(json_get r.json functions.total)" 4
	expect_eq "$(json_get r.json functions.executed)" 3
	expect_eq "$(json_get r.json never_executed.0.name)" never_called
	expect_eq "$(json_get r.json hottest.0.name)" main
	expect_eq "$(json_get r.json hottest.0.max_count)" 10000 "main's loop count over two runs"
	expect_eq "$(json_get r.json hottest.1.name)" hot
	expect_eq "$(json_get r.json hottest.1.file)" prog.c
	# raw profiles directly: merged on the fly, same numbers
	"$PROFOPT" report --profile-dir=raw --json > r2.json
	expect_eq "$(json_get r2.json profile_files)" 2
	expect_eq "$(json_get r2.json functions.executed)" 3
	"$PROFOPT" report --profdata=merged.profdata > out
	expect_contains out 'functions executed: +3 of 4'
}

test_report_damaged_and_usage() {
	require gcc
	write_prog
	gcc -O1 -fprofile-generate -o prog prog.c
	./prog > /dev/null
	head -c 37 prog.gcda > cut.gcda && rm prog.gcda
	expect_status 1 "$PROFOPT" report --profile-dir=.
	expect_contains out "profopt report: error: \./cut\.gcda: offset [0-9]+ \(0x[0-9a-f]+\): .*truncated|cut\.gcda: offset"
	expect_status 2 "$PROFOPT" report
	expect_eq "$(wc -l < out)" 1 "lines of the usage error"
	expect_status 2 "$PROFOPT" report --profile-dir=. --top=0
	mkdir empty
	expect_status 1 "$PROFOPT" report --profile-dir=empty
	expect_contains out 'no profile data'
	"$PROFOPT" report --help > out
	expect_contains out -- '--list-cold'
	expect_contains out -- '-ftest-coverage'
}
