# t0305-builtin-modules: --with-builtin-modules builds extension modules into the interpreter
# (Modules/Setup.local under *static*, each module's line as CPython's configure wrote it in
# Modules/Setup.stdlib); a module configure disabled stays out, a name that is not a module
# name is refused before anything is written, and the list is part of a profile's manifest.

builtin=$SRCDIR/Tools/scripts/cpython-builtin-modules

# build/Modules/Setup.stdlib as CPython's configure writes it: a disabled module's line
# commented out, a module line with its own flags and sources.
configured_build() {
	mkdir -p build/Modules
	cat > build/Modules/Setup.stdlib <<-'EOF'
	# -*- makefile -*-
	*shared*
	_json _json.c
	#_decimal _decimal/_decimal.c
	_md5 md5module.c -I$(srcdir)/Modules/_hacl/include _hacl/Hacl_Hash_MD5.c -D_BSD_SOURCE
	_jsonish _jsonish.c
	EOF
}

test_setup_local_takes_the_configured_lines() {
	configured_build
	printf '# comment\n*static*\n_datetime _datetimemodule.c\n#_ssl _ssl.c\n' > build/Modules/Setup.bootstrap
	"$builtin" build _json _md5 _decimal nosuch _datetime _ssl > out 2>&1 || { cat out; fail "cpython-builtin-modules"; }
	expect_eq "$(grep -v '^#' build/Modules/Setup.local)" "*static*
_json _json.c
_md5 md5module.c -I\$(srcdir)/Modules/_hacl/include _hacl/Hacl_Hash_MD5.c -D_BSD_SOURCE" "Setup.local's rules"
	expect_contains out '^builtin modules: _json _md5$'
	expect_contains out 'left as they are: _decimal nosuch _ssl$'
	expect_contains out 'already built in by this CPython: _datetime$'
	"$builtin" build > out 2>&1 || fail "an empty list"
	expect_eq "$(grep -v '^#' build/Modules/Setup.local)" "*static*" "Setup.local of no module"
	expect_contains out '^builtin modules: none$'
}

test_a_name_that_is_not_a_module_name_is_refused() {
	configured_build
	for bad in '_json;touch x' '$(shell touch x)' '9lives' '' 'a b' '_json*'; do
		expect_status 1 "$builtin" build _json "$bad"
		expect_contains out "is not a module name"
		test ! -e build/Modules/Setup.local || fail "Setup.local written for '$bad'"
	done
	test ! -e x || fail "a module name ran a command"
}

test_a_build_without_setup_stdlib_keeps_cpythons_shape() {
	mkdir build
	expect_status 0 "$builtin" build _json
	expect_contains out '^builtin modules: none: this build has no build/Modules/Setup.stdlib \(CPython 3.11 or later writes it\)'
	test ! -e build/Modules/Setup.local || fail "Setup.local written without Setup.stdlib"
	expect_status 2 "$builtin"
	expect_contains out '^usage: '
}

# A stand-in CPython: its configure writes Setup.stdlib and a Makefile whose own rule (as
# CPython's runs makesetup) records the Setup.local it was remade from.
fake_cpython() {
	mkdir -p py/Include py/Python && touch py/Python/ceval.c
	printf '#define PY_MAJOR_VERSION        3\n#define PY_MINOR_VERSION        13\n' > py/Include/patchlevel.h
	cat > py/configure <<-'EOF'
	#!/bin/sh
	mkdir -p Modules
	printf '*shared*\n_json _json.c\nmath mathmodule.c\n' > Modules/Setup.stdlib
	printf 'Makefile: Modules/Setup.local\n\tcp Modules/Setup.local makesetup-read\n\ttouch Makefile\n' > Makefile
	EOF
	chmod +x py/configure
}

test_configure_option_reaches_cpython_build() {
	require_out_of_tree_configure
	require gcc
	fake_cpython
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/py" --without-ccache \
		--with-builtin-modules=_json,math,_nosuch > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_contains configure.out 'built into the interpreter\.\.\. _json math _nosuch$'
	make cpython-configure > make.out 2>&1 || { cat make.out; fail "make cpython-configure"; }
	expect_contains make.out '^builtin modules: _json math$'
	expect_contains make.out 'left as they are: _nosuch$'
	expect_eq "$(grep -v '^#' cpython/build/makesetup-read)" "*static*
_json _json.c
math mathmodule.c" "the Setup.local CPython's Makefile was remade from"
	# The list is one of the facts a profile must match.
	expect_eq "$(make -s --eval='show: ; @$(PGO_MANIFEST_CMD)' show | grep '^builtin_modules=')" "builtin_modules=_json math _nosuch" "manifest"
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/py" --without-builtin-modules > configure.out 2>&1 ||
		{ cat configure.out; fail "configure --without-builtin-modules"; }
	expect_contains configure.out 'built into the interpreter\.\.\. none$'
	expect_eq "$(make -s --eval='show: ; @$(PGO_MANIFEST_CMD)' show | grep '^builtin_modules=')" "builtin_modules=none" "manifest, no builtin modules"
	# A PGO build's default is the "default" list; a build without PGO is CPython's own shape.
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/py" > configure.out 2>&1 ||
		{ cat configure.out; fail "configure without the option"; }
	expect_contains configure.out 'built into the interpreter\.\.\. array .*_json .*_decimal .*zlib'
	"$SRCDIR/configure" CC=gcc --with-python-source="$PWD/py" > configure.out 2>&1 || { cat configure.out; fail "configure without PGO"; }
	expect_contains configure.out 'built into the interpreter\.\.\. none$'
	expect_status 1 "$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/py" '--with-builtin-modules=_json,$(shell touch x)'
	expect_contains out "with-builtin-modules: '_json,\\\$\(shell touch x\)' holds a character no module name has"
	expect_status 1 "$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/py" --with-builtin-modules=_json,9lives
	expect_contains out "with-builtin-modules: '9lives' is not a module name"
	test ! -e x || fail "a module name ran a command"
	# never globbed: '*' is refused, not matched against the directory's files
	expect_status 1 "$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/py" '--with-builtin-modules=_json,*'
	expect_contains out "with-builtin-modules: '_json,\\*' holds a character no module name has"
}

# With a real CPython source at hand: its own configure and makesetup make the modules static.
test_real_cpython_makes_the_modules_static() {
	src=
	for t in "$HOME"/.cache/profopt/python3.13_*.orig.tar.xz "$SRCDIR"/../shared/cpython/Python-3.14.*.tar.gz; do
		[ -f "$t" ] && src=$t && break
	done
	[ -n "$src" ] || skip "no CPython source tarball (Tools/scripts/fetch-cpython-source 3.13 caches one)"
	require gcc
	mkdir py && tar -xf "$src" -C py --strip-components=1
	mkdir build && (cd build && ../py/configure CC=gcc > ../configure.out 2>&1) || { tail configure.out; fail "CPython's configure"; }
	"$builtin" build _json math _struct > out 2>&1 || { cat out; fail "cpython-builtin-modules"; }
	make -C build Makefile > make.out 2>&1 || { cat make.out; fail "CPython's makesetup"; }
	shared=$(sed -n 's/^MODSHARED_NAMES=//p' build/Makefile)
	for m in _json math _struct; do
		expect_contains build/Modules/config.c "PyInit_$m\\(void\\)"
		case " $shared " in *" $m "*) fail "$m is still built shared: $shared" ;; esac
	done
	case " $shared " in *" _pickle "*) ;; *) fail "_pickle, not named, is no longer shared: $shared" ;; esac
}
