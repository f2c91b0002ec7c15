# t0760: a compiler cache under the pipeline (issue 16): a re-run on the same sources is
# answered from the cache, and a cached object is the object a fresh compile with the same
# profile gives: the cache never stands in for another profile, or for none.

# ccache_fixture CC: the fixture configured with "ccache CC", its cache in ./ccache.
ccache_fixture() {
	require ccache "$1" autoconf
	export CCACHE_DIR=$PWD/ccache CCACHE_NOHASHDIR=1
	setup_fixture
	./configure --enable-optimizations CC="ccache $1" PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail "configure"; }
}

# hits STAGE-LOG: how many compiles the cache answered in the compiles logged there.
hits() { CCACHE_STATSLOG=$1 ccache --show-log-stats | sed -n 's/^ *Hits: *\([0-9]*\) .*/\1/p'; }

# objects_sum: one hash of the optimized objects.
objects_sum() { cat interp.o main.o | sha256sum | cut -c1-16; }

# A whole pipeline, the use stage's cache lookups logged in $1.
pipeline_logged() {
	rm -f "$1"
	make profile-opt PGO_BUILD_USE="CCACHE_STATSLOG=$1 \$(MAKE) toy CFLAGS=\"\$(CFLAGS) \$(PGO_USE_CFLAGS)\" LDFLAGS=\"\$(LDFLAGS) \$(PGO_USE_LDFLAGS)\"" \
		> make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
}

# Trains on other programs than train.txt (every task runs the same toy, other loops).
other_training() { printf 'div\t./toy pdpdpdq 300000\nmul\t./toy pmpmpmq 250000\n' > train.txt; }

ccache_round_trip() {
	ccache_fixture "$1"
	pipeline_logged "$PWD/use1.log"
	first=$(objects_sum)

	# The project's clean, then the same pipeline: every use-stage compile from the cache,
	# the same objects, and verify's evidence the same.
	make clean > clean.out 2>&1
	pipeline_logged "$PWD/use2.log"
	expect_eq "$(hits use2.log)" 2 "use-stage compiles answered by the cache on the same profile"
	expect_eq "$(objects_sum)" "$first" "objects after a cached re-run"

	# Another training: the profile differs, so the cache must not answer with the old objects.
	make pgo-clean > pgoclean.out 2>&1 || { cat pgoclean.out; fail "make pgo-clean"; }
	other_training
	pipeline_logged "$PWD/use3.log"
	expect_eq "$(hits use3.log)" 0 "use-stage cache hits after the training changed"
	cached=$(objects_sum)
	[ "$cached" != "$first" ] || fail "another training gave the same objects: the test proves nothing"

	# The same training compiled without the cache gives the very same objects.
	make pgo-clean > pgoclean.out 2>&1
	CCACHE_DISABLE=1 pipeline_logged "$PWD/use4.log"
	expect_eq "$(objects_sum)" "$cached" "objects compiled without the cache, same training"
}

test_ccache_gcc() { ccache_round_trip gcc; }
test_ccache_clang() { ccache_round_trip clang; }

# CPython's pipeline: configure finds ccache, or is told where, or not to.
test_configure_with_ccache() {
	require ccache
	require_out_of_tree_configure
	mkdir -p src/Python src/Include && touch src/configure src/Python/ceval.c
	echo '#define PY_VERSION "3.13.5"' > src/Include/patchlevel.h
	mkdir build && cd build
	"$SRCDIR/configure" --enable-optimizations --with-python-source="$PWD/../src" > c1.out 2>&1 || true
	expect_contains c1.out 'compiled through ccache\.\.\. .*ccache'
	"$SRCDIR/configure" --enable-optimizations --without-ccache --with-python-source="$PWD/../src" > c2.out 2>&1 || true
	expect_contains c2.out 'compiled through ccache\.\.\. no'
	expect_status 1 "$SRCDIR/configure" --enable-optimizations --with-ccache=/nonexistent/ccache
	expect_contains out 'with-ccache=/nonexistent/ccache: not an executable file'
}

# CPython's configure gets the plain compiler (its test compiles gain nothing from a cache,
# and its sysconfig keeps what users' extension builds run); its make gets ccache.
test_ccache_goes_to_cpythons_make_not_its_configure() {
	require ccache gcc
	require_out_of_tree_configure
	mkdir -p src/Python src/Include && touch src/Python/ceval.c
	echo '#define PY_VERSION "3.13.5"' > src/Include/patchlevel.h
	cat > src/configure <<-'EOF'
	#!/bin/sh
	printf '%s\n' "$@" > configure-args
	printf 'CC= %s\nbuild_all:\n\t@echo "$(CC)" > make-cc\n' "$CC" > Makefile
	EOF
	chmod +x src/configure
	mkdir build && cd build
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-ccache --with-python-source="$PWD/../src" > c.out 2>&1 || { cat c.out; fail configure; }
	make cpython-configure > m.out 2>&1 || { cat m.out; fail "make cpython-configure"; }
	expect_contains cpython/build/configure-args '^CC=gcc$'
	make --eval='try-make: ; $(PY_MAKE) build_all' try-make > m.out 2>&1 || { cat m.out; fail "CPython's make"; }
	expect_contains cpython/build/make-cc '^/.*ccache gcc$'
}

# The pipeline's notes (the cache's hit rate per stage, for CPython) follow the summary.
test_summary_notes_follow_the_summary() {
	require gcc autoconf
	setup_fixture
	./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	echo 'ccache (use): 2 of 2 compiles from the cache' > note.txt
	make profile-opt PGO_SUMMARY_NOTES="$PWD/note.txt $PWD/absent.txt" > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_eq "$(grep -A 1 '^total ' make.out | tail -n 1)" 'ccache (use): 2 of 2 compiles from the cache' "the line after the summary's total"
	expect_contains make.out '^total +ok'
}
