# Profile reuse: make profile-export in one build, PGO_PROFILE= in another directory.

trained_bundle() {
	require "$1" autoconf
	mkdir a && cd a
	setup_fixture
	./configure --enable-optimizations CC="$1" PROFOPT="$PROFOPT" > /dev/null 2>&1
	make profile-opt > make.out 2>&1 || { cat make.out; fail "training build"; }
	make profile-export > export.out 2>&1 || { cat export.out; fail "profile-export"; }
	expect_contains export.out 'export: .*profile-export.tar.gz'
	cd ..
	mkdir b && cd b
	setup_fixture
	./configure --enable-optimizations CC="$1" PROFOPT="$PROFOPT" > /dev/null 2>&1
}

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
