# The profile readers (gcov_io.c, profraw.c) under AddressSanitizer + UBSan: their unit
# tests, then a short libFuzzer run from tests/fuzz/corpus (make check-sanitize, check-fuzz).
# FUZZ_TIME (seconds, default 20) sets the length of the fuzz run.

# Skips unless clang can build an ASan+UBSan program, with libFuzzer when $1 is "fuzzer".
require_sanitizers() {
	require clang make
	local what=address,undefined
	[ "${1:-}" = fuzzer ] && what=fuzzer,$what
	printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n%s\n' \
		"$([ "${1:-}" = fuzzer ] || echo 'int main(void) { return 0; }')" > probe.c
	clang -fsanitize=$what -o probe probe.c > probe.log 2>&1 ||
		skip "clang cannot build with -fsanitize=$what (libclang-rt-dev missing?): $(head -n 1 probe.log)"
}

# make in the build directory, outside the make that runs the tests.
build_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$BUILDDIR" "$@"
}

test_reader_unit_tests_under_sanitizers() {
	require_sanitizers
	build_make check-sanitize > out 2>&1 || { cat out; fail "make check-sanitize failed"; }
	expect_contains out '^unit: [0-9]+ passed, 0 failed'
	expect_contains out '^ok gcov_truncated_gcda'
	expect_contains out '^ok profraw_truncated'
	expect_not_contains out 'runtime error|AddressSanitizer'
}

test_fuzz_readers_briefly() {
	require_sanitizers fuzzer
	build_make check-fuzz FUZZ_TIME="${FUZZ_TIME:-20}" > out 2>&1 || { cat out; fail "make check-fuzz failed"; }
	expect_contains out 'stat::number_of_executed_units: [0-9]+'
	local runs; runs=$(sed -n 's/^stat::number_of_executed_units: //p' out)
	[ "$runs" -gt 1000 ] || fail "only $runs fuzz runs"
}
