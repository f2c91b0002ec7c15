# profopt's own build: warning-free with both compilers, quiet and verbose output, install.

build_with() {
	require_out_of_tree_configure
	require "$1"
	"$SRCDIR/configure" CC="$1" > configure.out 2>&1 || { cat configure.out; fail "configure with $1"; }
	make CFLAGS="-O2 -Werror" all tests/unit/unit-tests > build.out 2>&1 || { cat build.out; fail "build with $1 -Werror"; }
	expect_not_contains build.out 'warning:'
}

test_warning_free_gcc() { build_with gcc; }
test_warning_free_clang() { build_with clang; }
test_warning_free_clang19() { build_with clang-19; }

test_quiet_and_verbose_output() {
	require_out_of_tree_configure
	require gcc
	"$SRCDIR/configure" CC=gcc > /dev/null
	make > quiet.out 2>&1
	expect_contains quiet.out '^  CC      Tools/profopt/main.o'
	expect_not_contains quiet.out 'gcc .*-c -o'
	rm -f Tools/profopt/main.o
	make V=1 > verbose.out 2>&1
	expect_contains verbose.out 'gcc .*-Wall -Wextra.* -c -o Tools/profopt/main.o'
}

test_install_and_uninstall_with_destdir() {
	require_out_of_tree_configure
	require gcc
	"$SRCDIR/configure" CC=gcc --prefix=/opt/po > /dev/null
	make > /dev/null 2>&1
	make install DESTDIR="$PWD/dest" > install.out 2>&1 || { cat install.out; fail "install"; }
	test -x dest/opt/po/bin/profopt || fail "no installed binary"
	test -x dest/opt/po/bin/profopt-bench || fail "no installed benchmark tool"
	test -f dest/opt/po/share/man/man1/profopt.1 || fail "no man page"
	test -f dest/opt/po/share/profopt/m4/ax_pgo.m4 || fail "no m4 macro"
	test -f dest/opt/po/share/profopt/make/pgo.mk || fail "no make fragment"
	dest/opt/po/bin/profopt --version > /dev/null
	# the installed driver runs the installed tool beside it
	dest/opt/po/bin/profopt bench --help > bench-help.out || fail "installed profopt bench --help"
	expect_contains bench-help.out '^usage: profopt bench'
	expect_contains install.out 'only profopt itself was installed'
	make uninstall DESTDIR="$PWD/dest" > /dev/null
	test ! -e dest/opt/po/bin/profopt && test ! -e dest/opt/po/bin/profopt-bench && test ! -e dest/opt/po/share/profopt ||
		fail "uninstall left files"
}

test_man_page_renders() {
	require man
	MANWIDTH=80 man -l "$SRCDIR/Misc/profopt.1" > man.out 2>man.err || { cat man.err; fail "man"; }
	expect_contains man.out 'profopt train'
	expect_contains man.out 'profile-opt'
}

test_distclean() {
	require_out_of_tree_configure
	require gcc
	"$SRCDIR/configure" CC=gcc > /dev/null && make > /dev/null 2>&1
	make distclean > /dev/null 2>&1
	test ! -f Makefile && test ! -f config.status && test ! -f Tools/profopt/profopt || fail "distclean left files"
}
