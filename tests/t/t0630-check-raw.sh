# `profopt check-raw`: can llvm-profdata read the raw profiles this clang writes?

test_check_raw_probe_with_matching_tool() {
	require clang llvm-profdata
	expect_status 0 "$PROFOPT" check-raw --cc=clang --tool=llvm-profdata
	expect_contains out 'raw profile version [0-9]+ \(IR, 64-bit\)'
	expect_contains out 'readable by llvm-profdata'
	"$PROFOPT" check-raw --cc=clang --json > r.json
	expect_eq "$(json_get r.json 0.tool_reads)" true
	expect_eq "$(json_get r.json 0.functions)" 1
}

test_check_raw_tool_that_cannot_read_the_version() {
	require clang
	fake_bin llvm-profdata 'echo "error: $2: Unsupported version of raw profile" >&2; exit 1'
	expect_status 1 "$PROFOPT" check-raw --cc=clang --tool="$PWD/fakebin/llvm-profdata"
	expect_contains out 'profopt check-raw: error: .*cannot read raw profile version [0-9]+ written by clang: .*Unsupported version'
}

test_check_raw_files_sound_and_damaged() {
	require clang llvm-profdata
	printf 'int main(void) { return 0; }\n' > p.c
	clang -fprofile-generate -o p p.c
	LLVM_PROFILE_FILE=good.profraw ./p
	expect_status 0 "$PROFOPT" check-raw good.profraw
	head -c 100 good.profraw > cut.profraw
	expect_status 1 "$PROFOPT" check-raw good.profraw cut.profraw
	expect_contains out 'profopt check-raw: error: damaged profile: cut\.profraw: offset [0-9]+ \(0x[0-9a-f]+\): .*truncated file \(actual/expected\)'
	echo 'not a profile at all' > junk.profraw
	expect_status 1 "$PROFOPT" check-raw junk.profraw
	expect_contains out 'bad magic'
}

test_check_raw_no_profile_from_gcc() {
	require gcc
	expect_status 1 "$PROFOPT" check-raw --cc=gcc --tool=true
	expect_contains out 'wrote no raw profile'
}

# clang 19 writes raw profile version 10, which llvm-profdata 14 cannot read: said before
# training, with the tool's own words; its own llvm-profdata 19 reads it.
test_check_raw_clang19_against_llvm_profdata14() {
	require clang-19 llvm-profdata-14
	expect_status 1 "$PROFOPT" check-raw --cc=clang-19 --tool=llvm-profdata-14
	expect_contains out 'raw profile version 10 \(IR, 64-bit\), 1 functions'
	expect_contains out 'error: llvm-profdata-14 cannot read raw profile version 10 written by clang-19: .*unsupported instrumentation profile format version'
	local tool19=/usr/lib/llvm-19/bin/llvm-profdata
	[ -x "$tool19" ] || tool19=$(command -v llvm-profdata-19 || true)
	[ -n "$tool19" ] || skip "llvm-profdata 19 not installed"
	expect_status 0 "$PROFOPT" check-raw --cc=clang-19 --tool="$tool19"
	expect_contains out 'readable by llvm-profdata'
}
