# The AX_PGO macro, through the fixture project's configure and profopt's own.

configure_fixture() { setup_fixture; ./configure PROFOPT="$PROFOPT" "$@" > configure.out 2>&1; }

test_macro_gcc() {
	require gcc autoconf
	configure_fixture --enable-optimizations CC=gcc || { cat configure.out; fail "configure failed"; }
	expect_contains pgo-config.mk '^PGO_CC_FAMILY = gcc$'
	# gcov-tool is never run: configure neither looks for it nor substitutes a merge command
	expect_not_contains configure.out 'gcov-tool'
	expect_not_contains Makefile 'GCOV_TOOL|PGO_MERGE'
	expect_contains pgo-config.mk '^PGO_GEN_CFLAGS = -fprofile-generate'
	expect_contains pgo-config.mk '^PGO_USE_CFLAGS = -fprofile-use -fprofile-correction'
}

test_macro_clang() {
	require clang autoconf
	configure_fixture --enable-optimizations CC=clang || { cat configure.out; fail "configure failed"; }
	expect_contains pgo-config.mk '^PGO_CC_FAMILY = clang$'
	expect_contains pgo-config.mk "^LLVM_PROFDATA = $(dirname "$(readlink -f "$(command -v clang)")")/llvm-profdata$"
	expect_contains pgo-config.mk '^PGO_USE_CFLAGS = -fprofile-use=\$\(PGO_USE_PROFDATA\)'
}

test_macro_sees_gcc_wrapper_as_clang() {
	require clang autoconf
	fake_bin gcc 'exec clang "$@"'
	configure_fixture --enable-optimizations CC="$PWD/fakebin/gcc" || { cat configure.out; fail "configure failed"; }
	expect_contains configure.out 'which compiler family .*fakebin/gcc is\.\.\. clang'
	expect_contains pgo-config.mk '^PGO_CC_FAMILY = clang$'
}

test_macro_refuses_mismatched_llvm_profdata() {
	require clang autoconf
	fake_bin llvm-profdata 'echo "Debian LLVM version 13.0.1"'
	if configure_fixture --enable-optimizations CC=clang LLVM_PROFDATA="$PWD/fakebin/llvm-profdata"; then
		fail "configure accepted llvm-profdata 13 for clang $(clang -dumpversion)"
	fi
	expect_contains configure.out 'error: .*13\.0\.1'
	expect_contains configure.out "error: .*llvm-profdata $(clang -dumpversion | cut -d. -f1) is needed"
}

test_macro_missing_tool_only_matters_when_enabled() {
	require clang autoconf
	configure_fixture CC=clang --with-llvm-profdata=/nonexistent/llvm-profdata || { cat configure.out; fail "configure without optimizations failed"; }
	expect_contains pgo-config.mk '^PGO_ENABLED = no$|^PGO_CC_FAMILY = clang$'
	if ./configure --enable-optimizations CC=clang --with-llvm-profdata=/nonexistent/llvm-profdata > out 2>&1; then
		fail "configure accepted a missing llvm-profdata"
	fi
	expect_contains out 'error: LLVM_PROFDATA=/nonexistent/llvm-profdata is not usable'
}

test_profopt_own_configure_refuses_mismatch() {
	require_out_of_tree_configure
	require clang
	fake_bin llvm-profdata 'echo "Debian LLVM version 99.0.0"'
	if "$SRCDIR/configure" --enable-optimizations CC=clang LLVM_PROFDATA="$PWD/fakebin/llvm-profdata" > out 2>&1; then
		fail "profopt's configure accepted a wrong llvm-profdata"
	fi
	expect_contains out "99\.0\.0"
	expect_contains out "clang $(clang -dumpversion)"
}

test_committed_configure_is_in_sync() {
	require_out_of_tree_configure
	require autoconf
	cp -r "$SRCDIR/configure.ac" "$SRCDIR/m4" .
	autoconf -o configure.new configure.ac
	diff -q configure.new "$SRCDIR/configure" > /dev/null || fail "configure is out of date: run autoconf and commit it"
}

# --with-training: workloads and weights, as the pipeline will run them.
test_training_workloads_and_weights() {
	require_out_of_tree_configure
	require gcc
	"$SRCDIR/configure" CC=gcc --with-training=profopt:2,regrtest,user > configure.out 2>&1 ||
		{ cat configure.out; fail "configure --with-training"; }
	make -s pgo-workloads PGO_TRAIN_COMMAND='$PYTHON -c "print(1)"' > out
	expect_eq "$(sed -n 's/ weight \([0-9]*\):.*/=\1/p' out | tr '\n' ' ')" "profopt=2 regrtest=1 user=1 " "workloads"
	expect_contains out "^profopt weight 2: .*--each=\"./python $SRCDIR/Tools/train/\{\}\.py 1\""
	expect_contains out '^regrtest weight 1: .*--setenv=PYTHONHASHSEED=0 .*-m test --pgo \{\}'
	expect_contains out "^user weight 1: .*--setenv=PYTHON=./python -- '\\\$PYTHON -c \"print\(1\)\"'"
	"$SRCDIR/configure" CC=gcc > configure.out 2>&1
	make -s pgo-workloads > out
	expect_eq "$(sed -n 's/ weight.*//p' out | sort | tr '\n' ' ')" "profopt regrtest " "default workloads (CPython 3.12+)"
	# Training runs without address randomization where setarch can turn it off.
	if setarch -R true 2>/dev/null; then
		expect_contains pgo-config.mk '^PGO_TRAIN_WRAPPER = .*setarch -R$'
	else
		expect_contains configure.out 'will not give identical profiles'
	fi
	for bad in nosuch profopt:0 regrtest:x ''; do
		expect_status 1 "$SRCDIR/configure" CC=gcc --with-training="$bad"
		expect_contains out 'error: --with-training'
	done
}

# Clang's default instrumentation follows the CPython version of the source (measured: IR for
# 3.11, the front end for 3.13), from a source tree or a tarball.
# py311/ and py313/: just enough of a CPython tree for configure to read its version.
fake_cpython_trees() {
	for minor in 11 13; do
		mkdir -p "py3$minor/Include" "py3$minor/Python"
		touch "py3$minor/configure" "py3$minor/Python/ceval.c"
		printf '#define PY_MAJOR_VERSION        3\n#define PY_MINOR_VERSION        %s\n' "$minor" > "py3$minor/Include/patchlevel.h"
	done
}

# An imported gcc profile is built with -Wno-error=coverage-mismatch only for CPython 3.11
# (absolute paths in its extension objects); for 3.12+ the compile commands stay those of the
# run that exported it, so its ccache answers them.
test_import_warning_flag_only_for_cpython_before_312() {
	require_out_of_tree_configure
	require gcc
	fake_cpython_trees
	show='show-import: ; @echo "[$(py_import_cflags)]"'
	for case in py311:-Wno-error=coverage-mismatch py313:; do
		"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/${case%%:*}" > configure.out 2>&1 ||
			{ cat configure.out; fail "configure ${case%%:*}"; }
		expect_eq "$(make -s --eval="$show" show-import PGO_PROFILE=/x/profile.tar.gz)" "[${case#*:}]" "${case%%:*}, imported profile"
		expect_eq "$(make -s --eval="$show" show-import)" "[]" "${case%%:*}, own training"
	done
}

test_clang_instrumentation_follows_the_cpython_version() {
	require_out_of_tree_configure
	require clang
	fake_cpython_trees
	tar -czf py313.tar.gz py313
	for src in py311:ir:-fprofile-generate py313:frontend:-fprofile-instr-generate py313.tar.gz:frontend:-fprofile-instr-generate; do
		IFS=: read -r dir kind flag <<< "$src"
		"$SRCDIR/configure" --enable-optimizations CC=clang --with-python-source="$PWD/$dir" > configure.out 2>&1 ||
			{ cat configure.out; fail "configure with $dir"; }
		expect_contains configure.out "which CPython version the source is\.\.\. 3\.1"
		expect_contains configure.out "where clang counts for PGO\.\.\. $kind"
		expect_contains pgo-config.mk "^PGO_GEN_CFLAGS = $flag "
	done
	# an explicit choice wins, and context-sensitive PGO takes IR
	"$SRCDIR/configure" --enable-optimizations CC=clang --with-python-source="$PWD/py311" --with-pgo-instrumentation=frontend > /dev/null 2>&1
	expect_contains pgo-config.mk '^PGO_GEN_CFLAGS = -fprofile-instr-generate '
	"$SRCDIR/configure" --enable-optimizations CC=clang --with-python-source="$PWD/py313" --enable-pgo-cs > /dev/null 2>&1
	expect_contains pgo-config.mk '^PGO_GEN_CFLAGS = -fprofile-generate '
}

test_lto_exclusions_and_training_follow_compiler_and_version() {
	require_out_of_tree_configure
	require gcc clang
	fake_cpython_trees
	for case in "clang:py313:thin:Python/ceval.o:profopt regrtest" clang:py311:thin:Python/ceval.o:regrtest \
		"gcc:py313:yes::profopt regrtest" gcc:py311:yes::profopt; do
		IFS=: read -r cc dir lto excluded training <<< "$case"
		"$SRCDIR/configure" --enable-optimizations CC=$cc --with-python-source="$PWD/$dir" > configure.out 2>&1 ||
			{ cat configure.out; fail "configure $cc $dir"; }
		expect_contains configure.out "whether CPython is link-time optimized\.\.\. $lto\$"
		expect_eq "$(sed -n 's/^PY_LTO_EXCLUDE = //p' Makefile)" "$excluded" "$cc $dir: objects out of LTO"
		expect_contains configure.out "what the PGO build trains on\.\.\. $training\$"
	done
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/py313" \
		--with-lto-exclude=Python/ceval.o,Objects/longobject.o > configure.out 2>&1
	expect_contains configure.out 'stay out of LTO\.\.\. Python/ceval.o Objects/longobject.o$'
	"$SRCDIR/configure" --enable-optimizations CC=clang --with-python-source="$PWD/py313" --with-lto-exclude=no > configure.out 2>&1
	expect_contains configure.out 'stay out of LTO\.\.\. none$'
	"$SRCDIR/configure" --enable-optimizations CC=clang --with-python-source="$PWD/py313" --with-lto=no > configure.out 2>&1
	expect_contains configure.out 'link-time optimized\.\.\. no$'
	expect_not_contains configure.out 'stay out of LTO'
}

# Build systems repeat CFLAGS on one command line (CPython 3.14 compiles its HACL modules with
# CFLAGS_NODIST twice): the generate flags must survive that with every compiler.  clang 14
# refuses a repeated -mllvm option, so it goes without the value-profile counters option.
test_generate_flags_given_twice_compile() {
	require gcc clang-14 clang-19 autoconf
	for cc in gcc clang-14 clang-19; do
		rm -rf ./* && configure_fixture --enable-optimizations CC=$cc || { cat configure.out; fail "configure with $cc"; }
		flags=$(sed -n 's/^PGO_GEN_CFLAGS = //p' pgo-config.mk)
		[ -n "$flags" ] || fail "no PGO_GEN_CFLAGS with $cc"
		# shellcheck disable=SC2086
		$cc $flags $flags -c interp.c -o twice.o 2> cc.err || { cat cc.err; fail "$cc refused the generate flags given twice: $flags"; }
		case $cc in
		clang-14) expect_not_contains pgo-config.mk '^PGO_GEN_CFLAGS = .*vp-counters-per-site' ;;
		clang-19) expect_contains pgo-config.mk '^PGO_GEN_CFLAGS = .*-mllvm -vp-counters-per-site=8' ;;
		esac
	done
}
