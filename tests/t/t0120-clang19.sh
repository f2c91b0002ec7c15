# Two LLVM versions side by side (Debian's clang 14 and clang 19): each must get its own
# llvm-profdata, and the other one's is refused, since raw profile formats differ by version.

test_macro_refuses_llvm_profdata_14_for_clang19() {
	require clang-19 llvm-profdata-14 autoconf
	setup_fixture
	if ./configure --enable-optimizations CC=clang-19 LLVM_PROFDATA="$(command -v llvm-profdata-14)" > out 2>&1; then
		fail "configure accepted llvm-profdata 14 for clang 19"
	fi
	expect_contains out 'version 14\.0'
	expect_contains out 'clang 19\.'
}

test_round_trip_clang19() {
	require clang-19 autoconf
	setup_fixture
	./configure --enable-optimizations CC=clang-19 PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_contains pgo-config.mk '^LLVM_PROFDATA = .*llvm-19/bin/llvm-profdata$'
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_contains make.out 'verify: interp.o: used profile data'
}

test_macro_catches_missing_profile_runtime() {
	require clang autoconf
	setup_fixture
	# A clang whose profile runtime cannot be found: link with a bogus resource directory.
	fake_bin clang-noprt "exec clang -resource-dir=$PWD/nowhere \"\$@\""
	if ./configure --enable-optimizations CC="$PWD/fakebin/clang-noprt" > out 2>&1; then
		fail "configure accepted a clang that cannot link instrumented programs"
	fi
	expect_contains out 'cannot link a program built with -fprofile-generate'
	expect_contains out 'libclang-rt-14-dev'
}

# CPython's configure takes the first llvm-ar in PATH (Debian's /usr/bin/llvm-ar is clang 14's),
# which cannot archive clang 19's LTO bitcode: profopt passes the one of clang's own LLVM.
test_cpython_gets_the_llvm_ar_of_clang19() {
	require clang-19
	require_out_of_tree_configure
	mkdir -p src/Python src/Include && touch src/configure src/Python/ceval.c
	echo '#define PY_VERSION "3.14.7"' > src/Include/patchlevel.h
	mkdir build && cd build
	"$SRCDIR/configure" --enable-optimizations CC=clang-19 --with-python-source="$PWD/../src" > configure.out 2>&1 ||
		{ cat configure.out; fail configure; }
	expect_contains configure.out "llvm-ar of clang's LLVM\.\.\. .*llvm-19/bin/llvm-ar$"
	make -n cpython-configure > dry.out 2>&1
	expect_contains dry.out 'LLVM_AR="[^"]*llvm-19/bin/llvm-ar"'
	"$SRCDIR/configure" --enable-optimizations CC=clang-19 --with-lto=no --with-python-source="$PWD/../src" > nolto.out 2>&1
	make -n cpython-configure > dry.out 2>&1
	expect_not_contains dry.out 'LLVM_AR='
}
