# AX_PGO and pgo.mk in a project as the README tells a maintainer: the plain-make fixture out of
# its source tree, the convention of --enable-optimizations, finding profopt, and the automake +
# libtool variant (tests/fixture-am) autoreconf'd here with -Wall -Werror.

# The fixture's source in ./src (autoconf'd), to be configured from another directory.
fixture_src() {
	require autoconf
	mkdir src && (cd src && setup_fixture)
}

# The automake + libtool fixture in ./src: tests/fixture-am with tests/fixture's sources, the
# macro in m4/ and pgo.mk at the top, autoreconf'd with every automake warning an error.
fixture_am_src() {
	require autoreconf automake libtoolize
	mkdir src
	cp -r "$SRCDIR/tests/fixture-am/." src/
	cp "$SRCDIR/tests/fixture/interp.c" "$SRCDIR/tests/fixture/interp.h" "$SRCDIR/tests/fixture/main.c" src/
	mkdir src/m4 && cp "$SRCDIR/m4/ax_pgo.m4" src/m4/ && cp "$SRCDIR/Tools/make/pgo.mk" "$SRCDIR/Tools/make/pgo-bench.mk" "$SRCDIR/Tools/make/qemu-exec.c" src/
	(cd src && autoreconf -fi -Wall -Werror) > autoreconf.out 2>&1 || { cat autoreconf.out; fail "autoreconf -Wall -Werror"; }
	expect_not_contains autoreconf.out 'warning'
}

# --enable-optimizations, then a plain `make`: the PGO build, out of the source tree.
test_out_of_tree_make_is_profile_opt_gcc() { check_out_of_tree_make_is_profile_opt gcc; }
test_out_of_tree_make_is_profile_opt_clang() { check_out_of_tree_make_is_profile_opt clang; }
check_out_of_tree_make_is_profile_opt() {
	require "$1"
	fixture_src
	mkdir build && cd build
	../src/configure --enable-optimizations CC="$1" PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_status 0 make
	expect_contains out '^==> instrumented build'
	expect_contains out 'verify: 2 of 2 compiled units used profile data'
	expect_contains out '^total +ok'
	test ! -e ../src/interp.o && test ! -e ../src/pgo || fail "the build wrote into the source tree"
	expect_eq "$(./toy ppas 10)" 90 "the optimized program's answer"
	expect_status 0 make
	expect_eq "$(stages_run out)" "" "stages run by a second make"
}

test_without_optimizations_profile_opt_refuses() {
	require gcc
	fixture_src
	mkdir build && cd build
	../src/configure CC=gcc > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_status 2 make profile-opt
	expect_contains out 'configured without --enable-optimizations, so there is no PGO build to run: run ./configure --enable-optimizations'
	test ! -e pgo || fail "a refused profile-opt made pgo/"
	# and a plain make is the project's own build, without profile flags
	expect_status 0 make
	expect_not_contains out 'fprofile|==> '
	test -x toy || fail "make did not build the program"
	# a Makefile that never says whether PGO is on is told what it lacks
	sed -i '/^PGO_ENABLED = /d' pgo-config.mk
	expect_status 2 make profile-opt
	expect_contains out 'PGO_ENABLED is not set: pgo.mk reads it from pgo-config.mk, which AX_PGO.s configure writes beside the Makefile'
}

test_configure_needs_profopt() {
	require gcc
	fixture_src
	cd src
	mkdir empty
	expect_status 1 env -u PROFOPT PATH="$PWD/empty:/usr/bin:/bin" ./configure --enable-optimizations CC=gcc
	expect_contains out 'error: --enable-optimizations needs profopt, which runs the PGO pipeline, and none is in PATH'
	expect_status 1 ./configure --enable-optimizations CC=gcc PROFOPT=/nonexistent/profopt
	expect_contains out 'error: PROFOPT=/nonexistent/profopt is not a working profopt'
	# found in PATH, and substituted
	mkdir bin && ln -s "$PROFOPT" bin/profopt
	expect_status 0 env -u PROFOPT PATH="$PWD/bin:$PATH" ./configure --enable-optimizations CC=gcc
	expect_contains out "checking for profopt\.\.\. $PWD/bin/profopt"
	expect_contains pgo-config.mk "^PROFOPT = $PWD/bin/profopt\$"
	# without --enable-optimizations nothing is looked for
	expect_status 0 env -u PROFOPT PATH="$PWD/empty:/usr/bin:/bin" ./configure CC=gcc
	expect_not_contains out 'profopt'
}

# The automake + libtool project: its shared library is built with the profile too (gcc's
# static copy gets the shared copy's counts), make check runs on the result without rebuilding
# it, make clean drops the stamps, make dist ships pgo.mk.
check_automake_libtool() {
	require "$1"
	fixture_am_src
	mkdir build && cd build
	../src/configure --enable-optimizations CC="$1" PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_status 0 make
	expect_contains out 'verify: 3 of 3 compiled units used profile data'
	expect_contains out 'verify: \.libs/interp\.o: used profile data'
	expect_contains pgo/logs/use.log '-fprofile-use.* -fPIC -DPIC -o \.libs/interp\.o'
	[ "$1" != gcc ] || expect_contains out 'merge: 1 libtool object copies got the counts of their twin'
	expect_eq "$(json_get pgo/verify.stamp units_with_profile)" 3 "units with profile data (the program's, the library's two copies)"
	# the project's own test suite, not the variables of the make running this test
	expect_status 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u TESTS make check
	expect_contains out '^# PASS: +1$'
	expect_not_contains out "(^| )$1 .*-c "
	expect_status 0 make clean
	for s in clean use verify; do test ! -f "pgo/$s.stamp" || fail "make clean left pgo/$s.stamp"; done
	expect_status 0 make
	expect_eq "$(stages_run out)" "==> clean keeping profiles;==> rebuild with profile;==> verify;" "stages after make clean"
	expect_contains out 'verify: 3 of 3 compiled units used profile data'
	expect_status 0 make dist
	tar -tzf fixture-am-1.0.tar.gz > dist.list
	expect_contains dist.list '^fixture-am-1\.0/pgo\.mk$'
	expect_contains dist.list '^fixture-am-1\.0/m4/ax_pgo\.m4$'
	expect_status 0 make distclean
	test ! -e pgo && test ! -e Makefile || fail "distclean left pgo/ or the Makefile"
}
test_automake_libtool_gcc() { check_automake_libtool gcc; }
test_automake_libtool_clang() { check_automake_libtool clang; }

# automake reading pgo.mk itself (include $(srcdir)/pgo.mk): no error, no conditional, no rule
# of its own; only GNU make functions, which -Wno-portability accepts.  make then says how to
# include it, since automake hoists its ':=' assignments above their defaults.
test_automake_reads_the_fragment() {
	fixture_am_src
	cd src
	sed -i 's|^include \$(abs_top_srcdir)/pgo.mk$|include $(srcdir)/pgo.mk|' Makefile.am
	grep -q '^include \$(srcdir)/pgo.mk$' Makefile.am || fail "could not edit Makefile.am"
	expect_status 1 automake
	expect_contains out 'pgo\.mk:[0-9]+: warning: .*(non-POSIX|not portable)'
	expect_not_contains out 'error: |else without if|overrides Automake target'
	sed -i '1i AUTOMAKE_OPTIONS = -Wno-portability' Makefile.am
	expect_status 0 automake
	expect_eq "$(cat out)" "" "automake's output"
	require gcc
	./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_status 2 make profile-opt
	expect_contains out 'was pgo.mk read by automake\? include it as \$\(abs_top_srcdir\)/pgo.mk'
}

# make install puts ax_pgo.m4 where aclocal looks (DATADIR/aclocal by default), so a project's
# configure.ac needs no m4_include or -I; prefix= moves every file of profopt's.
test_install_macro_for_aclocal() {
	require_out_of_tree_configure
	require gcc aclocal autoconf
	"$SRCDIR/configure" CC=gcc --prefix=/opt/po > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_contains configure.out 'WARNING: aclocal searches .*, not /opt/po/share/aclocal: after make install, projects need ACLOCAL_PATH=/opt/po/share/aclocal'
	make > /dev/null 2>&1
	expect_status 0 make install DESTDIR="$PWD/dest"
	expect_contains out 'install: profopt and profopt-bench in /opt/po/bin, AX_PGO in /opt/po/share/aclocal'
	test -f dest/opt/po/share/aclocal/ax_pgo.m4 || fail "no ax_pgo.m4 for aclocal"
	mkdir proj
	printf 'AC_INIT([proj], [1])\nAC_PROG_CC\nAX_PGO\nAC_OUTPUT\n' > proj/configure.ac
	(cd proj && aclocal --system-acdir="$PWD/../dest/opt/po/share/aclocal" && autoconf) > ac.out 2>&1 || { cat ac.out; fail "aclocal/autoconf with the installed macro"; }
	proj/configure --help > help.out
	expect_contains help.out 'enable-optimizations'
	expect_status 0 make install prefix="$PWD/elsewhere"
	test -x elsewhere/bin/profopt && test -x elsewhere/bin/profopt-bench && test -f elsewhere/share/aclocal/ax_pgo.m4 && test -f elsewhere/share/profopt/make/pgo.mk ||
		fail "make install prefix= did not move profopt's files"
	expect_status 0 make uninstall prefix="$PWD/elsewhere"
	test ! -e elsewhere/share/aclocal/ax_pgo.m4 && test ! -e elsewhere/bin/profopt || fail "uninstall left files"
	# configured for the directory aclocal searches: no warning
	"$SRCDIR/configure" CC=gcc --with-aclocal-dir="$(aclocal --print-ac-dir)" > configure.out 2>&1
	expect_contains configure.out "whether aclocal searches $(aclocal --print-ac-dir)\.\.\. yes"
	expect_not_contains configure.out WARNING
}

# Two programs of one project each define main; training ran one.  Clang gives the other's
# main the trained one's record ("function control flow change detected (hash mismatch)"):
# verify tells, from the sources' fingerprint, a name collision from a source edited since.
test_clang_main_collision_is_not_a_stale_source() {
	require clang
	local tool; tool=$(dirname "$(readlink -f "$(command -v clang)")")/llvm-profdata
	[ -x "$tool" ] || skip "no llvm-profdata beside clang"
	printf '#include <stdio.h>\nint main(int c, char **v) { long s = 0; for (int i = 0; i < 100000 * c; i++) s += i %% 7; printf("%%ld\\n", s); return 0; }\n' > one.c
	printf '#include <stdio.h>\nint main(int c, char **v) { long s = 0; for (int i = 0; i < 1000 * c; i++) { if (i %% 3) s += i; else s--; } printf("%%ld\\n", s); return 0; }\n' > two.c
	clang -O2 -fprofile-generate -o two two.c
	LLVM_PROFILE_FILE=two.profraw ./two > /dev/null
	"$tool" merge -o m.profdata two.profraw
	"$PROFOPT" check --write-fingerprint=sources.fp --source-dir=. 2> /dev/null
	use_build() { for f in one two; do echo "clang -O2 -fprofile-use=m.profdata -c $f.c -o $f.o"; clang -O2 -fprofile-use=m.profdata -c $f.c -o $f.o 2>&1; done > build.log; }
	use_build
	expect_contains build.log 'one\.c: function control flow change detected \(hash mismatch\) main'
	expect_status 0 "$PROFOPT" verify --family=clang --build-dir=. --profdata=m.profdata --tool="$tool" --build-log=build.log --fingerprint=sources.fp --list
	expect_contains out 'one\.o: the compiler said .*hash mismatch\) main .*\[its source is unchanged since training: a name collision'
	expect_contains out 'verify: 1 of 2 compiled units used profile data'
	echo 'int edited;' >> one.c
	use_build
	expect_status 0 "$PROFOPT" verify --family=clang --build-dir=. --profdata=m.profdata --tool="$tool" --build-log=build.log --fingerprint=sources.fp --list
	expect_contains out 'one\.o: the compiler said .*hash mismatch\) main .*\[its source changed since training\]'
	expect_not_contains out 'name collision'
}

# The README and the man page put AX_PGO in the same place: after every macro that sets up the
# compiler, libtool's included (a compiler check before AC_USE_SYSTEM_EXTENSIONS is warned about).
test_readme_and_man_page_place_ax_pgo_alike() {
	local where='after the macros that set up the compiler ([^)]*)'
	tr -s '\n ' '  ' < "$SRCDIR/README" | grep -o "$where" > readme.txt || fail "README does not say where AX_PGO goes"
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' "$SRCDIR/Misc/profopt.1" | tr -s '\n ' '  ' | grep -o "$where" > man.txt ||
		fail "the man page does not say where AX_PGO goes"
	expect_eq "$(cat man.txt)" "$(cat readme.txt)" "where AX_PGO goes, man page against README"
	expect_contains readme.txt 'AC_USE_SYSTEM_EXTENSIONS, LT_INIT\)'
	expect_not_contains "$SRCDIR/Misc/profopt.1" 'AX_PGO\\fR after AC_PROG_CC'
}

# The README's Makefile.am lines and its example train.txt, put into tests/fixture-am as they
# stand: the PGO program runs the README's pgo-bench command in fewer instructions than the
# plain one with gcc, as many with clang (whose profile lays the dispatch loop out, and counts
# no fewer instructions), never more (callgrind's counts do not move with the machine's load).
check_readme_block_on_the_fixture() {
	require "$1" valgrind
	fixture_am_src
	awk '/^Makefile\.am \(automake hands/ { on = 1; next } on && /^    / { sub(/^    /, ""); print; n++; next } on && n && !/^$/ { exit }' \
		"$SRCDIR/README" > block.txt
	grep -q '^PGO_TRAIN_ARGS = --tasks=\$(srcdir)/train\.txt$' block.txt || { cat block.txt; fail "no README block with a task file"; }
	grep -P '^\t' block.txt > /dev/null && fail "the block holds a task line"
	grep -P '\t' block.txt > src/train.txt || fail "no task line (NAME, a tab, a command) in the README's block"
	{ sed '/^PGO_BUILD_DIR = /,$d' src/Makefile.am; grep -vP '\t' block.txt; } > Makefile.am.new && mv Makefile.am.new src/Makefile.am
	(cd src && autoreconf -fi -Wall -Werror) > autoreconf.out 2>&1 || { cat autoreconf.out; fail "autoreconf with the README's block"; }
	mkdir build && cd build
	../src/configure --enable-optimizations CC="$1" PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail configure; }
	local cmd; cmd=$(tr '\n' ' ' < "$SRCDIR/README" | grep -o "make pgo-bench *PGO_BENCH_COMMAND='[^']*'" | head -n 1 | sed "s/.*='\(.*\)'/\1/")
	expect_eq "$cmd" "./toy pdpapmsq 1000000" "the README's pgo-bench command"
	make pgo-bench PGO_BENCH_COMMAND="$cmd" PGO_BENCH_ROUNDS=3 > make.out 2>&1 || { cat make.out; fail "make pgo-bench"; }
	cat pgo/bench.txt
	expect_contains make.out "^instructions +[0-9.]+ M +[0-9.]+ M +[0-9.]+x ($2)"
	expect_not_contains make.out '^advice:'
}
test_readme_block_makes_the_fixture_faster_gcc() { check_readme_block_on_the_fixture gcc faster; }
test_readme_block_never_slower_clang() { check_readme_block_on_the_fixture clang 'faster|same'; }
