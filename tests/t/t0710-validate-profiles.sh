# Every profile is checked before it is used: a damaged raw profile stops the merge, a damaged
# .gcda or merged profile stops the rebuild (each named, non-zero exit, no stamp claiming
# success, the previous good profile left as it was), and a training task whose profile could
# not be written counts as lost.

# The pipeline's record claims no success: the stages from $1 on have no stamp, and the
# JSON summary says ok: false.
expect_no_success_from() {
	local s seen=
	for s in configure instrument train merge clean use verify; do
		[ "$s" = "$1" ] && seen=1
		[ -n "$seen" ] && { test ! -f "pgo/$s.stamp" || fail "pgo/$s.stamp claims $s succeeded"; }
	done
	make --no-print-directory pgo-summary > summary.json 2>/dev/null || true
	expect_eq "$(json_get summary.json ok)" false "summary's ok"
}

# A finished build with compiler $1, then the instrumented build and training again (all
# stamps but configure removed, as pgo-repro-check does) where a task ends by running the
# shell script $3, which damages its profile: the merge must stop, naming the file (message
# $4), and leave the previous profile $2 as it was.
check_damaged_retraining() {
	configured_fixture "$1"
	make profile-opt > first.out 2>&1 || { cat first.out; fail "first make profile-opt"; }
	sha256sum "$2" > good.sum
	rm -f pgo/instrument.stamp pgo/train.stamp pgo/merge.stamp pgo/clean.stamp pgo/use.stamp pgo/verify.stamp
	printf '%s\n' "$3" > damage.sh
	printf 'a\t./toy ppas 1000\nb\tsh -c "./toy ppmdxs 1000 && sh ./damage.sh"\n' > bad.txt
	expect_status 2 make profile-opt TRAIN_TASKS=bad.txt PGO_JOBS=1
	expect_contains out "damaged profile: $4"
	expect_contains out "1 of [0-9]+ (raw profiles|\.gcda files) under .* are damaged"
	sha256sum -c good.sum > /dev/null || fail "the previous profile $2 was changed"
	expect_no_success_from merge
}

test_empty_profraw_stops_the_merge_clang() {
	# An empty raw profile beside the task's own, as a process cut off while writing it
	# leaves: llvm-profdata alone skips such a file without a word.
	check_damaged_retraining clang pgo/merged.profdata ': > "${LLVM_PROFILE_FILE%/*}/cut.profraw"' \
		'.*/cut\.profraw: offset 0 .*truncated header: file has 0 bytes'
}

test_truncated_profraw_stops_the_merge_clang() {
	check_damaged_retraining clang pgo/merged.profdata \
		'f=$(ls "${LLVM_PROFILE_FILE%/*}"/b-*.profraw) && head -c 100 "$f" > t && cat t > "$f"' \
		'.*/b-[^ ]*\.profraw: offset'
}

test_truncated_gcda_stops_the_merge_gcc() {
	# A .gcda cut between two records: gcc itself would read it without a word.
	check_damaged_retraining gcc pgo/profiles.tar \
		'f=$(find "$GCOV_PREFIX" -name interp.gcda) && head -c -4 "$f" > t && cat t > "$f"' \
		'.*/interp\.gcda: .*no end-of-file word'
}

check_write_failure() {
	configured_fixture "$1"
	printf 'a\t./toy ppas 1000\nb\t./toy ppmdxs 1000\nc\t./toy pdpapmsq 1000\nlost\tsh -c "%s ./toy ppas 1000"\n' "$2" > tasks.txt
	expect_status 2 make profile-opt TRAIN_TASKS=tasks.txt
	expect_contains out "lost: profile-lost \\(exit 0\\) after .*: $3"
	expect_contains out '1 of 4 training tasks could not write their profile: lost; their counts are lost'
	expect_contains out 'only 3 of 4 training tasks ran to the end'
	expect_eq "$(json_get pgo/train-results.json profile-lost)" 1
	expect_eq "$(json_get pgo/train-results.json results.3.result)" profile-lost
	expect_no_success_from train
}

test_profile_write_failure_is_lost_gcc() {
	check_write_failure gcc 'GCOV_PREFIX=/dev/null/x' 'profiling:/dev/null/x'
}

test_profile_write_failure_is_lost_clang() {
	check_write_failure clang 'LLVM_PROFILE_FILE=/dev/null/x.profraw' 'LLVM Profile Error: Failed to write file'
}

test_damaged_gcda_stops_the_rebuild_gcc() {
	configured_fixture gcc
	make "$PWD/pgo/clean.stamp" > first.out 2>&1 || { cat first.out; fail "make up to the clean stage"; }
	sha256sum pgo/profiles.tar > good.sum
	head -c -4 interp.gcda > t && cat t > interp.gcda
	expect_status 2 make profile-opt
	expect_contains out 'damaged profile: (\./)?interp\.gcda: .*no end-of-file word'
	expect_not_contains out '==> rebuild with profile'
	sha256sum -c good.sum > /dev/null || fail "the profile archive was changed"
	expect_no_success_from use
	# The archived profile, put back, builds.
	make clean-retain-profile > crp.out 2>&1 || { cat crp.out; fail "clean-retain-profile"; }
	make profile-opt > again.out 2>&1 || { cat again.out; fail "rebuild with the archived profile"; }
	expect_contains again.out 'verify: interp.o: used profile data'
}

test_damaged_profdata_stops_the_rebuild_clang() {
	configured_fixture clang
	make "$PWD/pgo/clean.stamp" > first.out 2>&1 || { cat first.out; fail "make up to the clean stage"; }
	cp pgo/merged.profdata.sha256 seal.before
	# llvm-profdata 14 still reads this file (it does not notice the missing bytes).
	head -c -8 pgo/merged.profdata > t && cat t > pgo/merged.profdata
	expect_status 2 make profile-opt
	expect_contains out 'damaged profile: .*/pgo/merged\.profdata changed since it was merged: [0-9]+ bytes now, [0-9]+ when sealed'
	expect_not_contains out '==> rebuild with profile'
	cmp -s seal.before pgo/merged.profdata.sha256 || fail "the seal was changed"
	expect_no_success_from use
	# An empty one is refused the same way.
	: > pgo/merged.profdata
	expect_status 2 make profile-opt
	expect_contains out 'damaged profile: .*/pgo/merged\.profdata is empty'
}
