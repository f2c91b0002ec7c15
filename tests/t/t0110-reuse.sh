# Profile reuse: make profile-export in one build, PGO_PROFILE= in another directory.

trained_bundle() { exported_fixture "$1"; }

check_reuse() {
	make profile-opt PGO_PROFILE=../a/pgo/profile-export.tar.gz > make.out 2>&1 || { cat make.out; fail "build with the exported profile"; }
	expect_contains make.out '==> import profile'
	expect_not_contains make.out '==> instrumented build|==> training'
	expect_contains make.out 'verify: interp.o: used profile data'
	expect_eq "$(./toy ppas 10)" 90
	# The profile-use code is the same as in the build that trained (the objects differ only in
	# the build directory recorded in their debug information).
	objdump -d interp.o | tail -n +3 > here.s
	objdump -d ../a/interp.o | tail -n +3 > there.s
	cmp here.s there.s || fail "interp.o's code differs from the trained build's"
}

test_reuse_gcc() { trained_bundle gcc; check_reuse; }
test_reuse_clang() { trained_bundle clang; check_reuse; }

test_reuse_refuses_changed_sources() {
	trained_bundle gcc
	echo '/* changed */' >> interp.c
	if make profile-opt PGO_PROFILE=../a/pgo/profile-export.tar.gz > make.out 2>&1; then fail "a stale profile was used"; fi
	expect_contains make.out 'sources +profile: '
	expect_contains make.out 'refusing a profile that does not match \(1 difference\)'
	test ! -f pgo/use.stamp || fail "rebuilt with a refused profile"
	make profile-opt PGO_PROFILE=../a/pgo/profile-export.tar.gz PGO_PROFILE_FORCE=1 > forced.out 2>&1 || { cat forced.out; fail "forced"; }
	expect_contains forced.out 'using the mismatched profile anyway'
}

test_reuse_refuses_other_compiler() {
	require clang
	trained_bundle gcc
	./configure --enable-optimizations CC=clang PROFOPT="$PROFOPT" > /dev/null 2>&1
	if make profile-opt PGO_PROFILE=../a/pgo/profile-export.tar.gz > make.out 2>&1; then fail "a gcc profile was used by clang"; fi
	expect_contains make.out 'compiler +profile: gcc'
}

test_damaged_bundle() {
	trained_bundle gcc
	mkdir x && tar -xzf ../a/pgo/profile-export.tar.gz -C x
	echo garbage >> x/profile/profiles.tar
	tar -czf bad.tar.gz -C x manifest.json profile
	expect_status 1 "$PROFOPT" import --bundle=bad.tar.gz --dest=p.tar
	expect_contains out 'the profile is damaged: sha256'
	echo "not a bundle" > junk.tar.gz
	expect_status 1 "$PROFOPT" import --bundle=junk.tar.gz --dest=p.tar
}

# CPython 3.11 names extension objects by their absolute source path: the .gcda files of an
# exported profile move from the exporter's directory to the importer's.
test_import_relocates_absolute_object_paths() {
	local old="$PWD/old.v1&[x]/src" new="$PWD/new/src"
	mkdir -p "stage/build/temp.x$old/Modules"
	echo data > "stage/build/temp.x$old/Modules/m.gcda"
	echo other > stage/build/top.gcda
	tar -cf profiles.tar -C stage .
	printf 'compiler=gcc 12\nrelocate_root=%s\n' "$old" > m.kv
	"$PROFOPT" export --profile=profiles.tar --manifest=m.kv --output=b.tar.gz 2> /dev/null
	"$PROFOPT" import --bundle=b.tar.gz --dest=got.tar --relocate-root="$new" compiler="gcc 12" 2> err ||
		{ cat err; fail "import"; }
	grep -qF "import: 1 profile files moved from $old/ to $new/" err || { cat err; fail "no relocation message"; }
	tar -tf got.tar > list
	grep -qF "build/temp.x$new/Modules/m.gcda" list || { cat list; fail "m.gcda not moved"; }
	! grep -qF "$old" list || fail "old paths left in the archive"
	expect_contains list 'build/top\.gcda'
	tar -xOf got.tar "build/temp.x$new/Modules/m.gcda" > m.out
	expect_eq "$(cat m.out)" data "relocated file's contents"
	# The same directory: nothing to move.
	"$PROFOPT" import --bundle=b.tar.gz --dest=same.tar --relocate-root="$old" 2> err2
	expect_not_contains err2 'moved'
	expect_status 2 "$PROFOPT" import --bundle=b.tar.gz --dest=x.tar --relocate-root=relative/dir
	expect_contains out 'absolute directory'
}
