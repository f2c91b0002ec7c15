# verify proves use, not presence: an object counts as built with the profile only on evidence
# that a profile file lying around cannot fake (its compile command, what the compiler said, the
# profile's data for it, and for clang the object's hot/cold layout).  Each fault below was
# reported as "used profile data" and ok before.

# The whole pipeline once, then the build dropped with the profile kept: the next
# `make profile-opt` rebuilds with the profile and verifies.
trained_fixture() {
	configured_fixture "$1"
	make profile-opt > first.out 2>&1 || { cat first.out; fail "first make profile-opt"; }
	expect_contains first.out 'verify: interp.o: used profile data'
	make clean-retain-profile > crp.out 2>&1 || { cat crp.out; fail "clean-retain-profile"; }
}

# make profile-opt fails at verify, and nothing claims the build used the profile.
expect_verify_fails() {
	if make profile-opt "$@" > make.out 2>&1; then cat make.out; fail "make profile-opt succeeded"; fi
	expect_contains make.out '==> verify'
	expect_not_contains make.out 'interp.o: used profile data'
	test ! -f pgo/verify.stamp || fail "a verify stamp after a failed verify"
	expect_status 1 "$PROFOPT" summary --json pgo/configure.stamp pgo/use.stamp pgo/verify.stamp
	expect_contains out '"ok": false'
	expect_contains out '"name": "verify",'
}

test_gcc_rebuild_without_profile_use_flag() {
	configured_fixture gcc
	# The .gcda files are restored beside the objects, but the rebuild's flags lack -fprofile-use.
	expect_verify_fails PGO_USE_CFLAGS= PGO_USE_LDFLAGS=
	test -f interp.gcda || fail "the .gcda is not beside the object: the test proves nothing"
	expect_contains make.out 'verify: 0 of 2 compiled units used profile data'
	expect_contains make.out 'verify: interp.o: NO PROFILE DATA: compiled without the profile-use flag \(.*use\.log line [0-9]+\)'
	# Without the build log, the switches gcc recorded in the object (-g) say the same; an old
	# stamp given to a failing verify is removed.
	echo '{"stage": "verify", "status": "ok"}' > old.stamp
	expect_status 1 "$PROFOPT" verify --family=gcc --build-dir=. --require=interp.o --stamp=old.stamp
	expect_contains out 'interp.o: NO PROFILE DATA: compiled without the profile-use flag \(the switches recorded in the object\)'
	test ! -f old.stamp || fail "a failed verify left the old stamp"
}

# A damaged .gcda beside the objects: the use stage's check stops the rebuild before gcc reads
# it, and verify on its own refuses it too (gcc itself says nothing about a truncated one).
check_damaged_gcda() {
	if make profile-opt > make.out 2>&1; then cat make.out; fail "make profile-opt succeeded"; fi
	expect_contains make.out "damaged profile: interp\.gcda: offset [0-9]+ .*$1"
	expect_not_contains make.out 'interp.o: used profile data'
	test ! -f pgo/use.stamp && test ! -f pgo/verify.stamp || fail "a use or verify stamp after a damaged profile"
	expect_status 1 "$PROFOPT" summary --json pgo/configure.stamp pgo/use.stamp pgo/verify.stamp
	expect_contains out '"ok": false'
	gcc -O2 -c interp.c main.c  # objects for verify to judge, beside the damaged .gcda
	expect_status 1 "$PROFOPT" verify --family=gcc --build-dir=. --skip=pgo --require=interp.o
	expect_contains out "error: damaged profile: interp\.gcda: offset [0-9]+ .*$1"
	expect_contains out '1 of 2 \.gcda files under \. are damaged'
}

test_gcc_random_bytes_gcda_is_fatal() {
	trained_fixture gcc
	head -c 300 /dev/urandom > interp.gcda
	check_damaged_gcda 'bad magic'
}

test_gcc_truncated_gcda_is_fatal() {
	trained_fixture gcc
	head -c 100 interp.gcda > cut && mv cut interp.gcda
	# gcc itself does not say the file is damaged: at most that a function has no profile
	gcc -O2 -fprofile-use -Wall -c interp.c -o /dev/null 2> gcc.out || fail "gcc refused the truncated .gcda"
	expect_not_contains gcc.out 'error|corrupt|damaged|truncated|not a gcov'
	check_damaged_gcda 'truncated file'
}

test_gcc_instrumented_objects_with_counts_beside() {
	require gcc
	setup_fixture
	gcc -O1 -g -fprofile-generate -c interp.c main.c
	gcc -fprofile-generate -o toy interp.o main.o
	./toy ppas 1000 > /dev/null
	test -f interp.gcda || fail "no .gcda"
	expect_status 1 "$PROFOPT" verify --family=gcc --build-dir=. --require=interp.o --list
	expect_contains out 'interp.o: NO PROFILE DATA: an instrumented object'
	expect_contains out 'verify: 0 of 2 compiled units'
}

test_clang_source_changed_after_training() {
	trained_fixture clang
	sed -i "s/default: break;/case 'z': if (sp >= 1 \&\& acc > 3) acc = 0; break;\n\t\t\tdefault: break;/" interp.c
	grep -q "case 'z'" interp.c || fail "could not edit interp.c"
	# the use stage stops on a source changed since training; tolerated, verify tells the unit
	expect_status 2 make profile-opt
	expect_contains out 'the profile is stale: 1 source changed since training'
	expect_verify_fails PGO_MAX_CHANGED=1
	expect_contains make.out 'interp.o: NO PROFILE DATA: the compiler said \(.*use\.log:[0-9]+\): .*hash mismatch'
	# Without the log, the object itself shows it: compiled as without profile.
	local llvm_profdata; llvm_profdata=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	expect_status 1 "$PROFOPT" verify --family=clang --build-dir=. --profdata=pgo/merged.profdata --tool="$llvm_profdata" --require=interp.o
	expect_contains out 'interp.o: NO PROFILE DATA: compiled as without profile: none of its functions is laid out hot or cold'
	expect_contains out 'verify: 1 of 2 compiled units used profile data'
}

test_clang_good_build_proved_from_the_object() {
	trained_fixture clang
	make profile-opt > make.out 2>&1 || { cat make.out; fail "rebuild"; }
	expect_contains make.out 'verify: interp.o: used profile data \(command: .*use\.log line [0-9]+; .*object: hot/cold sections\)'
	expect_eq "$(json_get pgo/verify.stamp units_with_profile)" 2
	expect_eq "$(json_get pgo/verify.stamp without_profile.compiler_complained)" 0
	# Without the log, clang's layout of the object proves the use.
	local llvm_profdata; llvm_profdata=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	expect_status 0 "$PROFOPT" verify --family=clang --build-dir=. --profdata=pgo/merged.profdata --tool="$llvm_profdata" --require=interp.o
	expect_contains out 'interp.o: used profile data \(command: unknown; .*object: hot/cold sections\)'
}

test_clang_rebuild_without_profile_flag() {
	configured_fixture clang
	expect_verify_fails PGO_USE_CFLAGS= PGO_USE_LDFLAGS=
	expect_contains make.out 'interp.o: NO PROFILE DATA: compiled without the profile-use flag'
}

test_corrupted_profile_in_build_log_is_fatal() {
	require gcc
	setup_fixture
	gcc -O1 -c interp.c main.c
	printf 'gcc -O1 -fprofile-use -c -o interp.o interp.c\ninterp.c: warning: profile data may be corrupted\n' > build.log
	expect_status 1 "$PROFOPT" verify --family=gcc --build-dir=. --build-log=build.log
	expect_contains out 'error: the compiler found a profile damaged \(build\.log:2: .*may be corrupted\)'
	expect_not_contains out 'warning: the compiler found'
}

# A big log is read in linear time, and a NUL byte hides nothing after it (check and verify).
test_build_log_large_and_binary() {
	require gcc python3
	setup_fixture
	gcc -O1 -g -fprofile-use -Wno-missing-profile -c interp.c main.c
	python3 - <<'EOF'
with open("big.log", "wb") as f:
    for i in range(100000):
        f.write(b"gcc -O2 -fprofile-use -c -o obj%d.o src%d.c\n" % (i, i))
        f.write(b"src%d.c:1:1: warning: coverage mismatch for function 'f' [-Wcoverage-mismatch]\n" % i)
    f.write(b"gcc -O1 -fprofile-use -c -o interp.o interp.c\nnoise \0 after a NUL byte\n")
    f.write(b"interp.c:4:6: warning: './interp.gcda' profile count data file not found [-Wmissing-profile]\n")
EOF
	local start=$SECONDS
	expect_status 0 timeout 60 "$PROFOPT" check --build-log=big.log --max-changed=999999
	expect_contains out '100000 stale, 0 corrupted, 1 missing'
	expect_status 1 timeout 60 "$PROFOPT" verify --family=gcc --build-dir=. --build-log=big.log --require=interp.o
	expect_contains out "interp.o: NO PROFILE DATA: the compiler said \(big\.log:200003\): .*interp\.gcda' profile count data file not found"
	[ $((SECONDS - start)) -lt 20 ] || fail "reading a 200,000-line log took $((SECONDS - start)) s"
}

# Clang 19: the same evidence, from its log line and from the object alone.
test_clang19_hash_mismatch() {
	require clang-19
	local tool=/usr/lib/llvm-19/bin/llvm-profdata
	[ -x "$tool" ] || skip "no llvm-profdata of clang 19"
	setup_fixture
	clang-19 -O2 -fprofile-generate -o toy interp.c main.c
	LLVM_PROFILE_FILE=t.profraw ./toy ppas 200000 > /dev/null
	"$tool" merge -o t.profdata t.profraw
	clang-19 -O2 -fprofile-use=t.profdata -c interp.c main.c
	expect_status 0 "$PROFOPT" verify --family=clang --build-dir=. --profdata=t.profdata --tool="$tool" --require=interp.o
	expect_contains out 'verify: 2 of 2 compiled units used profile data'
	sed -i "s/default: break;/case 'z': if (sp >= 1 \&\& acc > 3) acc = 0; break;\n\t\t\tdefault: break;/" interp.c
	{ echo "clang-19 -O2 -fprofile-use=t.profdata -c interp.c"; clang-19 -O2 -fprofile-use=t.profdata -c interp.c 2>&1; } > build.log
	expect_contains build.log 'hash mismatch'
	expect_status 1 "$PROFOPT" verify --family=clang --build-dir=. --profdata=t.profdata --tool="$tool" --require=interp.o
	expect_contains out 'interp.o: NO PROFILE DATA: compiled as without profile'
	expect_status 1 "$PROFOPT" verify --family=clang --build-dir=. --profdata=t.profdata --tool="$tool" --require=interp.o --build-log=build.log
	expect_contains out 'interp.o: NO PROFILE DATA: the compiler said \(build\.log:2\): .*hash mismatch'
}

# An optimized program that crashes where its instrumented build ran (a miscompile; here the
# fixture's fault switch, set once the training is done): verify runs the training's tasks on
# it, names the crash, and no stamp says ok, neither now nor when make runs again.
check_optimized_crash_fails_verify() {
	trained_fixture "$1"
	expect_contains first.out '==> verify: the optimized program runs the training.s tasks'
	if TOY_CRASH_ON=ppmdxs make profile-opt > make.out 2>&1; then
		cat make.out; fail "make profile-opt succeeded with an optimized program that crashes"
	fi
	expect_contains make.out 'mix: crashed \(killed by signal 11'
	expect_contains make.out '1 of 4 tasks crashed \(--no-crash\): mix'
	test ! -f pgo/verify.stamp || fail "a verify stamp after a crash"
	expect_status 1 "$PROFOPT" summary --json pgo/configure.stamp pgo/use.stamp pgo/verify.stamp
	expect_contains out '"ok": false'
	# The same program stays refused: make runs verify again, and fails again.
	if TOY_CRASH_ON=ppmdxs make profile-opt > again.out 2>&1; then cat again.out; fail "a second make profile-opt succeeded"; fi
	expect_contains again.out '1 of 4 tasks crashed \(--no-crash\): mix'
	test ! -f pgo/verify.stamp || fail "a verify stamp after the second run"
	# A task that only fails ("fails" exits 1) does not stop the run: without the crash, ok.
	make profile-opt > fixed.out 2>&1 || { cat fixed.out; fail "verify without the crash"; }
	expect_contains pgo/logs/verify-run.log 'fails: failed \(exit 1\)'
	test -f pgo/verify.stamp || fail "no verify stamp after a good run"
	# the stage's record counts the run too (its duration is at least the run's)
	python3 -c 'import json,sys; v=json.load(open("pgo/verify.stamp"))["seconds"]; r=float(sys.argv[1]); sys.exit(0 if v >= r else 1)' \
		"$(sed -n 's/.*passed (exit 0) after \([0-9.]*\) s.*/\1/p' pgo/logs/verify-run.log)" || fail "verify's record is shorter than its run"
}

test_gcc_optimized_crash_fails_verify() { check_optimized_crash_fails_verify gcc; }
test_clang_optimized_crash_fails_verify() { check_optimized_crash_fails_verify clang; }

# Clang lays out lukewarm functions neither hot nor cold, though it applied their counts (here
# every function of w.o: its section prefixes turned off).  With the command in the log, no
# complaint and the source as trained (the fingerprint: records with matching hashes), the unit
# used the profile; changed since, or libtool's other copy laid out and this one not, it did not.
test_clang_lukewarm_unit_as_trained_used_the_profile() {
	require clang readelf
	local tool; tool=$(dirname "$(readlink -f "$(command -v clang)")")/llvm-profdata
	[ -x "$tool" ] || skip "no llvm-profdata beside clang"
	printf 'int work(int n);\nint main(int c, char **v) { return work(200000 * c) == 7; }\n' > a.c
	printf 'int never(int n) { return n * 3 + 1; }\nint work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i %% 3 ? i : -i; return s; }\n' > w.c
	clang -O2 -fprofile-generate -o a a.c w.c && LLVM_PROFILE_FILE=a.profraw ./a
	"$tool" merge -o m.profdata a.profraw
	"$PROFOPT" check --write-fingerprint=sources.fp --source-dir=. 2> /dev/null
	local f use="clang -O2 -fprofile-use=m.profdata" lukewarm="-mllvm -profile-guided-section-prefix=false"
	for f in a w; do echo "$use $lukewarm -c $f.c -o $f.o"; $use $lukewarm -c $f.c -o $f.o 2>&1; done > build.log
	$use $lukewarm -S -emit-llvm -o - w.c | grep -q 'function_entry_count' || fail "clang applied no counts to w.c"
	! readelf -SW w.o | grep -q '\.text\.\(hot\|unlikely\)' || fail "w.o has hot/cold sections"
	local verify="$PROFOPT verify --family=clang --build-dir=. --profdata=m.profdata --tool=$tool --build-log=build.log --list"
	expect_status 0 $verify --fingerprint=sources.fp --require=w.o
	expect_contains out 'verify: 2 of 2 compiled units used profile data'
	expect_contains out 'w\.o: used profile data \(command: build\.log line 2; .*source as trained: lukewarm'
	# without the fingerprint it cannot tell a hash mismatch libtool hid, and says so
	expect_status 1 $verify --require=w.o
	expect_contains out 'w\.o: NO PROFILE DATA: compiled as without profile: .*--fingerprint would tell'
	# libtool's other copy of w.c laid out hot/cold: this one's hashes differ
	mkdir .libs && $use -c w.c -o .libs/w.o && echo "$use -c w.c -o .libs/w.o" >> build.log
	expect_status 1 $verify --fingerprint=sources.fp --require=w.o
	expect_contains out 'verify: 2 of 3 compiled units'
	expect_contains out 'w\.o: NO PROFILE DATA: .*hash mismatch: another compile of its source has them'
	rm -r .libs && sed -i '$d' build.log
	echo '/* edited */' >> w.c
	expect_status 1 $verify --fingerprint=sources.fp --require=w.o
	expect_contains out 'w\.o: NO PROFILE DATA: .*hash mismatch: its source changed since training\)'
}

# Issue 51: a .gcda of another unit beside an object (gcc: "profile for function 'F' not found
# in profile data" for each of its functions) is no profile used; one function new since
# training, its unit's others matched, still is.  And a complaint about an earlier compile of an
# object is not about its last one: the object compiled cleanly again used the profile.
gcc_two_units() {
	printf 'int f1(int x) { return x * 2; }\nint f2(int x) { return x + 3; }\n' > a.c
	printf 'int f1(int), f2(int);\nint g1(int x) { return x - 1; }\nint main(int c, char **v) { return f1(c) + f2(c) + g1(c) > 100; }\n' > b.c
	gcc -O2 -fprofile-generate -c a.c && gcc -O2 -fprofile-generate -c b.c && gcc -fprofile-generate a.o b.o -o p && ./p ||
		fail "the instrumented build"
}
# use_compile LOG SOURCE: the profile-use compile of SOURCE, echoed and its diagnostics, into LOG.
use_compile() {
	echo "gcc -O2 -fprofile-use -c -o ${2%.c}.o $2" >> "$1"
	gcc -O2 -fprofile-use -c -o "${2%.c}.o" "$2" >> "$1" 2>&1 || fail "compile $2"
}

test_gcc_gcda_of_another_unit_is_not_used() {
	require gcc
	gcc_two_units
	cp a.gcda a.good && cp b.gcda a.gcda
	use_compile build.log a.c && use_compile build.log b.c
	expect_contains build.log "profile for function .f1. not found in profile data"
	expect_status 1 "$PROFOPT" verify --family=gcc --build-dir=. --build-log=build.log --require=a.o
	expect_contains out 'a\.o: NO PROFILE DATA: the compiler found no profile for any of its 2 functions \(build\.log:[0-9]+: .*not found in profile data'
	expect_contains out 'verify: 1 of 2 compiled units used profile data'
	# A function new since training, beside one the profile matched: used, and said.
	cp a.good a.gcda && printf 'int f3(int x) { return x - 7; }\n' >> a.c
	use_compile new.log a.c && use_compile new.log b.c
	expect_contains new.log "profile for function .f3. not found in profile data"
	expect_status 0 "$PROFOPT" verify --family=gcc --build-dir=. --build-log=new.log --require=a.o
	expect_contains out 'verify: 2 of 2 compiled units used profile data'
}

test_earlier_compile_complaint_ends_with_a_clean_compile() {
	require gcc
	gcc_two_units
	# the first compile of a.c: a stale profile (as gcc words it); then a.c compiled cleanly
	# again, its log after the first one's, as the use stage keeps them
	use_compile both.log a.c
	echo "a.c:1:5: warning: the control flow of function 'f1' does not match its profile data (counter 'arcs') [-Wcoverage-mismatch]" >> both.log
	use_compile both.log b.c
	expect_status 1 "$PROFOPT" verify --family=gcc --build-dir=. --build-log=both.log --require=a.o
	expect_contains out 'a\.o: NO PROFILE DATA: the compiler said'
	use_compile both.log a.c
	expect_status 0 "$PROFOPT" verify --family=gcc --build-dir=. --build-log=both.log --require=a.o
	expect_contains out 'verify: 2 of 2 compiled units used profile data'
	# a message before any compile of its source belongs to none
	{ echo "a.c:1:5: warning: the control flow of function 'f1' does not match its profile data [-Wcoverage-mismatch]"; cat both.log; } > first.log
	expect_status 0 "$PROFOPT" verify --family=gcc --build-dir=. --build-log=first.log --require=a.o
}
