# profopt diff: similarity of two profiles, and the reproducibility of training.

train_fixture() { # DIR CC [TASKS]
	mkdir "$1" && (cd "$1" && setup_fixture &&
		./configure --enable-optimizations CC="$2" PROFOPT="$PROFOPT" > /dev/null 2>&1 &&
		make profile-opt ${3:+TRAIN_TASKS=$3} > make.out 2>&1) || { cat "$1/make.out"; fail "training in $1"; }
}

test_clang_two_trainings_are_identical() {
	require clang autoconf
	train_fixture one clang
	train_fixture two clang
	"$PROFOPT" diff one/pgo/merged.profdata two/pgo/merged.profdata > out || { cat out; fail "profiles differ"; }
	expect_contains out 'similarity: 100\.000%'
	expect_contains out 'identical:  yes'
}

test_gcc_same_training_same_counts() {
	require gcc autoconf
	train_fixture one gcc
	train_fixture two gcc
	# The counters agree; the files may not be byte-identical (GCC stamps each compilation).
	"$PROFOPT" diff --json one/pgo/profiles.tar two/pgo/profiles.tar > out.json || true
	expect_eq "$(json_get out.json similarity)" 1.0
}

test_different_workloads_are_told_apart() {
	require gcc clang autoconf
	printf 'a\t./toy ppppppppas 300000\n' > ../other.txt
	train_fixture one gcc
	train_fixture two gcc ../../other.txt
	expect_status 1 "$PROFOPT" diff one two
	expect_contains out 'identical:  no'
	local sim; sim=$(sed -n 's/^similarity: \([0-9.]*\)%.*/\1/p' out)
	awk -v s="$sim" 'BEGIN { exit !(s > 1 && s < 99) }' || fail "similarity $sim% for different workloads"
	train_fixture three clang
	train_fixture four clang ../../other.txt
	expect_status 1 "$PROFOPT" diff three/pgo/merged.profdata four/pgo/merged.profdata
}

test_diff_usage_errors() {
	expect_status 2 "$PROFOPT" diff onlyone
	expect_status 2 "$PROFOPT" diff a.profdata b.tar
	expect_status 2 "$PROFOPT" diff /nonexistent/a /nonexistent/b
}
