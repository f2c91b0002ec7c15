# t0170-option-names.sh - one spelling per kind of directory (--build-dir, --source-dir,
# --profile-dir, --notes-dir, --log-dir, --work-dir), with the old spellings still working
# (scripts and pgo.mk use them); each checking command says in one line what it checks.

test_check_write_fingerprint_and_record_are_one_option() {
	mkdir src && echo 'int a;' > src/a.c && echo 'int b;' > src/b.h
	"$PROFOPT" check --write-fingerprint=new.txt --source-dir=src 2> /dev/null
	"$PROFOPT" check --record=old.txt --root=src 2> /dev/null
	cmp new.txt old.txt || fail "the two spellings wrote different fingerprints"
	expect_contains new.txt ' a\.c$'
	expect_status 0 "$PROFOPT" check --against=new.txt --source-dir=src
	expect_contains out '2 fingerprinted at training; 0 changed'
	expect_status 2 "$PROFOPT" check --write-fingerprint=x.txt
	expect_contains out 'needs --source-dir=DIR'
}

test_stash_build_dir_and_dir() {
	mkdir -p b1/sub b2
	printf 'x' > b1/sub/f.gcda
	"$PROFOPT" stash save --build-dir=b1 --archive=new.tar
	"$PROFOPT" stash save --dir=b1 --archive=old.tar
	"$PROFOPT" stash restore --build-dir=b2 --archive=new.tar
	expect_eq "$(cat b2/sub/f.gcda)" x "restored with --build-dir"
	rm -r b2 && mkdir b2
	"$PROFOPT" stash restore --dir=b2 --archive=old.tar
	expect_eq "$(cat b2/sub/f.gcda)" x "restored with --dir"
}

test_train_and_run_work_dir_and_directory() {
	mkdir here
	"$PROFOPT" train --work-dir=here --log-dir=l1 -- 'pwd' 2> /dev/null
	expect_contains l1/001-pwd.log '/here$'
	# train's old spelling is gone (never released)
	expect_status 2 "$PROFOPT" train --directory=here --log-dir=l2 -- 'pwd'
	"$PROFOPT" run --label=x --log=r1.log --work-dir=here -- pwd > /dev/null
	"$PROFOPT" run --label=x --log=r2.log --directory=here -- pwd > /dev/null
	expect_contains r1.log '/here$'
	expect_contains r2.log '/here$'
}

test_verify_build_dir_and_objdir() {
	mkdir empty
	expect_status 1 "$PROFOPT" verify --family=gcc --build-dir=empty
	expect_contains out 'no object files under empty'
	expect_status 1 "$PROFOPT" verify --family=gcc --objdir=empty
	expect_contains out 'no object files under empty'
	expect_status 2 "$PROFOPT" verify --family=gcc
	expect_contains out '--build-dir=DIR'
}

test_export_write_manifest_and_record() {
	printf 'profile bytes' > p.profdata
	"$PROFOPT" export --profile=p.profdata --write-manifest=new.json cc=gcc
	"$PROFOPT" export --profile=p.profdata --record=old.json cc=gcc
	expect_eq "$(json_get new.json profile_sha256)" "$(json_get old.json profile_sha256)"
	expect_eq "$(json_get new.json cc)" gcc
}

test_checking_commands_say_what_they_check() {
	local c
	for c in check check-raw verify; do
		# the first paragraph after the usage lines is one line, "Checks ..."
		"$PROFOPT" "$c" --help | awk 'NF == 0 { p++; next } p == 1 { print }' > first.txt
		expect_eq "$(wc -l < first.txt)" 1 "$c --help: lines in the first paragraph"
		expect_contains first.txt '^Checks[ ,]'
	done
}
