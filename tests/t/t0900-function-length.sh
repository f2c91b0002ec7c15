# t0900-function-length.sh - no function of the driver, the unit tests or the fuzzer is longer
# than 80 lines (tests/long-functions): parse, run and print are separate functions.

c_sources() {
	find "$SRCDIR/Tools/profopt" "$SRCDIR/tests/unit" "$SRCDIR/tests/fuzz" -name '*.c' | sort
}

test_no_function_over_80_lines() {
	local out
	out=$("$SRCDIR/tests/long-functions" $(c_sources)) || fail "functions over 80 lines:
$out"
}

# The checker itself: it finds a long function, names it, and passes a short one.
test_the_checker_finds_a_long_function() {
	{
		printf 'static int\nshort_one(int a,\n\t  int b)\n{\n\treturn a + b;\n}\n\n'
		printf 'int long_one(void)\n{\n'
		for i in $(seq 1 81); do printf '\tx += %d;\n' "$i"; done
		printf '\tif (x) {\n\t\treturn 1;\n\t}\n'
		printf '}\n'
	} > f.c
	expect_status 1 "$SRCDIR/tests/long-functions" f.c
	expect_contains out '^84 f.c:9 long_one$'
	expect_not_contains out short_one
	expect_status 0 "$SRCDIR/tests/long-functions" -n 90 f.c
}
