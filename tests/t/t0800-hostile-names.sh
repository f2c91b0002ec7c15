# Hostile names: file names, directories, compiler paths and TMPDIR that look like options
# (-rf, --plugin=, @response-file), shell syntax ($(...), ;, ') or hold a newline or a terminal
# escape.  No marker file may appear, nothing outside the tree is read or written, and the
# results are those of plain names.

# The names planted (one object / profile per name); $plain: the same count of plain names.
hostile_names() {
	names=('-rf' '--plugin=x' '@x' "a'b" '$(touch MARK)' ';touch MARK' $'nl\nx' $'esc\e[2Jx')
}

# A shared library that, if any tool ever loads it (nm --plugin=), creates ./MARK.
make_evil_plugin() {
	printf '#include <stdio.h>\n__attribute__((constructor)) static void f(void) { fclose(fopen("%s/MARK", "w")); }\n' \
		"$PWD" > evil.c
	gcc -shared -fPIC -o evil.so evil.c
}

no_marker() {
	local found; found=$(find "$PWD" "${TMPDIR:-/tmp}" -maxdepth 3 -name MARK 2>/dev/null | head -n 1)
	[ -z "$found" ] || fail "a marker file appeared: $found"
}

# build_gcc DIR NAME...: one object per NAME in DIR (each defines a global function), linked
# and run once; $1/prog.  FLAGS: extra compiler flags.
build_gcc() {
	local dir=$1 i=0 n; shift
	mkdir -p "$dir"
	: > "$dir/main.c"
	for n in "$@"; do
		printf 'int fn_%d(int x) { return x > 3 ? x * %d : x + 1; }\n' "$i" "$((i + 2))" > "$dir/$n.c"
		printf 'int fn_%d(int);\n' "$i" >> "$dir/main.c"
		i=$((i + 1))
	done
	{ printf 'int main(int argc, char **argv) { (void)argv; int s = 0;\n'
	  for ((k = 0; k < i; k++)); do printf ' if (argc < 5) s += fn_%d(argc);\n' "$k"; done
	  printf ' return s == 12345; }\n'; } >> "$dir/main.c"
	(cd "$dir" && for n in "$@" main; do gcc -O1 -fprofile-generate ${FLAGS:-} -c -o "./$n.o" "./$n.c" || exit 1; done &&
		gcc -fprofile-generate -o prog ./*.o && ./prog) || fail "could not build the program in $dir"
}

report_figures() { # JSON FILE: the figures that must not depend on names
	python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))
print(r["profile_files"], r["functions"]["total"], r["functions"]["executed"], r.get("named_by_symbol"), r["damaged_files"])' "$1"
}

test_check_raw_with_hostile_compiler_paths() {
	require gcc clang llvm-profdata python3
	hostile_names
	local d
	for d in "${names[@]}"; do
		mkdir -p "cc/$d" && ln -s "$(command -v clang)" "cc/$d/clang"
		expect_status 0 "$PROFOPT" check-raw --cc="$PWD/cc/$d/clang"
		expect_not_contains out $'\e'
		expect_contains out 'readable by llvm-profdata'
	done
	# a TMPDIR with a quote and shell syntax: check-raw's files live there and are removed
	export TMPDIR="$PWD/tmp'\$(touch MARK);x"
	mkdir -p "$TMPDIR"
	expect_status 0 "$PROFOPT" check-raw --cc=clang
	[ -z "$(ls -A "$TMPDIR")" ] || fail "temporary files left in TMPDIR: $(ls -A "$TMPDIR")"
	no_marker
}

test_gcc_report_and_diff_with_hostile_names() {
	require gcc nm python3
	hostile_names
	make_evil_plugin
	# a directory named like a response file, and what nm would read from it as options
	build_gcc @d "${names[@]}"
	mkdir -p d && for n in "${names[@]}" prog; do printf -- '--plugin=%s\n' "$PWD/evil.so" > "d/$n.o"; done
	local plain=() i
	for ((i = 0; i < ${#names[@]}; i++)); do plain+=("o$i"); done
	build_gcc plain "${plain[@]}"

	expect_status 0 "$PROFOPT" report --profile-dir=@d --json
	cp out hostile.json
	"$PROFOPT" report --profile-dir=plain --json > plain.json
	expect_eq "$(report_figures hostile.json)" "$(report_figures plain.json)" "report figures, hostile vs plain names"
	expect_eq "$(json_get hostile.json named_by_symbol)" "$(( ${#names[@]} + 1 ))" "functions named from nm"
	python3 -c 'import json,sys
files = {f["file"] for f in json.load(open("hostile.json"))["files"]}
for n in sys.argv[1:]:
    assert n + ".o" in files, (n, files)' "${names[@]}" || fail "object names do not come back intact in the JSON"
	expect_status 0 "$PROFOPT" report --profile-dir=@d --list-cold
	expect_not_contains out $'\e'
	expect_contains out 'nl\\x0ax\.o'
	expect_contains out 'esc\\x1b\[2Jx\.o'

	# the same profile as a directory and as a stash of the hostile names
	(cd @d && tar -cf ../stash.tar -- ./*.gcda)
	expect_status 0 "$PROFOPT" diff @d stash.tar
	expect_contains out 'identical:  yes'
	(cd @d && expect_status 0 "$PROFOPT" diff . ../stash.tar)
	expect_contains @d/out 'identical:  yes'
	expect_status 0 "$PROFOPT" report --archive=stash.tar --profile-dir=@d --json
	cp out stash.json
	expect_eq "$(report_figures stash.json)" "$(report_figures hostile.json)" "report of the stash vs the directory"
	no_marker
}

test_gcc_notes_with_escape_sequences_in_source_names() {
	require gcc python3
	hostile_names
	FLAGS=-ftest-coverage build_gcc src "${names[@]}"
	expect_status 0 "$PROFOPT" report --profile-dir=src --list-cold --top=20
	expect_not_contains out $'\e'
	expect_contains out 'esc\\x1b\[2Jx\.c'
	"$PROFOPT" report --profile-dir=src --json > r.json
	python3 -c 'import json,sys
files = {f["file"].rsplit("/", 1)[-1] for f in json.load(open("r.json"))["files"]}
for n in sys.argv[1:]:
    assert n + ".c" in files, (n, files)' "${names[@]}" || fail "source names do not come back intact in the JSON"
	no_marker
}

test_stash_members_cannot_reach_outside() {
	require gcc python3
	build_gcc p one
	python3 - <<'PY'
import tarfile
with tarfile.open('evil.tar', 'w') as t:
    t.add('p/one.gcda', arcname='../outside.gcda')
with tarfile.open('link.tar', 'w') as t:
    i = tarfile.TarInfo('passwd.gcda'); i.type = tarfile.SYMTYPE; i.linkname = '/etc/passwd'
    t.addfile(i)
PY
	expect_status 2 "$PROFOPT" diff p evil.tar
	expect_contains out 'evil\.tar: member \.\./outside\.gcda points outside'
	expect_status 1 "$PROFOPT" report --archive=evil.tar
	expect_contains out 'points outside'
	# a symbolic link is not followed: the stash holds no profile at all
	expect_status 1 "$PROFOPT" report --archive=link.tar
	expect_contains out 'no profile data'
	expect_not_contains out 'root:'
	[ ! -e ../outside.gcda ] && [ ! -e outside.gcda ] || fail "a member was written outside"
}

test_clang_report_and_check_raw_with_hostile_names() {
	require clang llvm-profdata python3
	hostile_names
	printf 'int main(void) { return 0; }\n' > p.c
	clang -fprofile-generate -o p p.c
	mkdir @r plain
	local n i=0
	for n in "${names[@]}"; do
		LLVM_PROFILE_FILE="@r/$n.profraw" ./p
		LLVM_PROFILE_FILE="plain/o$i.profraw" ./p
		i=$((i + 1))
	done
	# what llvm-profdata would read as options if it were handed @r/NAME or @x.profraw
	mkdir -p r && for n in "${names[@]}"; do printf -- '-help\n' > "r/$n.profraw"; done
	printf -- '--version\n' > x.profraw
	expect_status 0 "$PROFOPT" report --profile-dir=@r --json
	cp out hostile.json
	"$PROFOPT" report --profile-dir=plain --json > plain.json
	expect_eq "$(report_figures hostile.json)" "$(report_figures plain.json)" "clang report, hostile vs plain names"
	expect_eq "$(json_get hostile.json profile_files)" "${#names[@]}"
	(cd @r && expect_status 0 "$PROFOPT" check-raw -- "${names[@]/%/.profraw}")
	# a damaged raw profile named like a response file is not passed as options ("--version"
	# would make the tool succeed): it is reported damaged
	printf '\x81\x72\x66\x6f\x72\x70\x6c\xff\x09\x00\x00\x00\x00\x00\x00\x01' > @x.profraw
	expect_status 1 "$PROFOPT" check-raw @x.profraw
	expect_contains out 'error: @x\.profraw: llvm-profdata cannot read'
	no_marker
}

test_failed_writes_and_temporary_directories() {
	require clang llvm-profdata
	printf 'int main(void) { return 0; }\n' > p.c
	clang -fprofile-generate -o p p.c
	mkdir raw && LLVM_PROFILE_FILE=raw/a.profraw ./p
	llvm-profdata merge -o a.profdata raw/a.profraw
	set +e
	"$PROFOPT" report --profile-dir=raw > /dev/full 2> err; rc=$?
	set -e
	expect_eq "$rc" 1 "report > /dev/full"
	expect_contains err 'profopt report: error: cannot write the output: No space left on device'
	set +e
	"$PROFOPT" diff a.profdata a.profdata > /dev/full 2> err; rc=$?
	set -e
	expect_eq "$rc" 2 "diff > /dev/full (2: an error, not 'different')"
	expect_contains err 'cannot write the output'
	for cmd in "check-raw --cc=clang" "check-raw raw/a.profraw" "--help"; do
		set +e; "$PROFOPT" $cmd > /dev/full 2> err; rc=$?; set -e
		expect_eq "$rc" 1 "profopt $cmd > /dev/full"
		expect_contains err 'cannot write the output'
	done
	# a merge that fails after the temporary directory was made: it is removed all the same
	export TMPDIR=$PWD/tmp && mkdir tmp
	fake_bin llvm-profdata 'echo "error: no" >&2; exit 1'
	expect_status 1 "$PROFOPT" report --profile-dir=raw --tool="$PWD/fakebin/llvm-profdata"
	expect_contains out 'merge failed'
	[ -z "$(ls -A tmp)" ] || fail "temporary directory left behind: $(ls -A tmp)"
}
