# t0310-python-configure-args: CPython's own configure options, given in PYTHON_CONFIGURE_ARGS
# (issue 55, items 3 and 4).  Each is carried to every build of CPython (instrumented,
# profile-use, plain), absorbed as profopt's own option, adjusted, or refused by profopt's
# configure, before anything else, with its reason and what to do instead (one test per
# refusal below); the man page's table names every option CPython 3.13 and 3.14 have.  Docker's
# official image's configure line and make PROFILE_TASK work unchanged, and make altinstall
# installs python3.X only.

# A CPython source tree of version $1 with just enough for profopt's configure: ./Python-$1.
fake_source() {
	local v=$1 minor
	minor=$(echo "$v" | cut -d. -f2)
	mkdir -p "Python-$v/Include" "Python-$v/Python" "Python-$v/Tools/jit"
	touch "Python-$v/configure" "Python-$v/Python/ceval.c"
	printf '#define PY_MAJOR_VERSION        3\n#define PY_MINOR_VERSION        %s\n#define PY_VERSION "%s"\n' \
		"$minor" "$v" > "Python-$v/Include/patchlevel.h"
}

# refused ARGS WHY [WORD]: configure refuses PYTHON_CONFIGURE_ARGS=ARGS, naming WORD (default:
# ARGS) and saying WHY (grep -E) of it.
refused() {
	local args=$1 why=$2 word=${3:-$1}
	expect_status 1 "$SRCDIR/configure" --with-python-source="$PWD/Python-3.14.7" PYTHON_CONFIGURE_ARGS="$args"
	expect_contains out "error: PYTHON_CONFIGURE_ARGS: $word( with --enable-shared)? is refused: .*$why"
	test ! -f Makefile || fail "a refused configure wrote a Makefile ($args)"
}

# Every line of configure's table, every pattern of it: refused, before the compiler is even
# looked at, saying why and what to do instead.
test_each_refused_option_is_refused_with_its_reason() {
	require_out_of_tree_configure
	fake_source 3.14.7
	local w
	for w in --with-pydebug --with-pydebug=yes; do refused $w "debug build .*--with-assertions"; done
	for w in --with-address-sanitizer --with-memory-sanitizer --with-undefined-behavior-sanitizer --with-thread-sanitizer; do
		refused $w "sanitized build is for finding bugs.*stack budget"
	done
	for w in --enable-framework --enable-framework=/Library/Frameworks --enable-universalsdk --with-universal-archs=universal2 \
		--with-framework-name=Py --with-dsymutil --with-app-store-compliance; do
		refused $w "macOS or iOS"
	done
	for w in --enable-wasm-dynamic-linking --enable-wasm-pthreads --with-emscripten-target=browser; do refused $w "WebAssembly"; done
	for w in --disable-test-modules --enable-test-modules=no; do refused $w "_testcapi.*remove lib/pythonX\.Y/test"; done
	for w in --with-suffix=.exe --with-suffix; do refused $w "as \./python"; done
	refused --prefix=/opt/py "give \./configure --prefix=DIR"
	refused "--prefix /opt/py" "give \./configure --prefix=DIR" --prefix
	refused --exec-prefix=/opt "give \./configure --prefix=DIR"
	for w in bindir sbindir libexecdir sysconfdir sharedstatedir localstatedir runstatedir libdir includedir oldincludedir \
		datarootdir datadir infodir localedir mandir docdir htmldir dvidir pdfdir psdir; do
		refused --$w=/x "under profopt's own --prefix.*--with-platlibdir=lib64"
	done
	for w in --host=aarch64-linux-gnu --target=aarch64-linux-gnu; do refused $w "\./configure --host=TRIPLE"; done
	refused --with-build-python=/usr/bin/python3 "builds its own build-python"
	refused --srcdir=/x "with-python-source=DIR"
	for w in --help --help=short -h --version -V; do refused $w "ask it directly"; done
	refused CC=clang "give \./configure CC="
	for w in CFLAGS_NODIST=-O3 LDFLAGS_NODIST=-s; do refused $w "give yours as CFLAGS= or LDFLAGS="; done
	refused PROFILE_TASK=-mtest "give PROFILE_TASK to make"
	for w in BOLT_COMMON_FLAGS=-x BOLT_INSTRUMENT_FLAGS=-x BOLT_APPLY_FLAGS=-x; do refused $w "PGO_BOLT_FLAGS"; done
	# a refused word anywhere among carried ones
	refused "--enable-shared --with-pydebug --with-ensurepip" "debug build" --with-pydebug
}

# What is refused only with something else, and profopt's own options given twice over.
test_conditional_refusals() {
	require_out_of_tree_configure
	require gcc
	fake_source 3.14.7
	# an LDFLAGS of a shared build replaces profopt's rpath, unless it has one
	refused "--enable-shared LDFLAGS=-L/opt/lib" "add -Wl,-rpath,PREFIX/lib to your LDFLAGS" LDFLAGS=-L/opt/lib
	# --build names this machine natively (Docker's line), but a cross build gives its own
	expect_status 1 "$SRCDIR/configure" --host=aarch64-linux-gnu --with-python-source="$PWD/Python-3.14.7" \
		PYTHON_CONFIGURE_ARGS=--build=x86_64-linux-gnu
	expect_contains out "--build=x86_64-linux-gnu is refused: in a cross build \(--host=aarch64-linux-gnu\) profopt gives CPython --build"
	# an absorbed option that contradicts profopt's own
	local c="$SRCDIR/configure --with-python-source=$PWD/Python-3.14.7 CC=gcc"
	expect_status 1 $c --disable-optimizations PYTHON_CONFIGURE_ARGS=--enable-optimizations
	expect_contains out "--enable-optimizations is profopt's own option .*contradicts"
	expect_status 1 $c --enable-optimizations --with-lto=thin PYTHON_CONFIGURE_ARGS=--with-lto=full
	expect_contains out "--with-lto=full is profopt's own option .*contradicts"
	expect_status 1 $c --enable-optimizations --without-lto PYTHON_CONFIGURE_ARGS=--with-lto
	expect_contains out "--with-lto is profopt's own option .*contradicts"
	expect_status 1 $c PYTHON_CONFIGURE_ARGS=--with-lto=maybe
	expect_contains out "--with-lto=maybe: profopt's --with-lto, which this is, takes full, thin, yes or no"
	expect_status 1 $c --disable-bolt PYTHON_CONFIGURE_ARGS=--enable-bolt
	expect_contains out "--enable-bolt is profopt's own option"
	# absorbed, they are checked as profopt's own: BOLT rewrites a shared build's library, and
	# the tail-calling interpreter needs clang 19
	if command -v llvm-bolt-19 > /dev/null || ls /usr/lib/llvm-*/bin/llvm-bolt > /dev/null 2>&1; then
		$c --enable-optimizations PYTHON_CONFIGURE_ARGS="--enable-shared --enable-bolt" > configure.out 2>&1 ||
			{ cat configure.out; fail "configure, shared with BOLT"; }
		expect_contains pgo-config.mk '^PGO_BOLT = yes$'
	fi
	expect_status 1 $c --enable-optimizations PYTHON_CONFIGURE_ARGS=--with-tail-call-interp
	expect_contains out "tail-call-interp: it needs clang 19 or later, and gcc is"
	# a shared build with an rpath of its own, and the =no forms of refused options, pass
	$c PYTHON_CONFIGURE_ARGS="--enable-shared LDFLAGS=-Wl,-rpath,/opt/lib --with-pydebug=no --enable-framework=no --with-suffix=no" \
		> configure.out 2>&1 || { cat configure.out; fail "configure with an rpath and =no forms"; }
	expect_contains Makefile '^PYTHON_CONFIGURE_ARGS = --enable-shared LDFLAGS=-Wl,-rpath,/opt/lib --with-pydebug=no --enable-framework=no --with-suffix=no$'
}

# The experimental JIT: CPython 3.13 and later, built with the LLVM version its Tools/jit names
# (read from the source), found as CPython finds it: TOOL-N or TOOL of version N in PATH.
test_experimental_jit_needs_its_llvm() {
	require_out_of_tree_configure
	require gcc
	fake_source 3.12.9
	fake_source 3.13.9
	echo '_LLVM_VERSION = 77' > Python-3.13.9/Tools/jit/_llvm.py
	local c="$SRCDIR/configure CC=gcc --with-python-source=$PWD/Python-3.13.9"
	expect_status 1 $SRCDIR/configure CC=gcc --with-python-source="$PWD/Python-3.12.9" PYTHON_CONFIGURE_ARGS=--enable-experimental-jit
	expect_contains out "--enable-experimental-jit is refused: CPython 3\.12 has no JIT"
	for w in --enable-experimental-jit --enable-experimental-jit=yes-off; do
		expect_status 1 $c PYTHON_CONFIGURE_ARGS=$w
		expect_contains out "which LLVM CPython's JIT is built with\.\.\. LLVM 77$"
		expect_contains out "$w needs LLVM 77 at build time .*no clang-77 .*apt-get install clang-77 llvm-77"
	done
	# clang found, llvm-readobj not
	fake_bin clang-77 'echo "Debian clang version 77.1.0 (1)"'
	PATH=$PWD/fakebin:$PATH expect_status 1 $c PYTHON_CONFIGURE_ARGS=--enable-experimental-jit
	expect_contains out "for clang of LLVM 77, for the JIT\.\.\. clang-77$"
	expect_contains out "no llvm-readobj-77 \(nor a llvm-readobj of version 77\)"
	fake_bin llvm-readobj 'echo "LLVM (http://llvm.org/):"; echo "  LLVM version 77.1.0"'
	PATH=$PWD/fakebin:$PATH $c PYTHON_CONFIGURE_ARGS=--enable-experimental-jit > configure.out 2>&1 ||
		{ cat configure.out; fail "configure with LLVM 77"; }
	expect_contains configure.out "for llvm-readobj of LLVM 77, for the JIT\.\.\. llvm-readobj$"
	make -n cpython-configure > dry.out 2>&1
	expect_contains dry.out " --enable-experimental-jit$"
	# the tier-2 interpreter alone needs no LLVM
	$c PYTHON_CONFIGURE_ARGS=--enable-experimental-jit=interpreter > configure.out 2>&1 || { cat configure.out; fail "JIT=interpreter"; }
	expect_not_contains configure.out "LLVM"
}

# Carried options reach CPython's configure in every build: the instrumented and profile-use
# builds (cpython-configure) and the plain build of the test comparison (cpython-plain).
test_carried_options_reach_every_build() {
	require_out_of_tree_configure
	require gcc
	fake_source 3.13.9
	local args="--with-valgrind --without-pymalloc --with-system-expat --with-system-libmpdec --with-ensurepip=install"
	args="$args --enable-loadable-sqlite-extensions --enable-option-checking=fatal --with-openssl=/usr --disable-gil --with-assertions"
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/Python-3.13.9" PYTHON_CONFIGURE_ARGS="$args" \
		> configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_not_contains configure.out "profopt's own options"
	make -n cpython-configure > dry.out 2>&1
	expect_contains dry.out " $args$"
	make -s --eval='show: ; $(info $(py_plain_cmd))@:' show > plain.out
	expect_contains plain.out "^\.\./src/configure +--prefix=\"/usr/local\" CC=\"gcc\" +$args && "
	# a shared plain build's python loads its own libpython, before any LD_LIBRARY_PATH
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/Python-3.13.9" \
		PYTHON_CONFIGURE_ARGS="--enable-shared --with-ensurepip=no" > /dev/null 2>&1 || fail "configure, shared"
	make -s --eval='show: ; $(info $(py_plain_cmd))@:' show > plain.out
	expect_contains plain.out "'LDFLAGS_NODIST=-Wl,--disable-new-dtags,-rpath,$PWD/cpython/plain' --enable-shared --with-ensurepip=no && "
}

# Docker's official python image: its configure line as PYTHON_CONFIGURE_ARGS, unchanged, and
# its make PROFILE_TASK.  --enable-optimizations and --with-lto are profopt's own (PGO on, LTO of
# profopt's kind), the rest goes to CPython; PROFILE_TASK is the training, as in stock's build.
test_docker_configure_line_and_profile_task() {
	require_out_of_tree_configure
	require gcc
	fake_source 3.13.9
	local docker="--enable-loadable-sqlite-extensions --enable-optimizations --enable-option-checking=fatal --enable-shared --with-lto --with-ensurepip"
	local carried="--enable-loadable-sqlite-extensions --enable-option-checking=fatal --enable-shared --with-ensurepip"
	"$SRCDIR/configure" CC=gcc --prefix=/usr/local --with-python-source="$PWD/Python-3.13.9" PYTHON_CONFIGURE_ARGS="$docker" \
		> configure.out 2>&1 || { cat configure.out; fail "configure with Docker's line"; }
	expect_contains configure.out "PYTHON_CONFIGURE_ARGS: --enable-optimizations --with-lto: profopt's own options, done by profopt"
	expect_contains pgo-config.mk '^PGO_ENABLED = yes$'
	expect_contains Makefile '^PYTHON_LTO_ARG = --with-lto=yes$'
	expect_contains Makefile "^PYTHON_CONFIGURE_ARGS = $carried\$"
	make -n cpython-configure > dry.out 2>&1
	expect_contains dry.out "'LDFLAGS=-Wl,-rpath,/usr/local/lib' $carried$"
	expect_not_contains dry.out "enable-optimizations"
	expect_eq "$(grep -o -- '--with-lto[=a-z]*' dry.out | tr '\n' ' ')" "--with-lto=yes " "LTO options given to CPython"
	make -s --eval='show: ; $(info $(py_plain_cmd))@:' show > plain.out
	expect_contains plain.out " $carried && "
	# make's EXTRA_CFLAGS and LDFLAGS (Docker's make line) reach every CPython make, optimized and
	# plain, after a shared build's rpath, with --strip-all held back for make install
	make -s --eval='show: ; $(info $(PY_MAKE)|$(py_plain_cmd))@:' show EXTRA_CFLAGS='-O2 -g' \
		LDFLAGS=-Wl,-z,relro,--strip-all > flags.out
	expect_contains flags.out " EXTRA_CFLAGS='-O2 -g' LDFLAGS='-Wl,-rpath,/usr/local/lib -Wl,-z,relro' .*\|.* EXTRA_CFLAGS='-O2 -g' LDFLAGS='-Wl,-z,relro'$"
	test -f cpython/strip-on-install || fail "make install was not told to strip"
	make -s --eval='show: ; $(info $(PY_MAKE))@:' show > flags.out
	expect_not_contains flags.out "EXTRA_CFLAGS|LDFLAGS"
	# make PROFILE_TASK=...: that task alone is the training (the user workload); empty, profopt's
	local task='-m test.regrtest --pgo test_array test_base64 || true'
	make -s --eval='show: ; $(info $(PGO_WORKLOADS)|$(PGO_TRAIN_ARGS_user))@:' show PROFILE_TASK="$task" > task.out
	expect_contains task.out "^user\|.*--setenv=PYTHON=\./python -- '\\\$PYTHON -m test\.regrtest --pgo test_array test_base64 \|\| true'$"
	make -s --eval='show: ; $(info $(PGO_WORKLOADS))@:' show PROFILE_TASK= > task.out
	expect_contains task.out "^profopt regrtest$"
	expect_status 2 make show --eval='show: ; @:' PROFILE_TASK=-mtest PGO_TRAIN_COMMAND='$PYTHON x.py'
	expect_contains out "PROFILE_TASK and PGO_TRAIN_COMMAND both name a training command"
	# with clang, --with-lto is LTO of profopt's kind (thin)
	if command -v clang > /dev/null; then
		"$SRCDIR/configure" CC=clang --with-python-source="$PWD/Python-3.13.9" PYTHON_CONFIGURE_ARGS="$docker" \
			> configure.out 2>&1 || { cat configure.out; fail "configure with Docker's line, clang"; }
		expect_contains Makefile '^PYTHON_LTO_ARG = --with-lto=thin$'
	fi
}

# A stand-in for a finished build: CPython's Makefile installs python3.X, and with install also
# the python3 link; the driver, the verify stamp and the profile's record are there.
fake_finished_build() {
	mkdir -p cpython/build cpython/pgo Tools/profopt
	cp "$PROFOPT" Tools/profopt/profopt
	touch cpython/pgo/verify.stamp
	echo '{}' > cpython/pgo/profile-manifest.json
	printf '#!/bin/sh\necho "$3/lib/python3.13"\n' > cpython/build/python && chmod +x cpython/build/python
	cat > cpython/build/Makefile <<'MK'
prefix=/usr/local
altinstall:
	mkdir -p $(DESTDIR)$(prefix)/bin $(DESTDIR)$(prefix)/lib/python3.13
	if test -f elf; then cp elf $(DESTDIR)$(prefix)/bin/python3.13; else echo python > $(DESTDIR)$(prefix)/bin/python3.13; fi
install: altinstall
	ln -sf python3.13 $(DESTDIR)$(prefix)/bin/python3
MK
}

test_altinstall_installs_python3_x_only() {
	require_out_of_tree_configure
	require gcc
	fake_source 3.13.9
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/Python-3.13.9" > configure.out 2>&1 ||
		{ cat configure.out; fail configure; }
	# nothing built: profopt itself only, and the message names the target that installs CPython
	expect_status 0 make altinstall DESTDIR="$PWD/d0"
	expect_contains out "altinstall: no finished profile-opt build, so only profopt itself was installed \(make altinstall-python installs"
	test -x d0/usr/local/bin/profopt || fail "make altinstall did not install profopt"
	fake_finished_build
	local stamp=$PWD/cpython/pgo/verify.stamp
	make -o "$stamp" altinstall-python DESTDIR="$PWD/d1" > make.out 2>&1 || { cat make.out; fail "make altinstall-python"; }
	expect_contains make.out "-C $PWD/cpython/build .*altinstall prefix=\"/usr/local\" DESTDIR=\"$PWD/d1\""
	expect_contains make.out "altinstall-python: the optimized CPython in $PWD/d1/usr/local \(python3\.X only"
	test -f d1/usr/local/bin/python3.13 || fail "no python3.13"
	test ! -e d1/usr/local/bin/python3 || fail "make altinstall-python installed python3"
	test -f d1/usr/local/lib/python3.13/profopt-profile.json || fail "no record of the profile beside the standard library"
	make -o "$stamp" install-python DESTDIR="$PWD/d2" > make.out 2>&1 || { cat make.out; fail "make install-python"; }
	test -L d2/usr/local/bin/python3 || fail "make install-python did not install python3"
	# altinstall: profopt, then CPython's altinstall
	make -o "$stamp" altinstall DESTDIR="$PWD/d3" > make.out 2>&1 || { cat make.out; fail "make altinstall"; }
	test -x d3/usr/local/bin/profopt && test -f d3/usr/local/bin/python3.13 && test ! -e d3/usr/local/bin/python3 ||
		fail "make altinstall: $(ls d3/usr/local/bin | tr '\n' ' ')"
	# make's LDFLAGS asking to strip (Docker's make line): the build keeps its symbols for verify
	# and BOLT, make install strips what it installs; the last LDFLAGS given decides
	require readelf
	printf 'int main(void) { return 0; }\n' > m.c && gcc -g -o cpython/build/elf m.c || fail "cc"
	make -s --eval='show: ; @:' show LDFLAGS=-Wl,-z,relro,--strip-all
	make -o "$stamp" install-python DESTDIR="$PWD/d4" > make.out 2>&1 || { cat make.out; fail "make install-python, stripping"; }
	expect_contains make.out "^install-python: stripped, as LDFLAGS asked$"
	readelf -S d4/usr/local/bin/python3.13 | grep -q '[.]symtab' && fail "make install did not strip python3.13"
	readelf -S cpython/build/elf | grep -q '[.]symtab' || fail "the build's own binary was stripped"
	make -s --eval='show: ; @:' show LDFLAGS=-Wl,-z,relro
	make -o "$stamp" install-python DESTDIR="$PWD/d5" > make.out 2>&1 || { cat make.out; fail "make install-python"; }
	readelf -S d5/usr/local/bin/python3.13 | grep -q '[.]symtab' || fail "make install stripped, unasked"
}

# The man page's table names every configure option of CPython 3.13 and 3.14 (configure --help),
# each carried, adjusted, absorbed or refused; every word of configure's refusal table is
# among the refused.
test_man_page_table_names_every_cpython_option() {
	local section o missing= line pat
	section=$(awk '/^\.SH "?CPYTHON.S CONFIGURE OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 } on { gsub(/\\-/, "-"); print }' "$SRCDIR/Misc/profopt.1")
	[ -n "$section" ] || fail "no section CPYTHON'S CONFIGURE OPTIONS in the man page"
	printf '%s\n' "$section" > section.txt
	for o in --enable-universalsdk --enable-framework --enable-wasm-dynamic-linking --enable-wasm-pthreads --enable-shared \
		--enable-profiling --disable-gil --enable-pystats --enable-optimizations --enable-bolt --enable-safety \
		--enable-slower-safety --enable-experimental-jit --enable-loadable-sqlite-extensions --enable-ipv6 --enable-big-digits \
		--disable-test-modules --with-build-python --with-pkg-config --with-universal-archs --with-framework-name \
		--with-app-store-compliance --with-emscripten-target --with-suffix --without-static-libpython --with-pydebug \
		--with-trace-refs --with-assertions --with-lto --with-strict-overflow --with-dsymutil --with-address-sanitizer \
		--with-memory-sanitizer --with-undefined-behavior-sanitizer --with-thread-sanitizer --with-hash-algorithm \
		--with-tzpath --with-libs --with-system-expat --with-system-libmpdec --with-decimal-contextvar --with-dbmliborder \
		--with-doc-strings --with-mimalloc --with-pymalloc --with-freelists --with-c-locale-coercion --with-valgrind \
		--with-dtrace --with-libm --with-libc --with-platlibdir --with-wheel-pkg-dir --with-readline --with-computed-gotos \
		--with-tail-call-interp --with-remote-debug --with-ensurepip --with-openssl --with-openssl-rpath \
		--with-ssl-default-suites --with-builtin-hashlib-hashes --enable-option-checking --prefix --exec-prefix --libdir \
		--host --build --target --srcdir PROFILE_TASK BOLT_APPLY_FLAGS CC CFLAGS LDFLAGS CFLAGS_NODIST; do
		grep -qE -- "(^|[^a-z_-])$o([^a-z_-]|\$)" section.txt || missing="$missing $o"
	done
	[ -z "$missing" ] || fail "CPython options the man page's table does not name:$missing"
	# each refused pattern of configure's table is named in the man page's table, under refused
	sed -n '/^py_refused="/,/"$/p' "$SRCDIR/configure.ac" | sed 's/^py_refused="//; s/|.*//' | tr ',' '\n' | sed 's/\*$//' > refused.txt
	[ "$(wc -l < refused.txt)" -ge 40 ] || fail "configure.ac's refusal table not found: $(cat refused.txt)"
	awk '/^\.TP/ { getline t; getline r; gsub(/\\-/, "-", t); if (r ~ /^refused/) print t }' "$SRCDIR/Misc/profopt.1" > refused-man.txt
	while read -r pat; do
		grep -qF -- "$pat" refused-man.txt || missing="$missing $pat"
	done < refused.txt
	[ -z "$missing" ] || fail "refused in configure but not as refused in the man page's table:$missing"
}
