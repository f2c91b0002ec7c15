# t0770-coverage.sh - `profopt coverage`: what a training reached per group of units, from
# `profopt report --json` of real gcc and clang profiles of the fixture, trained two ways.

# The fixture's interpreter (interp.c: run; main.c: main) and a module nothing calls
# (extra.c), grouped: interp, driver, extras.
fixture_with_extra() {
	setup_fixture
	cat > extra.c <<'C'
long extra_twice(long x) { return 2 * x; }
long extra_thrice(long x) { return 3 * x + (x > 7); }
C
	printf '# the fixture by role\ninterp interp.*\ndriver main.c\nextras extra.c\n' > groups.txt
}

# train_two CC FLAGS...: builds toy instrumented, and writes version.json (a training that only
# asks for the version: run() never runs) and work.json (a training that runs programs).
train_two() {
	local cc=$1
	shift
	"$cc" -O1 "$@" -c interp.c main.c extra.c
	"$cc" "$@" -o toy interp.o main.o extra.o
	if [ "$cc" = clang ]; then
		LLVM_PROFILE_FILE=version.profraw ./toy version > /dev/null
		LLVM_PROFILE_FILE=work.profraw ./toy ppas 3000 > /dev/null
		LLVM_PROFILE_FILE=work.profraw ./toy pdpapmsq 2000 > /dev/null
		for t in version work; do
			llvm-profdata merge -o $t.profdata $t.profraw
			"$PROFOPT" report --profdata=$t.profdata --json --top=1000000 > $t.json || fail "report on $t.profdata"
		done
	else
		./toy version > /dev/null
		"$PROFOPT" report --profile-dir=. --json --top=1000000 > version.json || fail "report (version)"
		rm -f ./*.gcda
		./toy ppas 3000 > /dev/null && ./toy pdpapmsq 2000 > /dev/null
		"$PROFOPT" report --profile-dir=. --json --top=1000000 > work.json || fail "report (work)"
	fi
}

# The same verdicts for every kind of profile: the version training reached the driver only,
# the work training also the interpreter, and neither the extras.
expect_split() {
	expect_contains out '^interp +0/1 +0/1 +0\.0% +0\.0% +1/1 +1/1 100\.0% +[0-9.]+%$'
	expect_contains out '^driver +1/1 +1/1 100\.0% +100\.0% +1/1 +1/1 100\.0% +[0-9.]+%$'
	expect_contains out '^extras +0/1 +0/2 +0\.0% +0\.0% +0/1 +0/2 +0\.0% +0\.0%$'
	expect_contains out '^not reached \(no function executed\):$'
	expect_contains out '^  version: interp, extras$'
	expect_contains out '^  work: extras$'
	expect_not_contains out '^other'
}

test_gcc_groups_split_two_trainings() {
	require gcc
	fixture_with_extra
	train_two gcc -fprofile-generate -ftest-coverage
	"$PROFOPT" coverage --groups=groups.txt version=version.json work=work.json > out || { cat out; fail "coverage failed"; }
	expect_split
	expect_contains out '^ +version \(gcc\) +work \(gcc\)'
	expect_contains out '^total +1/3 +1/4 +25\.0% +100\.0% +2/3 +2/4 +50\.0% +100\.0%$'
	"$PROFOPT" coverage --groups=groups.txt --json version=version.json work=work.json > c.json
	expect_eq "$(json_get c.json groups.0.name)" interp
	expect_eq "$(json_get c.json groups.0.results.0.input)" version
	expect_eq "$(json_get c.json groups.0.results.0.reached)" false
	expect_eq "$(json_get c.json groups.0.results.1.reached)" true
	expect_eq "$(json_get c.json groups.0.results.1.executed)" 1
	expect_eq "$(json_get c.json groups.2.results.1.functions)" 2
	expect_eq "$(json_get c.json not_reached.version)" '["interp", "extras"]'
	expect_eq "$(json_get c.json not_reached.work)" '["extras"]'
	expect_eq "$(json_get c.json not_in_profile.work)" '[]'
	# the counts of the run: run()'s loop dominates the work training, as the report says
	python3 -c 'import json
c = json.load(open("c.json")); r = json.load(open("work.json"))
total = sum(f["count_sum"] for f in r["files"])
interp = [g for g in c["groups"] if g["name"] == "interp"][0]["results"][1]
assert interp["count_sum"] == sum(f["count_sum"] for f in r["files"] if f["file"] == "interp.c"), interp
assert abs(interp["count_share"] - interp["count_sum"] / total) < 1e-6 and interp["count_share"] > 0.99, interp
assert c["inputs"][1]["count_sum"] == total, c["inputs"]
' || fail "count shares do not follow from the report (c.json, work.json)"
}

test_gcc_without_notes_groups_objects() {
	require gcc
	fixture_with_extra
	train_two gcc -fprofile-generate
	# units are objects (interp.o, main.o, extra.o): matched as their sources
	"$PROFOPT" coverage --groups=groups.txt version=version.json work=work.json > out || { cat out; fail "coverage failed"; }
	expect_split
}

test_clang_objects_place_global_functions() {
	require clang llvm-profdata nm
	fixture_with_extra
	train_two clang -fprofile-generate
	# clang's profile names no file for global functions: without the objects they have no unit
	"$PROFOPT" coverage --groups=groups.txt version=version.json work=work.json > out || { cat out; fail "coverage failed"; }
	expect_contains out '^\(no file\) +1/1 +1/4 +25\.0% +100\.0% +1/1 +2/4 +50\.0% +100\.0%$'
	expect_contains out 'version: .*--objects=BUILD_DIR places them'
	expect_contains out '^not in the profile .*:$'
	expect_contains out '^  version: interp, driver, extras$'
	# with them (nm on the objects of this directory), the same split as gcc's
	"$PROFOPT" coverage --groups=groups.txt --objects=. version=version.json work=work.json > out || { cat out; fail "coverage failed"; }
	expect_split
	expect_not_contains out 'no file'
	"$PROFOPT" coverage --groups=groups.txt --objects=. --json version=version.json work=work.json > c.json
	expect_eq "$(json_get c.json inputs.1.placed_by_objects)" 4
	expect_eq "$(json_get c.json inputs.1.family)" clang
	# a report that lists only the hottest function cannot place the others: said, not guessed
	"$PROFOPT" report --profdata=work.profdata --json --top=1 > top1.json
	"$PROFOPT" coverage --groups=groups.txt --objects=. work=top1.json > out 2> err || { cat out err; fail "coverage failed"; }
	expect_contains err 'top1\.json lists 1 of 2 executed functions .*--top=1000000'
	expect_contains out '^\(no file\) +1/1 +1/1 100\.0% '  # main, not listed: not placed
}

# CPython's built-in groups, on a report whose files have the names a CPython build gives.
test_builtin_groups_and_threshold() {
	cat > cpy.json <<'J'
{"family": "gcc", "functions": {"total": 9, "executed": 5},
 "files": [
  {"file": "../src/Python/ceval.c", "functions": 4, "executed": 3, "count_sum": 9000},
  {"file": "../src/Objects/dictobject.c", "functions": 2, "executed": 2, "count_sum": 900},
  {"file": "Modules/_sre/sre.o", "functions": 10, "executed": 0, "count_sum": 0},
  {"file": "../src/Modules/_decimal/libmpdec/mpdecimal.c", "functions": 10, "executed": 0, "count_sum": 0},
  {"file": "../src/Python/marshal.c", "functions": 10, "executed": 1, "count_sum": 100},
  {"file": "../src/Include/internal/pycore_object.h", "functions": 3, "executed": 0, "count_sum": 0}],
 "hottest": [], "never_executed": []}
J
	"$PROFOPT" coverage own=cpy.json > out || { cat out; fail "coverage failed"; }
	expect_contains out '^core +1/1 +3/4 +75\.0% +90\.0%$'
	expect_contains out '^objects +1/1 +2/2 +100\.0% +9\.0%$'
	expect_contains out '^_sre +0/1 +0/10 +0\.0% +0\.0%$'
	expect_contains out '^_decimal +0/1 +0/10 '
	expect_contains out '^import +1/1 +1/10 +10\.0% +1\.0%$'
	expect_contains out '^_json +- +- +-$'
	expect_contains out '^other +0/1 +0/3 '
	expect_contains out '^  own: _sre, _decimal$'
	expect_contains out '^  own: compiler, _sqlite, _json, _pickle, hashing, compression$'
	# a threshold of 10%: the import path (1 of 10 functions) is not reached either
	"$PROFOPT" coverage --threshold=10 own=cpy.json > out
	expect_contains out '^not reached \(at most the threshold of functions executed\):$'
	expect_contains out '^  own: import, _sre, _decimal$'
	"$PROFOPT" coverage --list-groups > out
	expect_contains out '^core Python/ceval\* Python/generated_cases\*'
	expect_contains out '^_decimal Modules/_decimal/\*$'
	[ "$(wc -l < out)" -eq 11 ] || fail "11 built-in groups: $(cat out)"
	# a groups file in the same format gives the same groups
	"$PROFOPT" coverage --list-groups > same.txt
	"$PROFOPT" coverage --groups=same.txt own=cpy.json > a.out
	"$PROFOPT" coverage own=cpy.json > b.out
	cmp a.out b.out || fail "the built-in groups written to a file group differently"
	# without count_sum (an older report) the shares are not invented
	sed 's/, "count_sum": [0-9]*//' cpy.json > old.json
	"$PROFOPT" coverage old.json > out
	expect_contains out '^core +1/1 +3/4 +75\.0% +-$'
	expect_contains out 'old: the report has no count_sum per file'
}

test_usage_and_bad_inputs() {
	expect_status 2 "$PROFOPT" coverage
	expect_contains out 'no report given'
	expect_status 2 "$PROFOPT" coverage --threshold=150 a.json
	expect_status 2 "$PROFOPT" coverage --frob a.json
	echo '{"family": "gcc", "functions": {}, "files": []}' > r.json
	expect_status 2 "$PROFOPT" coverage x=r.json x=r.json
	expect_contains out "input name 'x' given twice"
	expect_status 1 "$PROFOPT" coverage missing.json
	expect_contains out 'missing\.json'
	echo '{"tool": "profopt bench"}' > bench.json
	expect_status 1 "$PROFOPT" coverage bench.json
	expect_contains out "bench\.json: not the output of 'profopt report --json'"
	echo '{"family": ' > cut.json
	expect_status 1 "$PROFOPT" coverage cut.json
	expect_contains out 'cut\.json: line [0-9]+'
	printf 'good a.c\nlonely\n' > g.txt
	expect_status 1 "$PROFOPT" coverage --groups=g.txt r.json
	expect_contains out "g\.txt:2: group 'lonely' has no pattern"
	printf 'other x.c\n' > g.txt
	expect_status 1 "$PROFOPT" coverage --groups=g.txt r.json
	expect_contains out "g\.txt:1: 'other' is the name of the units no group matches"
	"$PROFOPT" coverage --help > out
	expect_contains out '^usage: profopt coverage'
	"$PROFOPT" --help > out
	expect_contains out '^  coverage '
}

# make pgo-coverage: a report of the built profile and of each clang workload, then coverage
# on them (a stand-in profopt records what it is asked; the real commands are tested above).
test_make_pgo_coverage() {
	[ -f "$BUILDDIR/Makefile" ] || skip "no configured build directory"
	fake_bin profopt 'echo "$*" >> '"$PWD"'/calls; case "$1" in report) echo "{}";; coverage) echo "coverage table";; esac'
	mkdir -p pgo/raw/profopt pgo/raw/regrtest
	expect_status 2 make -s -C "$BUILDDIR" pgo-coverage PGO_DIR="$PWD/pgo" PROFOPT="$PWD/fakebin/profopt"
	expect_contains out 'no profile yet in .*pgo: run make profile-opt first'
	touch pgo/merge.stamp
	make -s -C "$BUILDDIR" pgo-coverage PGO_DIR="$PWD/pgo" PROFOPT="$PWD/fakebin/profopt" PGO_CC_FAMILY=clang \
		LLVM_PROFDATA=llvm-profdata-14 PGO_WORKLOADS="profopt regrtest:2 user" PGO_COVERAGE_ARGS=--threshold=5 > out 2>&1 ||
		{ cat out; fail "make pgo-coverage failed"; }
	expect_contains out '^coverage table$'
	expect_contains calls "^report --json --top=1000000000 --family=clang --profdata=$PWD/pgo/merged\.profdata"
	expect_contains calls "^report --json --top=1000000000 --family=clang --profile-dir=$PWD/pgo/raw/regrtest --tool=llvm-profdata-14$"
	expect_contains calls "^coverage --objects=.*/build --nm=llvm-nm-14 --threshold=5 built=$PWD/pgo/coverage/built\.json profopt=$PWD/pgo/coverage/profopt\.json regrtest=$PWD/pgo/coverage/regrtest\.json$"
	expect_contains pgo/coverage/coverage.txt 'coverage table'
	# gcc: one column (the workloads share their .gcda files), no objects needed
	rm calls
	make -s -C "$BUILDDIR" pgo-coverage PGO_DIR="$PWD/pgo" PROFOPT="$PWD/fakebin/profopt" PGO_CC_FAMILY=gcc \
		PGO_WORKLOADS=profopt > out 2>&1 || { cat out; fail "make pgo-coverage (gcc) failed"; }
	expect_contains calls "^report --json --top=1000000000 --family=gcc --profile-dir="
	expect_contains calls "^coverage +profopt=$PWD/pgo/coverage/built\.json$"
}
