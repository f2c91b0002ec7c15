# tests/lib.sh - helpers for the shell tests (sourced by tests/run for every test function).

# Skips the current test with a reason (shown by the runner).
skip() { echo "$*"; exit 77; }
# Fails the current test with a message.
fail() { echo "FAIL: $*" >&2; exit 1; }

# Skips unless every named command exists.
require() {
	local c
	for c in "$@"; do command -v "$c" >/dev/null 2>&1 || skip "$c not installed"; done
}

# expect_eq ACTUAL EXPECTED [WHAT]
expect_eq() { [ "$1" = "$2" ] || fail "${3:-value}: got '$1', expected '$2'"; }
# expect_contains FILE PATTERN / expect_not_contains FILE PATTERN: grep -E in a file.
expect_contains() {
	[ -f "$1" ] || fail "no file $1"
	grep -Eq -- "$2" "$1" || { cat "$1" >&2; fail "$1 lacks /$2/"; }
}
expect_not_contains() {
	[ -f "$1" ] || fail "no file $1"
	! grep -Eq -- "$2" "$1" || { cat "$1" >&2; fail "$1 has /$2/"; }
}
# expect_match STRING PATTERN: grep -E in a string.
expect_match() { printf '%s\n' "$1" | grep -Eq -- "$2" || fail "'$1' lacks /$2/"; }
# expect_status CODE COMMAND...: runs COMMAND, checks its exit status; output in ./out
expect_status() {
	local want=$1; shift
	set +e; "$@" > out 2>&1; local got=$?; set -e
	[ "$got" = "$want" ] || { cat out >&2; fail "'$*' exited $got, expected $want"; }
}

# json_get FILE KEY.PATH: a value from a JSON file (python3 reads it: tests only).
json_get() {
	python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v=v[int(k)] if isinstance(v,list) else v[k]
print(json.dumps(v) if isinstance(v,(dict,list,bool)) or v is None else v)' "$1" "$2"
}

# The fixture C project, copied into the current directory, with profopt's macro and fragment.
setup_fixture() {
	cp -r "$SRCDIR/tests/fixture/." .
	mkdir -p m4 && cp "$SRCDIR/m4/ax_pgo.m4" m4/
	cp "$SRCDIR/Tools/make/pgo.mk" "$SRCDIR/Tools/make/pgo-bench.mk" "$SRCDIR/Tools/make/qemu-exec.c" .
	autoconf -o configure configure.ac 2>autoconf.log || { cat autoconf.log >&2; fail "autoconf failed on the fixture"; }
}

# A directory of fake tools that shadows PATH: fake_bin NAME SCRIPT-BODY
fake_bin() {
	mkdir -p fakebin
	printf '#!/bin/sh\n%s\n' "$2" > "fakebin/$1"
	chmod +x "fakebin/$1"
}

# The fixture, configured for PGO with compiler $1 (skips when it or autoconf is missing).
configured_fixture() {
	require "$1" autoconf
	setup_fixture
	cc=$1 && shift
	./configure --enable-optimizations CC="$cc" PROFOPT="$PROFOPT" "$@" > configure.out 2>&1 || { cat configure.out; fail "configure"; }
}

# expect_stamps STAGE...: each stage left its stamp in pgo/.
expect_stamps() {
	local s
	for s in "$@"; do test -f "pgo/$s.stamp" || fail "no $s stamp"; done
}

# Stages that did work in a make run (their banners), e.g. "==> training;==> verify;".
# verify's run of the optimized program ("==> verify: ...") is a part of verify.
stages_run() { grep -E '^==> [a-z]' "$1" | grep -v -e ': done in' -e '^==> verify: ' | sed 's/ (log.*//' | tr '\n' ';'; }

# exported_fixture CC [CONFIGURE-ARGS...]: ./a holds the fixture trained with CC and its
# profile exported (a/pgo/profile-export.tar.gz); ./b a fresh copy configured alike, the
# current directory.
exported_fixture() {
	mkdir a && cd a
	configured_fixture "$@"
	make profile-opt > make.out 2>&1 || { cat make.out; fail "training build"; }
	make profile-export > export.out 2>&1 || { cat export.out; fail "profile-export"; }
	expect_contains export.out 'export: .*profile-export.tar.gz'
	cd .. && mkdir b && cd b
	configured_fixture "$@"
}

# Skips a test that configures profopt outside its source tree when that tree's path holds
# '&': config.status cannot substitute it there (configure says so), only in-tree.
require_out_of_tree_configure() {
	case $SRCDIR in *'&'*) skip "profopt's configure cannot build outside a source path holding '&' ($SRCDIR): autoconf's config.status limit, refused by configure" ;; esac
}

# gcc_main_count: the largest counter of main.o's hottest function in the stashed gcc profile
# (pgo/profiles.tar): how many times main() ran in training; "none" when main.o has none.
gcc_main_count() {
	"$PROFOPT" report --family=gcc --archive=pgo/profiles.tar --json > report.json || fail "profopt report"
	python3 -c 'import json
m=[h for h in json.load(open("report.json"))["hottest"] if h["file"].endswith("main.o")]
print(m[0]["max_count"] if m else "none")'
}

# with_static_function: the fixture's interp.c (in the current directory) drains its stack in
# a static function, whose profile name carries the name of the file it was compiled from.
with_static_function() {
	sed -i 's/^long run(/static long drain(long *stack, int *sp)\n{\n\tlong a = 0;\n\twhile (*sp > 0)\n\t\ta += stack[--*sp];\n\treturn a;\n}\n\nlong run(/; s/^\twhile (sp > 0)$/\tacc += drain(stack, \&sp);/; /^\t\tacc += stack\[--sp\];$/d' interp.c
	grep -q 'acc += drain(stack, &sp);' interp.c || fail "the static function did not go into interp.c"
}

# static_names_from_source: the merged profile names the static function after interp.c, and
# no function after a worker's temporary file.
static_names_from_source() {
	local llvm_profdata; llvm_profdata=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	"$llvm_profdata" show --all-functions pgo/merged.profdata > names.out
	expect_contains names.out '^  interp\.c:drain:$'
	expect_not_contains names.out 'distccd_'
}
