# Works from any directory: a profile's .gcda files move between build directories whatever
# bytes the directories' names hold (dots, &, [, |, \, non-ASCII, quotes, $); relocation that
# moves nothing although the old directory occurs in the member names is an error; a
# directory with white space, which GNU make cannot name, is refused by configure at once.

# relocate OLD NEW: a .gcda archive with a member under OLD (as CPython 3.11 names extension
# objects) is exported and imported with --relocate-root=NEW.
relocate() {
	local old=$1 new=$2
	rm -rf stage got.tar b.tar.gz && mkdir -p "stage/build/temp.x$old/Modules"
	echo data > "stage/build/temp.x$old/Modules/m.gcda"
	echo top > stage/build/top.gcda
	"$PROFOPT" stash save --build-dir=stage --archive=profiles.tar 2> /dev/null
	printf 'compiler=gcc 12\nrelocate_root=%s\n' "$old" > m.kv
	"$PROFOPT" export --profile=profiles.tar --manifest=m.kv --output=b.tar.gz 2> /dev/null
	"$PROFOPT" import --bundle=b.tar.gz --dest=got.tar --relocate-root="$new" compiler="gcc 12" 2> err ||
		{ cat err; fail "import into $new"; }
	grep -qF "import: 1 profile files moved from $old/ to $new/" err || { cat err; fail "no relocation message for $new"; }
	python3 -c '
import sys, tarfile
names = sorted(m.name for m in tarfile.open("got.tar"))
want = sorted(["build/temp.x" + sys.argv[1] + "/Modules/m.gcda", "build/top.gcda"])
assert names == want, (names, want)
assert tarfile.open("got.tar").extractfile(want[0]).read() == b"data\n"' "$new" || fail "got.tar's members for $new"
}

test_relocation_any_directory() {
	local base=$PWD d
	for d in "old.v1" "a&b" "a[x]" "a|b" 'a\b' "ü-日本" "it's" 'a$(touch MARK)' "-rf" "a*b?"; do
		relocate "$base/$d/src" "$base/new.$d/src"
		relocate "$base/plain/src" "$base/to.$d.2/src"
	done
	test ! -e MARK || fail "a directory name ran a command"
}

test_zero_moves_is_an_error() {
	local root=$PWD/build.v1
	mkdir -p "stage/build/temp.x$root-other/Modules"
	echo data > "stage/build/temp.x$root-other/Modules/m.gcda"
	"$PROFOPT" stash save --build-dir=stage --archive=profiles.tar 2> /dev/null
	printf 'relocate_root=%s\n' "$root" > m.kv
	"$PROFOPT" export --profile=profiles.tar --manifest=m.kv --output=b.tar.gz 2> /dev/null
	expect_status 1 "$PROFOPT" import --bundle=b.tar.gz --dest=got.tar --relocate-root=/elsewhere/src --stamp=merge.stamp
	grep -qF "1 profile file names hold relocate_root $root, but none is under it: nothing could be moved" out ||
		{ cat out; fail "no zero-move error"; }
	test ! -e got.tar || fail "a profile was installed"
	test ! -e merge.stamp || fail "a stamp claims the import"
	# Names without the old directory: nothing to move, and no error (CPython 3.12 and later).
	rm -rf stage && mkdir -p stage/Modules && echo x > stage/Modules/m.gcda
	"$PROFOPT" stash save --build-dir=stage --archive=profiles.tar 2> /dev/null
	"$PROFOPT" export --profile=profiles.tar --manifest=m.kv --output=b.tar.gz 2> /dev/null
	"$PROFOPT" import --bundle=b.tar.gz --dest=got.tar --relocate-root=/elsewhere/src 2> err || { cat err; fail "import"; }
	expect_not_contains err 'moved'
	expect_eq "$(tar -tf got.tar)" Modules/m.gcda "members"
}

# Names that look like tar options are stored as files, never read as options.
test_option_like_names_are_files() {
	mkdir -p stage/sub
	echo a > "stage/--files-from=x.gcda"
	echo b > stage/-rf.gcda
	echo c > "stage/sub/--remove-files.gcda"
	echo secret > stage/x.gcda.list
	"$PROFOPT" stash save --build-dir=stage --archive=s.tar 2> err || { cat err; fail "stash save"; }
	expect_contains err 'saved 3 \.gcda files'
	expect_eq "$(tar -tf s.tar | sort | tr '\n' ' ')" "--files-from=x.gcda -rf.gcda sub/--remove-files.gcda " "members"
	test -f "stage/sub/--remove-files.gcda" || fail "a file was removed"
	mkdir back
	"$PROFOPT" stash restore --build-dir=back --archive=s.tar 2> err || { cat err; fail "stash restore"; }
	expect_eq "$(cat back/--files-from=x.gcda back/-rf.gcda back/sub/--remove-files.gcda | tr '\n' ' ')" "a b c " "restored"
}

test_configure_refuses_white_space() {
	require gcc autoconf
	mkdir "with space" && cd "with space"
	setup_fixture
	expect_status 1 ./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT"
	expect_contains out "error: the build directory '.*/with space' contains white space .*GNU make splits file names there"
	expect_contains out "Use a directory whose path has no white space"
	test ! -f Makefile || fail "configure went on"
	# profopt's own configure, for CPython: refused with or without PGO.
	mkdir "b c" && cd "b c"
	expect_status 1 "$SRCDIR/configure"
	expect_contains out "error: the build directory '.*/b c' contains white space"
}

# '&' (config.status cannot substitute it), '$' and '\' (the shell running make's recipes
# would silently make another directory of the path) and other characters make or /bin/sh
# read as syntax are refused by name, instead of an empty Makefile or a pipeline that writes
# elsewhere.
test_configure_names_the_character() {
	require gcc autoconf
	local d
	for d in 'a&b' 'a$b' 'a\b' 'a:b' 'a[1]'; do
		mkdir "$d" && cd "$d"
		setup_fixture
		expect_status 1 ./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT"
		grep -qF "error: the build directory '$PWD' contains '${d:1:1}', which GNU make or the shell" out ||
			{ cat out; fail "no refusal naming '${d:1:1}'"; }
		test ! -f Makefile || fail "configure went on in $d"
		cd ..
	done
}

# The whole pipeline, export and import between two directories whose names hold dots,
# non-ASCII letters and other characters that need no quoting.
any_dir_pipeline() {
	require "$1" autoconf
	local a='a.v1-ü+x@z=1' b='b.v2-é~x^{y}!'
	mkdir "$a" && cd "$a"
	setup_fixture
	./configure --enable-optimizations CC="$1" PROFOPT="$PROFOPT" > cfg.out 2>&1 || { cat cfg.out; fail "configure in $a"; }
	make profile-opt > make.out 2>&1 || { cat make.out; fail "profile-opt in $a"; }
	expect_contains make.out 'verify: interp.o: used profile data'
	make profile-export > export.out 2>&1 || { cat export.out; fail "profile-export in $a"; }
	cd .. && mkdir "$b" && cd "$b"
	setup_fixture
	./configure --enable-optimizations CC="$1" PROFOPT="$PROFOPT" > cfg.out 2>&1 || { cat cfg.out; fail "configure in $b"; }
	make profile-opt PGO_PROFILE="../$a/pgo/profile-export.tar.gz" > make.out 2>&1 || { cat make.out; fail "import in $b"; }
	expect_contains make.out '==> import profile'
	expect_contains make.out 'verify: interp.o: used profile data'
	expect_eq "$(./toy ppas 10)" 90
}

test_any_dir_pipeline_gcc() { any_dir_pipeline gcc; }
test_any_dir_pipeline_clang() { any_dir_pipeline clang; }

# Issue 51: every make variable that names a file, a directory or a tool is checked as
# PGO_PROFILE is (clang's profile store was pasted into compile commands unchecked: 'st;id>x;y'
# ran id), and a list of files word by word: each hostile value is refused naming the variable,
# before any stage, and no shell ran it.
hostile_paths=('st;touch MARK;y' 'a$$(touch MARK)b' 'a b' "a'b" 'a`touch MARK`b')
path_vars=(PGO_PROFILE_STORE PGO_USE_PROFDATA PGO_SOURCE_ROOT PGO_BOLT_BINARY PGO_BENCH_SRCDIR PGO_NM PGO_READELF
	LLVM_PROFDATA LLVM_BOLT MERGE_FDATA PGO_DIR PGO_BUILD_DIR PGO_RAW_DIR PGO_PROFDATA PGO_PROFILE PGO_EXPORT PGO_CS_RAW_DIR)

test_every_path_variable_is_checked() {
	configured_fixture gcc
	local v value goal
	for v in "${path_vars[@]}" PGO_VERIFY_REQUIRE PGO_SUMMARY_NOTES PGO_BOLT_LINKS; do
		for value in "${hostile_paths[@]}"; do
			[ "$value" = 'a b' ] && case $v in PGO_VERIFY_REQUIRE|PGO_SUMMARY_NOTES|PGO_BOLT_LINKS) continue ;; esac # lists: two names
			for goal in profile-opt pgo-clean; do
				expect_status 2 make $goal "$v=$value"
				expect_contains out "pgo\\.mk: $v "
				expect_not_contains out '==> '
				test ! -e MARK || fail "make $goal $v='$value' ran the shell"
			done
		done
	done
	test -f Makefile && test ! -e pgo/logs || fail "a refused goal ran a stage"
}

# The example of the issue, on clang, where the store is pasted into the use stage's compiles.
test_profile_store_is_checked_clang() {
	configured_fixture clang
	expect_status 2 make profile-opt 'PGO_PROFILE_STORE=st;id>x;y'
	expect_contains out "pgo\\.mk: PGO_PROFILE_STORE 'st;id>x;y' contains ';'"
	test ! -e x || fail "the store's path ran as shell"
	# a store of letters, digits and the safe characters works
	make profile-opt PGO_PROFILE_STORE="$PWD/store-1.a+b" > make.out 2>&1 || { cat make.out; fail "profile-opt with a store"; }
	ls store-1.a+b/merged-*.profdata > /dev/null || fail "no profile in the store"
	expect_contains make.out 'verify: interp.o: used profile data'
}
