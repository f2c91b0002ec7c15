# `profopt check`: sources changed since training, and the compilers' stale-profile warnings.

# Adds a case to the fixture's interpreter: another control flow for run().
edit_interp() {
	sed -i "s/default: break;/case 'z': if (sp >= 1 \&\& acc > 3) acc = 0; break;\n\t\t\tdefault: break;/" interp.c
	grep -q "case 'z'" interp.c || fail "could not edit interp.c"
}

test_check_detects_edited_added_removed_sources() {
	setup_fixture
	"$PROFOPT" check --write-fingerprint=fingerprint.txt --source-dir=. 2> rec.log
	expect_contains rec.log 'fingerprint of [0-9]+ source files'
	expect_contains fingerprint.txt ' interp\.c$'
	expect_status 0 "$PROFOPT" check --against=fingerprint.txt
	expect_contains out '0 changed, 0 added, 0 removed'
	edit_interp
	expect_status 1 "$PROFOPT" check --against=fingerprint.txt
	expect_contains out 'changed +interp\.c'
	expect_contains out 'profopt check: error: the profile is stale: 1 source changed'
	# tolerated, but not silently
	expect_status 0 "$PROFOPT" check --against=fingerprint.txt --max-changed=1
	expect_contains out 'warning: 1 source stale'
	echo 'int extra;' > extra.c && rm main.c
	expect_status 1 "$PROFOPT" check --against=fingerprint.txt --max-changed=50%
	expect_contains out 'added +extra\.c'
	expect_contains out 'removed +main\.c'
	"$PROFOPT" check --against=fingerprint.txt --max-changed=3 --json > c.json
	expect_eq "$(json_get c.json changed.0)" interp.c
	expect_eq "$(json_get c.json stale_sources)" 3
	expect_eq "$(json_get c.json ok)" true
	expect_status 2 "$PROFOPT" check --against=fingerprint.txt --max-changed=lots
	expect_eq "$(wc -l < out)" 1 "lines of the usage error"
	expect_status 2 "$PROFOPT" check
	expect_status 2 "$PROFOPT" check --write-fingerprint=x
}

test_check_gcc_coverage_mismatch_in_build_log() {
	require gcc
	setup_fixture
	gcc -O1 -fprofile-generate -c interp.c main.c
	gcc -fprofile-generate -o toy interp.o main.o
	./toy ppas 2000 > /dev/null
	edit_interp
	gcc -O1 -fprofile-use -fprofile-correction -Wno-error=coverage-mismatch -c interp.c main.c 2> build.log
	expect_status 1 "$PROFOPT" check --build-log=build.log
	expect_contains out '[1-9][0-9]* stale, 0 corrupted'
	expect_contains out 'build\.log:[0-9]+: \[stale\] interp\.c:.*coverage-mismatch'
	expect_status 0 "$PROFOPT" check --build-log=build.log --max-changed=1
	"$PROFOPT" check --build-log=build.log --max-changed=1 --json > c.json
	expect_eq "$(json_get c.json log.messages.0.source)" interp.c
	expect_eq "$(json_get c.json stale_sources)" 1
}

test_check_clang_hash_mismatch_in_build_log() {
	require clang llvm-profdata
	setup_fixture
	clang -O1 -fprofile-generate -o toy interp.c main.c
	LLVM_PROFILE_FILE=t.profraw ./toy ppas 2000 > /dev/null
	llvm-profdata merge -o t.profdata t.profraw
	edit_interp
	clang -O1 -fprofile-use=t.profdata -c interp.c main.c 2> build.log
	expect_status 1 "$PROFOPT" check --build-log=build.log
	expect_contains out '\[stale\].*(hash mismatch|out of date)'
}

test_check_corrupted_profile_always_fails() {
	printf 'x.c:1:1: warning: profile data may be corrupted\n' > build.log
	expect_status 1 "$PROFOPT" check --build-log=build.log --max-changed=100
	expect_contains out '1 corrupted'
	expect_contains out 'corrupted.*retrain'
}

test_check_unreadable_profiles_from_real_compilers() {
	require gcc clang
	printf 'int f(int x) { return x ? x + 1 : 2; }\n' > f.c
	printf 'garbage' > f.gcda
	gcc -O1 -fprofile-use -c f.c 2> build.log || true
	clang -O1 -fprofile-use=missing.profdata -c f.c 2>> build.log || true
	expect_status 1 "$PROFOPT" check --build-log=build.log --max-changed=100
	expect_contains out '\[corrupted\].*not a gcov data file'
	expect_contains out '\[corrupted\].*Could not read profile missing\.profdata'
}
