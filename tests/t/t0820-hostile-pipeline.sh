# The whole pipeline with hostile names (issue 19): training tasks named like options or shell
# code, objects planted in the build tree under such names, then export, import into another
# directory, report, diff, verify and check on the result.  No marker file may appear, nothing
# is written outside the two build directories, and every figure equals that of a run with
# plain names.

hostile=('-rf' '--plugin=x' '@x' "a'b" '$(touch MARK)' ';touch MARK' '`touch MARK`')

# fixture_with_names DIR NAME...: the fixture in DIR, trained by one task per NAME (each runs
# the same toy program).
fixture_with_names() {
	local dir=$1 n; shift
	mkdir -p "$dir" && cd "$dir"
	setup_fixture
	./configure --enable-optimizations CC="$CC_UNDER_TEST" PROFOPT="$PROFOPT" > configure.out 2>&1 ||
		{ cat configure.out; fail "configure in $dir"; }
	: > train.txt
	for n in "$@"; do printf '%s\t./toy ppas 20000\n' "$n" >> train.txt; done
	cd ..
}

# plant DIR NAME...: a copy of a plain object under each NAME.o in DIR, after the build.
plant() {
	local dir=$1 n; shift
	printf 'int planted(int x) { return x + 1; }\n' > "$dir/planted.c"
	(cd "$dir" && $CC_UNDER_TEST -O2 -c -o planted.tmp planted.c) && rm "$dir/planted.c"
	for n in "$@"; do cp "$dir/planted.tmp" "$dir/$n.o"; done
	rm "$dir/planted.tmp"
}

no_marker() {
	local found; found=$(find "$PWD" "${TMPDIR:-/tmp}" -maxdepth 3 -name MARK 2>/dev/null | head -n 1)
	[ -z "$found" ] || fail "a marker file appeared: $found"
}

# wrote_outside REF: files newer than REF in the source and build trees (but the trash root),
# and directly in HOME or in a directory above this one (but the temporary directories, which
# other programs share).
wrote_outside() {
	local d=$PWD up=("$HOME")
	while [ "$d" != / ]; do d=$(dirname "$d"); up+=("$d"); done
	{
		find "$SRCDIR" "$BUILDDIR" -xdev -newer "$1" -type f 2>/dev/null
		find "${up[@]}" -maxdepth 1 -newer "$1" -type f 2>/dev/null
	} | grep -v -e "^$TRASH/" -e "^${TMPDIR:-/tmp}/[^/]*\$" -e '^/tmp/[^/]*$' | sort -u
}

# The figures that must not depend on names: units verified and used, tasks that ran.
figures() {
	python3 -c 'import json,sys
v=json.load(open(sys.argv[1])); t=json.load(open(sys.argv[2]))
print(v["units"], v["units_with_profile"], t.get("tasks"), t.get("ran"), t.get("failed"))' "$1/pgo/verify.stamp" "$1/pgo/train.stamp"
}

check_pipeline_with_hostile_names() {
	CC_UNDER_TEST=$1
	require "$1" autoconf python3
	local plain=(p1 p2 p3 p4 p5 p6 p7)
	fixture_with_names plain "${plain[@]}"
	fixture_with_names evil "${hostile[@]}"
	touch before.ref && sleep 1
	for d in plain evil; do
		(cd "$d" && make profile-opt > make.out 2>&1) || { cat "$d/make.out"; fail "profile-opt in $d"; }
		expect_contains "$d/make.out" 'verify: interp.o: used profile data'
	done
	no_marker
	expect_eq "$(figures evil)" "$(figures plain)" "figures with hostile names"
	expect_contains evil/make.out 'training: 7 of 7 tasks ran'
	# Every task's log exists under a file-safe name, none outside pgo/logs.
	expect_eq "$(find evil/pgo/logs/train -name '*.log' | wc -l)" 7 "task logs"
	# export, then import into a fresh directory with the same names
	(cd evil && make profile-export > export.out 2>&1) || { cat evil/export.out; fail "profile-export"; }
	fixture_with_names evil2 "${hostile[@]}"
	(cd evil2 && make profile-opt PGO_PROFILE="$PWD/../evil/pgo/profile-export.tar.gz" > make.out 2>&1) ||
		{ cat evil2/make.out; fail "profile-opt with the imported profile"; }
	expect_contains evil2/make.out '==> import profile'
	expect_contains evil2/make.out 'verify: interp.o: used profile data'
	expect_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["units_with_profile"])' evil2/pgo/verify.stamp)" \
		"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["units_with_profile"])' evil/pgo/verify.stamp)" "units with profile after import"
	# report, diff, verify and check on trees with objects planted under hostile and plain names
	plant evil "${hostile[@]}"
	plant plain "${plain[@]}"
	if [ "$1" = gcc ]; then
		expect_status 0 "$PROFOPT" report --family=gcc --profile-dir=evil --skip=pgo --json
		cp out evil.report
		expect_status 0 "$PROFOPT" report --family=gcc --profile-dir=plain --skip=pgo --json
		expect_eq "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["functions"])' evil.report)" \
			"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["functions"])' out)" "report's functions"
		expect_status 0 "$PROFOPT" diff evil/pgo/profiles.tar evil2/pgo/profiles.tar
	else
		expect_status 0 "$PROFOPT" diff --tool="$(sed -n 's/^LLVM_PROFDATA = //p' evil/pgo-config.mk)" \
			evil/pgo/merged.profdata evil2/pgo/merged.profdata
	fi
	expect_contains out 'identical'
	for d in evil plain; do
		(cd $d && "$PROFOPT" verify --family="$1" --build-dir=. --skip=pgo --build-log=pgo/logs/use.log --list \
			$([ "$1" = gcc ] || echo --profdata=pgo/merged.profdata --tool="$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)") \
			--require=interp.o) > $d.verify 2>&1 || { cat $d.verify; fail "verify on $d with planted objects"; }
		expect_contains $d.verify 'interp.o: used profile data'
	done
	expect_eq "$(grep -E '^verify: [0-9]+ of [0-9]+' evil.verify)" "$(grep -E '^verify: [0-9]+ of [0-9]+' plain.verify)" "verify's count with planted names"
	expect_contains evil.verify '9 compiled units'
	expect_status 0 "$PROFOPT" check --build-log=evil/pgo/logs/use.log
	no_marker
	# Nothing written where a name could have steered a write: the source and build trees, HOME,
	# and each directory above this one (where a relative "../" lands).  Not the whole disk:
	# other processes on a CI machine write there too.
	local outside; outside=$(wrote_outside before.ref | head -n 3)
	[ -z "$outside" ] || fail "files written outside the test directory: $outside"
}

test_pipeline_with_hostile_names_gcc() { check_pipeline_with_hostile_names gcc; }
test_pipeline_with_hostile_names_clang() { check_pipeline_with_hostile_names clang; }
