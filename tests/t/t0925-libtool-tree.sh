# An automake + libtool tree as projects have it (tests/fixture-lt): libraries in
# subdirectories, one whose source differs under #ifdef PIC, a -module plug-in, two programs
# with their own main, silent rules on.  `./configure --enable-optimizations && make -j2`
# must build it, and verify must count exactly the objects the compiler says used the profile.

# The fixture in ./src, autoreconf'd, configured in ./build for compiler $1 (the current
# directory then); more configure arguments after it.
lt_tree() {
	require "$1" autoreconf automake libtoolize readelf python3
	local cc=$1; shift
	mkdir src
	cp -r "$SRCDIR/tests/fixture-lt/." src/
	mkdir src/m4 && cp "$SRCDIR/m4/ax_pgo.m4" src/m4/ && cp "$SRCDIR/Tools/make/pgo.mk" src/
	(cd src && autoreconf -fi -Wall -Werror) > autoreconf.out 2>&1 || { cat autoreconf.out; fail "autoreconf"; }
	mkdir build && cd build
	../src/configure --enable-optimizations CC="$cc" PROFOPT="$PROFOPT" "$@" > configure.out 2>&1 || { cat configure.out; fail configure; }
}

# The last compile command of each object in the use build's log, as "OBJECT<TAB>DIR<TAB>
# COMMAND" (OBJECT relative to the build directory; libtool's prefix and redirection dropped).
compiles_of() {
	python3 - "$PWD" "$1" <<'EOF'
import os, re, shlex, sys
top, log = sys.argv[1], sys.argv[2]
cwd, found = top, {}
for line in open(log, errors="replace"):
    m = re.search(r"(Entering|Leaving) directory '(.*)'", line)
    if m:
        cwd = m.group(2) if m.group(1) == "Entering" else top
        continue
    line = line.strip()
    line = re.sub(r"^libtool: compile: +", "", line)
    line = re.sub(r" *>/dev/null 2>&1$", "", line)
    try:
        w = shlex.split(line)
    except ValueError:
        continue
    if "-c" not in w or "-o" not in w or w[0].startswith("/bin/") or "libtool" in " ".join(w[:2]):
        continue
    obj = w[w.index("-o") + 1]
    if obj.endswith(".o"):
        found[os.path.relpath(os.path.normpath(os.path.join(cwd, obj)), top)] = (cwd, line)
for obj, (d, cmd) in sorted(found.items()):
    print(f"{obj}\t{d}\t{cmd}")
EOF
}

# used_by_compiler FAMILY OBJECT DIR COMMAND: the compiler's own word that the compile applied
# the profile, from the same command: gcc, counts from the profile in its block dump ("precise",
# or "globally 0" where training never ran a function), read from the object's .gcda (as kept in
# the stash); clang, function entry counts in its IR.
used_by_compiler() {
	local family=$1 obj=$2 dir=$3 cmd=$4 ev=$PWD/evidence/$2
	mkdir -p "$(dirname "$ev")"
	cmd=$(printf '%s' "$cmd" | sed -e 's/ -M[DP]\b//g' -e 's/ -MF [^ ]*//g' -e 's/ -MT [^ ]*//g' -e 's/ -o [^ ]*\.o\b//')
	if [ "$family" = gcc ]; then
		tar -xOf pgo/profiles.tar "${obj%.o}.gcda" > "${ev%.o}.gcda" 2> /dev/null || return 1
		(cd "$dir" && eval "$cmd -o '$ev' -fdump-tree-optimized-blocks-details=stdout") 2>&1 | grep -Eq '\(precise\)|globally 0\)'
	else
		(cd "$dir" && eval "$cmd -S -emit-llvm -o -") 2>&1 | grep -q 'function_entry_count'
	fi
}

# Object by object: verify's answer (its --list names those without the profile) against the
# compiler's evidence, for every object of the tree.
check_objects_against_compiler() {
	local family=$1 obj dir cmd listed n=0
	expect_status 0 "$PROFOPT" verify --family="$family" --build-dir=. --build-log=pgo/logs/use.log --skip=pgo \
		--fingerprint=pgo/sources.fp --list ${2:+--profdata=pgo/merged.profdata --tool="$2"}
	cp out verify.out
	compiles_of pgo/logs/use.log > compiles.txt
	find . -path ./pgo -prune -o -path ./evidence -prune -o -name '*.o' -print | sed 's|^\./||' | sort > objects.txt
	expect_eq "$(cut -f1 compiles.txt | sort | tr '\n' ' ')" "$(tr '\n' ' ' < objects.txt)" "objects with a compile command in the log"
	while IFS="$(printf '\t')" read -r obj dir cmd; do
		n=$((n + 1))
		listed=no; grep -q "^  no profile: $obj:" verify.out && listed=yes
		if used_by_compiler "$family" "$obj" "$dir" "$cmd"; then
			[ $listed = no ] || fail "verify says $obj did not use the profile; the compiler applied its counts"
		else
			[ $listed = yes ] || fail "verify counts $obj as using the profile; the compiler found no counts for it"
		fi
	done < compiles.txt
	expect_contains verify.out "verify: $n of $n compiled units used profile data"
}

check_libtool_tree() {
	lt_tree "$1"
	expect_status 0 make -j2
	expect_not_contains out 'jobserver unavailable|coverage-mismatch|Error [0-9]'
	# the instrumented build's two goals (all, check) ran one after the other
	expect_not_contains pgo/logs/instrument.log 'two makes write it at once'
	expect_eq "$(sed -n -e "s|.*Entering directory '$PWD'\$|.|p" -e "s|.*Entering directory '$PWD/\(.*\)'\$|\1|p" \
		pgo/logs/instrument.log | uniq | tr '\n' ' ')" ". lib mod src . lib mod src . " "directories the instrumented build entered"
	# and within a goal, make -j2 still started two compiles at once
	awk '/--mode=compile/ && prev { found = 1 } { prev = /--mode=compile/ } END { exit !found }' pgo/logs/instrument.log ||
		fail "no two compiles started together in the instrumented build"
	expect_contains out "verify: 12 of 12 compiled units used profile data"
	expect_eq "$(cat pgo/units.count)" 12 "units the progress line counted (libtool's compiles)"
	# the logged builds printed their directories and commands, silent rules or not
	expect_contains pgo/logs/use.log "Entering directory '$PWD/lib'"
	expect_contains pgo/logs/use.log '^libtool: compile: .* -fPIC -DPIC -o \.libs/sum\.o'
	expect_eq "$(src/calc version)" "calc 1.0 (shared)" "the program's answer"
	local tool=
	[ "$1" = gcc ] || tool=$(sed -n 's/^LLVM_PROFDATA = //p' Makefile)
	check_objects_against_compiler "$([ "$1" = gcc ] && echo gcc || echo clang)" "$tool"
}
test_libtool_tree_gcc() { check_libtool_tree gcc; }
test_libtool_tree_clang() { check_libtool_tree clang; }

# The fixture's two goals race when make runs them at once (its lib/ rule says so and fails):
# the pipeline's instrumented build above is the same command under -j2, run in order.
test_two_goals_at_once_collide_outside_the_pipeline() {
	lt_tree gcc
	expect_status 2 make -j2 all check TESTS=
	expect_contains out 'calc-gen\.h: two makes write it at once in .*/lib'
}

# gcc: the static copy of lib/sum.c differs under #ifdef PIC; the merge gives it the counts of
# the functions alike in both copies only, names the other, and its compile reads them with
# no mismatch (libtool hides that compile's output: it is run again here, with it shown).
test_gcc_pic_twin_gets_only_matching_counts() {
	lt_tree gcc
	expect_status 0 make -j2
	expect_contains out 'merge: [0-9]+ libtool object copies got the counts of their twin'
	expect_contains out '  lib/sum\.o: calc_sum$'
	compiles_of pgo/logs/use.log > compiles.txt
	local dir cmd
	IFS="$(printf '\t')" read -r _ dir cmd < <(grep '^lib/sum\.o	' compiles.txt)
	tar -xOf pgo/profiles.tar lib/sum.gcda > sum.gcda
	cp sum.gcda "$dir/check.gcda"
	cmd=$(printf '%s' "$cmd" | sed -e 's/ -o sum\.o/ -o check.o/')
	(cd "$dir" && eval "$cmd -Werror=coverage-mismatch -Wmissing-profile") > compile.out 2>&1 || { cat compile.out; fail "the static copy's compile"; }
	expect_contains compile.out "profile for function .calc_sum. not found"
	expect_not_contains compile.out 'calc_build'
}

# libtool's link of a -module library removes .libs/plug.gcda, which its compile read: verify
# still finds the profile the build used.
test_gcc_module_profile_survives_the_link() {
	lt_tree gcc
	expect_status 0 make -j2
	test -f mod/.libs/plug.gcda || fail "the profile of the -module library's object is gone"
	expect_not_contains out 'no \.gcda'
}

# Clang: two programs each define main, and training runs only calc: calcstat's main gets the
# record of calc's ("hash mismatch").  Without PGO_SOURCE_ROOT the pipeline still fingerprints
# what the instrumented build compiled, so verify says a name collision, not a stale source.
test_clang_same_named_main_is_not_stale() {
	lt_tree clang
	sed -i '/^stat/d' ../src/train.txt
	expect_status 0 make -j2
	test -f pgo/sources.fp || fail "no fingerprint of the trained sources"
	expect_status 0 "$PROFOPT" verify --family=clang --build-dir=. --build-log=pgo/logs/use.log --skip=pgo \
		--fingerprint=pgo/sources.fp --profdata=pgo/merged.profdata --tool="$(sed -n 's/^LLVM_PROFDATA = //p' Makefile)" --list
	expect_contains out 'src/calcstat\.o: the compiler said .*hash mismatch\) main .*\[its source is unchanged since training: a name collision'
	expect_not_contains out 'source changed since training'
}

# readelf given many objects reads clang's DWARF 5 producer strings (indexed) of the wrong object
# after the first: verify reads each object alone.  The objects define a function training ran
# but not hot, which leaves no hot/cold layout: only the recorded switches prove the profile.
test_recorded_switches_are_each_objects_own() {
	require clang readelf
	local tool; tool=$(dirname "$(readlink -f "$(command -v clang)")")/llvm-profdata
	[ -x "$tool" ] || skip "no llvm-profdata beside clang"
	printf 'int warm(int n) { return n %% 3 ? n : -n; }\n' > w.c
	printf 'int warm(int n);\nint hot(int n) { int s = 0; for (int i = 0; i < n; i++) s += i %% 3 ? i : -i; return s; }\nint main(int c, char **v) { int s = hot(100000 * c); for (int i = 0; i < 10; i++) s += warm(i); return s == 7; }\n' > a.c
	clang -O2 -fprofile-generate -o a a.c w.c && LLVM_PROFILE_FILE=a.profraw ./a
	"$tool" merge -o m.profdata a.profraw
	for i in 1 2 3 4; do
		cp w.c u$i.c
		clang -g -grecord-command-line -O2 -fprofile-use=m.profdata -c u$i.c
		readelf --debug-dump=info u$i.o | grep -q 'DW_AT_producer.*-fprofile-use' || fail "u$i.o records no -fprofile-use"
	done
	clang -g -grecord-command-line -O2 -c w.c -o plain.o
	expect_status 1 "$PROFOPT" verify --family=clang --build-dir=. --profdata=m.profdata --tool="$tool" --list --require=plain.o
	expect_contains out 'verify: 4 of 5 compiled units used profile data'
	expect_contains out 'no profile: plain\.o: compiled without the profile-use flag'
}

# libtool sends the output of a library's second compile (the static copy) to /dev/null: when
# that compile fails, the pipeline runs it again and shows what the compiler said.
test_hidden_compile_failure_is_shown() {
	lt_tree gcc
	printf '#ifndef PIC\n#error the static copy cannot be built\n#endif\n' >> ../src/lib/mix.c
	expect_status 2 make -j2
	expect_contains out 'libtool hid the output of a failed compile; run again in .*/lib: .* -o mix\.o'
	expect_contains out 'mix\.c:[0-9]+:[0-9]+: error: #error the static copy cannot be built'
}
