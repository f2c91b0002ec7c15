# t0300-cpython-source: where CPython's source comes from (issue 14): a release X.Y.Z from a
# URL (python.org's layout by default; here offline file:// and loopback-HTTP mirrors) accepted
# only with its pinned SHA-256, never left half-downloaded or half-unpacked; the version read
# from the source; versions newer than measured warned about, bad ones refused.

fetch=$SRCDIR/Tools/scripts/fetch-cpython-source

# mirror/Python-X.Y.Z.tar.xz: just enough of a CPython tree for configure and cpython-source.
fake_release() {
	local v=$1 minor
	minor=$(echo "$v" | cut -d. -f2)
	mkdir -p "Python-$v/Include" "Python-$v/Python" mirror
	touch "Python-$v/configure" "Python-$v/Python/ceval.c"
	printf '#define PY_MAJOR_VERSION        3\n#define PY_MINOR_VERSION        %s\n#define PY_VERSION "%s"\n' \
		"$minor" "$v" > "Python-$v/Include/patchlevel.h"
	tar -cJf "mirror/Python-$v.tar.xz" "Python-$v"
	rm -rf "Python-$v"
}
sha_of() { sha256sum < "$1" | cut -c1-64; }

test_release_from_a_file_mirror_with_its_pinned_sha256() {
	fake_release 3.99.1
	sha=$(sha_of mirror/Python-3.99.1.tar.xz)
	path=$("$fetch" --cache="$PWD/cache" --url="file://$PWD/mirror/Python-{version}.tar.xz" --sha256="$sha" 3.99.1)
	expect_eq "$path" "$PWD/cache/Python-3.99.1.tar.xz" "cached tarball"
	expect_eq "$(sha_of "$path")" "$sha" "cached tarball's hash"
	# the pin table is read by the tarball's file name
	printf '# comment\nPython-3.99.1.tar.xz %s  test pin\n' "$sha" > pins
	rm -rf cache
	path=$("$fetch" --cache="$PWD/cache" --pins="$PWD/pins" --url="file://$PWD/mirror/Python-{version}.tar.xz" 3.99.1)
	expect_eq "$(sha_of "$path")" "$sha" "tarball fetched with the pin table"
}

test_wrong_or_missing_sha256_is_refused_and_nothing_kept() {
	fake_release 3.99.1
	wrong=$(printf '0%.0s' $(seq 64))
	expect_status 1 "$fetch" --cache="$PWD/cache" --url="file://$PWD/mirror/Python-{version}.tar.xz" --sha256="$wrong" 3.99.1
	expect_contains out "has SHA-256 [0-9a-f]{64}, expected 0{64}: refused"
	expect_eq "$(ls -A cache)" "" "files left in the cache"
	: > pins
	expect_status 1 "$fetch" --cache="$PWD/cache" --pins="$PWD/pins" --url="file://$PWD/mirror/Python-{version}.tar.xz" 3.99.1
	expect_contains out "no SHA-256 is pinned for Python-3\.99\.1\.tar\.xz"
	expect_contains out "--with-python-sha256=HEX"
	expect_status 1 "$fetch" --cache="$PWD/cache" --sha256=xyz --url="file://$PWD/mirror/Python-{version}.tar.xz" 3.99.1
	expect_contains out "not 64 lower-case hex digits"
	expect_status 1 "$fetch" --cache="$PWD/cache" 3.14
	expect_contains out "full number X\.Y\.Z"
	# a cached file whose hash is wrong is not trusted: it is downloaded again and checked
	mkdir -p cache && echo tampered > cache/Python-3.99.1.tar.xz
	sha=$(sha_of mirror/Python-3.99.1.tar.xz)
	path=$("$fetch" --cache="$PWD/cache" --url="file://$PWD/mirror/Python-{version}.tar.xz" --sha256="$sha" 3.99.1)
	expect_eq "$(sha_of "$path")" "$sha" "tampered cache replaced"
}

test_release_from_a_loopback_http_mirror() {
	require python3 curl
	fake_release 3.99.2
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	python3 -m http.server --bind 127.0.0.1 --directory mirror "$port" > http.log 2>&1 &
	server=$!
	trap 'kill $server 2>/dev/null' EXIT
	for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" > /dev/null && break; sleep 0.1; done
	sha=$(sha_of mirror/Python-3.99.2.tar.xz)
	path=$("$fetch" --cache="$PWD/cache" --url="http://127.0.0.1:$port/Python-{version}.tar.xz" --sha256="$sha" 3.99.2)
	expect_eq "$(sha_of "$path")" "$sha" "tarball over HTTP"
	expect_status 1 "$fetch" --cache="$PWD/cache2" --url="http://127.0.0.1:$port/missing-{version}.tar.xz" --sha256="$sha" 3.99.2
	expect_contains out "cannot download http://127\.0\.0\.1:$port/missing-3\.99\.2\.tar\.xz"
	expect_eq "$(ls -A cache2)" "" "files left after a failed download"
}

test_configure_and_make_fetch_unpack_and_read_the_version() {
	require_out_of_tree_configure
	require gcc
	fake_release 3.99.1
	sha=$(sha_of mirror/Python-3.99.1.tar.xz)
	export PROFOPT_CACHE=$PWD/cache
	"$SRCDIR/configure" --with-python-version=3.99.1 --with-python-url="file://$PWD/mirror/Python-{version}.tar.xz" \
		--with-python-sha256="$sha" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_contains configure.out "which CPython version the source is\.\.\. 3\.99$"
	expect_contains configure.out "WARNING: CPython 3\.99 is newer than the versions profopt's defaults were measured on"
	make cpython-source > make.out 2>&1 || { cat make.out; fail "make cpython-source"; }
	expect_contains cpython/src/Include/patchlevel.h '"3\.99\.1"'
	[ ! -e cpython/src.part ] || fail "cpython/src.part left behind"
	# with a wrong pin nothing is unpacked and no stamp claims a source
	rm -rf cpython cache
	"$SRCDIR/configure" --with-python-version=3.99.1 --with-python-url="file://$PWD/mirror/Python-{version}.tar.xz" \
		--with-python-sha256="$(printf 'a%.0s' $(seq 64))" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_status 2 make cpython-source
	expect_contains out "refused"
	[ ! -e cpython/src ] && [ ! -e cpython/src.part ] && [ ! -e cpython/source.stamp ] || fail "a refused tarball left a source tree or stamp"
	# bad options are refused by configure itself
	expect_status 1 "$SRCDIR/configure" --with-python-version=3.14
	expect_contains out "needs its full number X\.Y\.Z"
	expect_status 1 "$SRCDIR/configure" --with-python-version=3.99.1 --with-python-sha256=ABC
	expect_contains out "not 64 lower-case hex digits"
}

test_a_damaged_tarball_leaves_no_half_source_tree() {
	require_out_of_tree_configure
	require gcc
	fake_release 3.99.1
	head -c 300 mirror/Python-3.99.1.tar.xz > broken.tar.xz
	"$SRCDIR/configure" --with-python-source="$PWD/broken.tar.xz" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_status 2 make cpython-source
	expect_contains out "cannot unpack"
	[ ! -e cpython/src ] && [ ! -e cpython/src.part ] && [ ! -e cpython/source.stamp ] || fail "a damaged tarball left a half source tree or stamp"
}

test_versions_read_from_source_trees() {
	require_out_of_tree_configure
	require gcc
	for v in 3.14.7 3.15.0; do
		fake_release "$v"
		tar -xJf "mirror/Python-$v.tar.xz"
	done
	"$SRCDIR/configure" --with-python-source="$PWD/Python-3.14.7" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_contains configure.out "which CPython version the source is\.\.\. 3\.14$"
	expect_not_contains configure.out "is newer than"
	"$SRCDIR/configure" --with-python-source="$PWD/Python-3.15.0" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_contains configure.out "which CPython version the source is\.\.\. 3\.15$"
	expect_contains configure.out "WARNING: CPython 3\.15 is newer"
	# what the user passes to CPython's configure reaches it untouched (t0310: what is not)
	"$SRCDIR/configure" --with-python-source="$PWD/Python-3.14.7" PYTHON_CONFIGURE_ARGS="--with-ensurepip=no --disable-gil" > /dev/null 2>&1
	make -n cpython-configure > dry.out 2>&1
	expect_contains dry.out "^[[:space:]]*--with-ensurepip=no --disable-gil$"
	# CPython's test-only program is never built (make -o), unless asked for
	make -n install-python > dry.out 2>&1 || true
	expect_contains dry.out "-C [^ ]*/cpython/build (CC=\"[^\"]*\" )?-o Programs/_testembed (\\\$\\(test -f [^ ]*/frozen\.kept && echo '[^']*'\\) )?install "
	make -n install-python PGO_SKIP_PROGRAMS= > dry.out 2>&1 || true
	expect_not_contains dry.out "-o Programs/_testembed"
	# the test files are left for regrtest's tasks to compile from source, unless asked otherwise
	show='show-list: ; $(info $(PGO_TRAIN_LIST))@:'
	make -s --eval="$show" show-list > list.out
	expect_contains list.out 'compileall -q -j0 -x "lib2to3/tests/data|test/bad|test_lib2to3/data|/test/test_" '
	make -s --eval="$show" show-list PGO_PRECOMPILE_SKIP= > list.out
	expect_contains list.out 'compileall -q -j0 -x "lib2to3/tests/data|test/bad|test_lib2to3/data" '
}

# 3.14's tail-calling interpreter: on where clang 19 can build it, refused with the reason
# where it cannot (CPython's own configure accepts it anywhere and the build fails late).
test_tail_call_interp_only_where_it_can_be_built() {
	require_out_of_tree_configure
	require gcc clang-19 clang-14
	fake_release 3.14.7
	fake_release 3.13.9
	tar -xJf mirror/Python-3.14.7.tar.xz
	tar -xJf mirror/Python-3.13.9.tar.xz
	"$SRCDIR/configure" --enable-optimizations CC=clang-19 --with-python-source="$PWD/Python-3.14.7" > configure.out 2>&1 ||
		{ cat configure.out; fail configure; }
	expect_contains configure.out "tail-calling interpreter\.\.\. yes$"
	# on 3.14 the eval loop stays in LTO (out of it up to 3.13, with clang before 19)
	expect_contains configure.out "which objects stay out of LTO\.\.\. none$"
	make -n cpython-configure > dry.out 2>&1
	expect_contains dry.out " --with-tail-call-interp "
	"$SRCDIR/configure" --enable-optimizations CC=clang-19 --with-python-source="$PWD/Python-3.14.7" \
		--without-tail-call-interp > /dev/null 2>&1 || fail "configure --without-tail-call-interp"
	make -n cpython-configure > dry.out 2>&1
	expect_contains dry.out " --without-tail-call-interp "
	expect_contains Makefile '^PY_LTO_EXCLUDE = $'
	# on 3.13 the eval loop stays out of LTO with clang 14, in it with clang 19
	"$SRCDIR/configure" --enable-optimizations CC=clang-19 --with-python-source="$PWD/Python-3.13.9" > /dev/null 2>&1 ||
		fail "configure for 3.13"
	expect_contains Makefile '^PY_LTO_EXCLUDE = $'
	"$SRCDIR/configure" --enable-optimizations CC=clang-14 --with-python-source="$PWD/Python-3.13.9" > /dev/null 2>&1 ||
		fail "configure for 3.13 with clang 14"
	expect_contains Makefile '^PY_LTO_EXCLUDE = Python/ceval.o$'
	for cc in gcc clang-14; do
		"$SRCDIR/configure" --enable-optimizations CC=$cc --with-python-source="$PWD/Python-3.14.7" > configure.out 2>&1 ||
			{ cat configure.out; fail "configure with $cc"; }
		expect_contains configure.out "tail-calling interpreter\.\.\. no$"
		expect_contains configure.out "which objects stay out of LTO\.\.\. none$"
		make -n cpython-configure > dry.out 2>&1
		expect_not_contains dry.out "tail-call-interp"
		expect_status 1 "$SRCDIR/configure" --enable-optimizations CC=$cc --with-python-source="$PWD/Python-3.14.7" --with-tail-call-interp
		expect_contains out "tail-call-interp: it needs clang 19 or later, and $cc is"
	done
	expect_status 1 "$SRCDIR/configure" --enable-optimizations CC=clang-19 --with-python-source="$PWD/Python-3.13.9" --with-tail-call-interp
	expect_contains out "CPython 3\.13 has none"
	expect_status 1 "$SRCDIR/configure" CC=clang-19 --with-python-source="$PWD/Python-3.14.7" --with-tail-call-interp=maybe
	expect_contains out "takes yes or no, not 'maybe'"
}

# BOLT's stage is on by default from 3.13 where llvm-bolt is installed, never an error where it
# is not; 3.12 and older have it only when asked for.
test_bolt_stage_by_default_from_3_13() {
	require_out_of_tree_configure
	require gcc
	fake_release 3.13.9
	fake_release 3.12.9
	tar -xJf mirror/Python-3.13.9.tar.xz
	tar -xJf mirror/Python-3.12.9.tar.xz
	if command -v llvm-bolt-19 > /dev/null || ls /usr/lib/llvm-*/bin/llvm-bolt > /dev/null 2>&1; then
		"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/Python-3.13.9" > configure.out 2>&1 ||
			{ cat configure.out; fail configure; }
		expect_contains pgo-config.mk '^PGO_BOLT = yes'
	fi
	# BOLT's training: by default the training's workloads without CPython's tests, profopt's
	# programs at 0.3; or those PGO_BOLT_WORKLOADS names, at PGO_BOLT_TRAIN_SCALE
	local show='show-bolt: ; $(info $(call pgo_tasks_of,PGO_BOLT_TRAIN_ARGS_,,$(PGO_BOLT_WORKLOADS)))@:'
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-training=profopt,regrtest --with-python-source="$PWD/Python-3.13.9" > /dev/null 2>&1 ||
		fail "configure with two workloads"
	make -s --eval="$show" show-bolt > bolt.out
	expect_contains bolt.out '--workload=profopt .*python\.bolt_inst [^ ]*/Tools/train/\{\}\.py 0\.3"$'
	expect_not_contains bolt.out 'regrtest'
	make -s --eval="$show" show-bolt PGO_BOLT_WORKLOADS="profopt regrtest" PGO_BOLT_TRAIN_SCALE=1 > bolt.out
	expect_contains bolt.out '--workload=profopt .*python\.bolt_inst [^ ]*/Tools/train/\{\}\.py 1" --workload=regrtest .*python\.bolt_inst -m test --pgo'
	# CPython's tests alone: BOLT trains on them
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-training=regrtest --with-python-source="$PWD/Python-3.13.9" > /dev/null 2>&1 ||
		fail "configure with regrtest alone"
	make -s --eval="$show" show-bolt > bolt.out
	expect_contains bolt.out 'python\.bolt_inst -m test --pgo'
	expect_not_contains bolt.out 'Tools/train/'
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/Python-3.13.9" \
		LLVM_BOLT=/nonexistent/llvm-bolt > configure.out 2>&1 || { cat configure.out; fail "configure without llvm-bolt"; }
	expect_contains configure.out 'no BOLT stage: llvm-bolt not found at /nonexistent/llvm-bolt'
	expect_contains pgo-config.mk '^PGO_BOLT = no'
	"$SRCDIR/configure" --enable-optimizations --disable-bolt CC=gcc --with-python-source="$PWD/Python-3.13.9" > /dev/null 2>&1 ||
		fail "configure --disable-bolt"
	expect_contains pgo-config.mk '^PGO_BOLT = no'
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/Python-3.12.9" > configure.out 2>&1 ||
		{ cat configure.out; fail "configure for 3.12"; }
	expect_contains pgo-config.mk '^PGO_BOLT = no'
	expect_not_contains configure.out 'BOLT'
	# no PGO, no BOLT
	"$SRCDIR/configure" CC=gcc --with-python-source="$PWD/Python-3.13.9" > /dev/null 2>&1 || fail "configure without PGO"
	expect_contains pgo-config.mk '^PGO_BOLT = no'
}

# A shared libpython holds the interpreter's code and python is its launcher: no BOLT stage
# (said; --enable-bolt refused, as it would rewrite the launcher only), and CPython's configure
# gets an rpath to the prefix's lib, so the installed python runs without LD_LIBRARY_PATH.
test_shared_build_bolts_its_library_and_has_an_rpath() {
	require_out_of_tree_configure
	require gcc
	fake_release 3.14.9
	tar -xJf mirror/Python-3.14.9.tar.xz
	local c="$SRCDIR/configure --enable-optimizations CC=gcc --prefix=/opt/py --with-python-source=$PWD/Python-3.14.9"
	$c PYTHON_CONFIGURE_ARGS="--enable-shared --with-ensurepip=no" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_contains Makefile '^PY_SHARED = yes$'
	# BOLT rewrites the library, where the code is; its training and check run the launcher on
	# the instrumented and the rewritten copy, each under the library's name in its own directory
	make -s --eval='show: ; $(info $(PGO_BOLT_BINARY) $(PGO_BOLT_TRAIN_ARGS_profopt))@:' show > bolt.out
	# (make install copies libpython3.14.so, CPython's hard link to the library: it follows)
	make -s --eval='show: ; $(info $(PGO_BOLT_LINKS))@:' show > links.out
	expect_eq "$(cat links.out)" libpython3.14.so "the library's hard links"
	expect_contains bolt.out "^libpython3\.14\.so\.1\.0 .*--each=\"$PWD/cpython/pgo/bolt-train/python "
	make -s "$PWD/cpython/pgo/bolt-train/python" "$PWD/cpython/pgo/bolt-check/python"
	expect_eq "$(readlink cpython/pgo/bolt-train/libpython3.14.so.1.0)" "$PWD/cpython/build/libpython3.14.so.1.0.bolt_inst"
	expect_eq "$(readlink cpython/pgo/bolt-check/libpython3.14.so.1.0)" "$PWD/cpython/build/libpython3.14.so.1.0.bolt"
	mkdir -p cpython/build && printf '#!/bin/sh\necho "$LD_LIBRARY_PATH $*"\n' > cpython/build/python && chmod +x cpython/build/python
	expect_eq "$(LD_LIBRARY_PATH=/elsewhere cpython/pgo/bolt-check/python -c 'x y')" "$PWD/cpython/pgo/bolt-check -c x y" \
		"the check's launcher runs on the rewritten library"
	rm cpython/build/python
	if command -v llvm-bolt-19 > /dev/null || ls /usr/lib/llvm-*/bin/llvm-bolt > /dev/null 2>&1; then
		expect_contains pgo-config.mk '^PGO_BOLT = yes$'
		make -pn 2>/dev/null | grep -q "^$PWD/cpython/pgo/bolt.stamp: .* | $PWD/cpython/pgo/bolt-train/python $PWD/cpython/pgo/bolt-check/python" ||
			fail "the BOLT stage does not make its launchers first"
	fi
	make -n cpython-configure > dry.out 2>&1
	expect_contains dry.out "'LDFLAGS=-Wl,-rpath,/opt/py/lib' --enable-shared --with-ensurepip=no"
	# verify's dispatch check reads the eval loop where it is: in the library
	make -s --eval='show-dispatch: ; $(info $(PGO_DISPATCH_BINARY))@:' show-dispatch > dispatch.out
	expect_contains dispatch.out '^libpython3\.14\.so\.1\.0$'
	make -s --eval='show-dispatch: ; $(info $(PGO_DISPATCH_BINARY))@:' show-dispatch PY_FREE_THREADED=yes > dispatch.out
	expect_contains dispatch.out '^libpython3\.14t\.so\.1\.0$'
	# verify's build_config check expects the library of this build
	make -s --eval='show-expect: ; $(info $(py_expect))@:' show-expect > expect.out
	expect_contains expect.out "^shared=yes free-threaded=no libdir=$PWD/cpython/build\$"
	# verify runs a guard or PGO test that failed once more, alone (a timing test under load);
	# the checks, which time nothing, count by their one run
	make -s --eval='show: ; $(info $(PGO_VERIFY_RUN))@:' show > verify.out
	expect_contains verify.out ' --all-pass --retry-alone --log-dir=[^ ]*/guard .* --all-pass --retry-alone .*--log-dir=[^ ]*/regrtest '
	expect_contains verify.out ' --all-pass --log-dir=[^ ]*/checks '
	# installcheck runs the source's python3.X, and refuses a prefix make would split
	make -n installcheck-python > dry.out 2>&1
	expect_contains dry.out ' python3\.14 '
	# make bench builds stock's interpreters with the same options (like with like)
	make -n bench > dry.out 2>&1
	expect_contains dry.out "bench-builds .* --configure-args='--enable-shared;--with-ensurepip=no' bench"
	expect_status 2 make installcheck-python "prefix=/opt/a b"
	expect_contains out "prefix '/opt/a b' contains white space"
	expect_status 2 make install-python "DESTDIR=/tmp/x;y"
	expect_contains out "DESTDIR '/tmp/x;y' contains ';'"
	expect_status 2 make uninstall "DESTDIR=/tmp/x /"
	expect_contains out "DESTDIR '/tmp/x /' contains white space"
	# the last word wins, as in CPython's configure
	$c PYTHON_CONFIGURE_ARGS="--enable-shared --disable-shared" > /dev/null 2>&1 || fail "configure, shared then not"
	expect_contains Makefile '^PY_SHARED = no$'
	make -n cpython-configure > dry.out 2>&1
	expect_not_contains dry.out 'Wl,-rpath'
	make -s --eval='show-dispatch: ; $(info $(PGO_DISPATCH_BINARY))@:' show-dispatch > dispatch.out
	expect_contains dispatch.out '^python$'
}

# A free-threaded CPython trains with threads that run at once: counters are updated atomically
# where the compiler can (prefer-atomic), with gcc and clang, unless the user says otherwise.
test_free_threaded_build_counts_atomically() {
	local show='show-list: ; $(info $(PGO_TRAIN_LIST))@:'
	require_out_of_tree_configure
	require gcc
	fake_release 3.13.9
	tar -xJf mirror/Python-3.13.9.tar.xz
	local c="$SRCDIR/configure --enable-optimizations --with-python-source=$PWD/Python-3.13.9"
	for cc in gcc clang; do
		command -v $cc > /dev/null || continue
		$c CC=$cc PYTHON_CONFIGURE_ARGS=--disable-gil > configure.out 2>&1 || { cat configure.out; fail "configure $cc"; }
		expect_contains pgo-config.mk '^PGO_GEN_CFLAGS = .*-fprofile-update=prefer-atomic'
		# the training adds the threaded task, and verify's build_config check expects no GIL
		make -s --eval="$show" show-list > list.out
		expect_contains list.out 'train,ft_|ft_\)|train-threaded.txt >> [^ ]*/train-profopt.txt'
		make -s --eval='show-expect: ; $(info $(py_expect))@:' show-expect > expect.out
		expect_contains expect.out '^shared=no free-threaded=yes$'
		$c CC=$cc > /dev/null 2>&1 || fail "configure $cc, with the GIL"
		expect_not_contains pgo-config.mk '^PGO_GEN_CFLAGS = .*-fprofile-update=prefer-atomic'
		make -s --eval="$show" show-list > list.out
		expect_not_contains list.out 'train-threaded'
		make -s --eval='show-expect: ; $(info $(py_expect))@:' show-expect > expect.out
		expect_contains expect.out '^shared=no free-threaded=no$'
	done
	$c CC=gcc --with-pgo-profile-update=single PYTHON_CONFIGURE_ARGS=--disable-gil > /dev/null 2>&1 || fail "configure, single"
	expect_contains pgo-config.mk '^PGO_GEN_CFLAGS = .*-fprofile-update=single'
}

# The frozen modules are written by programs linked from the interpreter's objects: the use
# stage puts back the last build's copies and does not link those programs again, unless a
# frozen source is newer than its copy (then CPython's rules run).  A stand-in for CPython's
# build directory: _bootstrap_python "links" (logged) and writes the frozen header.
fake_frozen_build() {
	mkdir -p cpython/build cpython/pgo Python-3.14.7/Lib
	echo 'code one' > Python-3.14.7/Lib/os.py
	rm -f cpython/src && ln -s "$PWD/Python-3.14.7" cpython/src
	cat > cpython/build/Makefile <<'MK'
build_all: python
_bootstrap_python:
	echo link >> links.log
	printf '#!/bin/sh\ncat "$$1"\n' > $@ && chmod +x $@
Python/frozen_modules/os.h: ../src/Lib/os.py _bootstrap_python
	mkdir -p Python/frozen_modules && ./_bootstrap_python ../src/Lib/os.py > $@
python: Python/frozen_modules/os.h
	cat Python/frozen_modules/os.h > $@
clean:
	rm -f python _bootstrap_python Python/frozen_modules/*.h
MK
}

test_frozen_modules_kept_across_the_clean() {
	require_out_of_tree_configure
	require gcc
	fake_release 3.14.7
	tar -xJf mirror/Python-3.14.7.tar.xz
	"$SRCDIR/configure" --enable-optimizations --with-python-source="$PWD/Python-3.14.7" > configure.out 2>&1 ||
		{ cat configure.out; fail configure; }
	fake_frozen_build
	run='run-clean: ; @$(PGO_CLEAN)
run-use: ; @$(PGO_BUILD_USE)'
	make -s -C cpython/build build_all > /dev/null
	expect_eq "$(wc -l < cpython/build/links.log)" 1 "links of the instrumented build"
	make -s --eval="$run" run-clean > /dev/null 2>&1
	test ! -e cpython/build/Python/frozen_modules/os.h || fail "the clean left the frozen module"
	test -s cpython/pgo/frozen.tar || fail "the clean kept no copy of the frozen modules"
	make -s --eval="$run" run-use > use.out 2>&1 || { cat use.out; fail "use build"; }
	expect_not_contains use.out "Segmentation fault"
	expect_contains use.out "frozen modules: the last build's, kept"
	expect_eq "$(wc -l < cpython/build/links.log)" 1 "links after the use build (its programs not linked again)"
	expect_eq "$(cat cpython/build/python)" "code one" "the interpreter's frozen module"
	# a later make of the build (install-python, cpython-test) does not link them either
	make -s --eval='again: ; @$(PY_MAKE) build_all' again > /dev/null 2>&1
	expect_eq "$(wc -l < cpython/build/links.log)" 1 "links after a later make of the build"
	# a frozen source changed since: CPython's rules write it again, with the program linked again
	make -s --eval="$run" run-clean > /dev/null 2>&1
	sleep 1
	echo 'code two' > Python-3.14.7/Lib/os.py
	make -s --eval="$run" run-use > use.out 2>&1 || { cat use.out; fail "use build after a change"; }
	expect_not_contains use.out "frozen modules: the last build"
	expect_eq "$(wc -l < cpython/build/links.log)" 2 "links after a frozen source changed"
	expect_eq "$(cat cpython/build/python)" "code two" "the interpreter's frozen module after the change"
	# nothing to keep (a build that never wrote them): CPython's rules, and no stale copy
	make -s --eval="$run" run-clean > /dev/null 2>&1
	make -s -C cpython/build clean > /dev/null
	make -s --eval="$run" run-clean > /dev/null 2>&1
	test ! -e cpython/pgo/frozen.tar || fail "a clean of a tree without frozen modules kept an old copy"
	make -s --eval="$run" run-use > use.out 2>&1 || { cat use.out; fail "use build without a copy"; }
	expect_eq "$(wc -l < cpython/build/links.log)" 3 "links without a kept copy"
}

# --disable-pie (a PGO build's default): CPython's executables are linked position-dependent
# the way its own --enable-bolt does it (LINKCC, which its configure takes from the
# environment, and -fno-pie in CFLAGS_NODIST); its shared modules stay position-independent.  The stand-in configure
# keeps LINKCC, CFLAGS_NODIST and LDFLAGS_NODIST as CPython's does and builds one program and
# one module, link-time optimized as with --with-lto (where -fno-pie at the link would break it).
test_disable_pie_builds_a_position_dependent_interpreter() {
	require_out_of_tree_configure
	require gcc file
	fake_release 3.14.7
	tar -xJf mirror/Python-3.14.7.tar.xz
	cat > Python-3.14.7/configure <<'SH'
#!/bin/sh
# VAR=VALUE arguments set variables, as in autoconf's configure
for a; do case $a in [A-Z]*=*) eval "${a%%=*}=\"\${a#*=}\"" ;; esac; done
src=$(dirname "$0")
printf 'int main(void) { return 0; }\n' > main.c
printf 'static int x[4];\nint *f(void) { return &x[1]; }\n' > mod.c
cat > Makefile <<MK
CC=$CC
PURIFY=
LINKCC=${LINKCC:-\$(PURIFY) \$(CC)}
CONFIGURE_CFLAGS_NODIST=$CFLAGS_NODIST
CONFIGURE_LDFLAGS_NODIST=$LDFLAGS_NODIST
all: python mod.so
python: main.c
	\$(CC) \$(CONFIGURE_CFLAGS_NODIST) -c main.c -o main.o && \$(LINKCC) -o python main.o
mod.so: mod.c
	\$(CC) \$(CONFIGURE_CFLAGS_NODIST) -flto -fPIC -c mod.c -o mod.o && \$(CC) -shared -flto \$(CONFIGURE_LDFLAGS_NODIST) mod.o -o mod.so
MK
SH
	chmod +x Python-3.14.7/configure
	for pie in --enable-pie --disable-pie --enable-optimizations "--enable-optimizations --enable-pie" ""; do
		# shellcheck disable=SC2086
		"$SRCDIR/configure" CC=gcc --with-python-source="$PWD/Python-3.14.7" $pie > configure.out 2>&1 ||
			{ cat configure.out; fail "configure $pie"; }
		rm -rf cpython/build && make cpython-configure > make.out 2>&1 || { cat make.out; fail "cpython-configure $pie"; }
		make -C cpython/build > make.out 2>&1 || { cat make.out; fail "the stand-in's build, $pie"; }
		file -L cpython/build/python cpython/build/mod.so > file.out
		expect_contains file.out 'mod\.so: ELF .* shared object'
		case $pie in
		--disable-pie|--enable-optimizations)
			expect_contains configure.out "position-independent\.\.\. no [(]--enable-pie for PIE[)]$"
			expect_contains file.out 'python: ELF .* LSB executable'
			expect_contains cpython/build/Makefile '^CONFIGURE_CFLAGS_NODIST=.*-fno-pie' ;;
		*)
			expect_contains configure.out "position-independent\.\.\. as gcc makes them$"
			expect_not_contains cpython/build/Makefile 'no-pie' ;;
		esac
	done
	expect_status 1 "$SRCDIR/configure" --with-python-source="$PWD/Python-3.14.7" --enable-pie=maybe
	expect_contains out "takes yes or no, not 'maybe'"
}
