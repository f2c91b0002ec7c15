# t0190: the BOLT stage keeps apart functions a program tells apart by address, and refuses a
# rewrite that fails the program's self-check.  The fold fixture (tests/fixture-fold) has two
# byte-identical functions in a slot table, compared by address as CPython compares its slot
# functions: llvm-bolt's -icf=1 folded such a pair in CPython and made a wrong interpreter.

llvm_bolt() { command -v llvm-bolt-19 || ls /usr/lib/llvm-*/bin/llvm-bolt 2>/dev/null | head -n 1; }

# The fold fixture in the current directory, configured for PGO and BOLT with compiler $1.
configured_fold_fixture() {
	[ -n "$(llvm_bolt)" ] || skip "llvm-bolt not installed (Debian: bolt-19)"
	require "$1" autoconf nm objdump readelf
	cp -r "$SRCDIR/tests/fixture-fold/." .
	mkdir -p m4 && cp "$SRCDIR/m4/ax_pgo.m4" m4/
	cp "$SRCDIR/Tools/make/pgo.mk" .
	autoconf -o configure configure.ac 2>autoconf.log || { cat autoconf.log >&2; fail "autoconf failed on the fold fixture"; }
	./configure --enable-optimizations --enable-bolt CC="$1" PROFOPT="$PROFOPT" > configure.out 2>&1 ||
		{ cat configure.out; fail "configure"; }
}

# sym_addr BINARY NAME: the address of symbol NAME (hexadecimal, as nm prints it).
sym_addr() { nm "$1" | awk -v n="$2" '$3 == n { print $1 }'; }
# fn_code BINARY NAME: the bytes of function NAME's instructions, one instruction a line.
fn_code() { objdump -d --disassemble="$2" "$1" | awk -F'\t' '/^ +[0-9a-f]+:\t/ { print $2 }'; }
# in_hot_text BINARY NAME: whether BOLT laid function NAME out in its hot text (-hot-text).
in_hot_text() {
	local a s e
	a=$(sym_addr "$1" "$2") s=$(sym_addr "$1" __hot_start) e=$(sym_addr "$1" __hot_end)
	[ -n "$a" ] && [ -n "$s" ] && [ -n "$e" ] && [ $((16#$a)) -ge $((16#$s)) ] && [ $((16#$a)) -lt $((16#$e)) ]
}

# The pipeline's own BOLT flags keep list_concat and tuple_concat apart: the rewritten program
# answers right.  The same stage with -icf=1 folds them and the program answers wrong, so this
# test fails if the default folding ever merges address-taken functions again.
bolt_keeps_compared_functions_apart() {
	configured_fold_fixture "$1"
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt with the default BOLT flags"; }
	test -f pgo/bolt.stamp || fail "no bolt stamp"
	readelf -S fold | grep -q '\.note\.bolt_info' || fail "fold was not rewritten by BOLT"
	# What -icf=1 folds: the compiler left two functions, at two addresses, with the same code.
	local list tuple
	list=$(sym_addr fold.prebolt list_concat) tuple=$(sym_addr fold.prebolt tuple_concat)
	[ -n "$list" ] && [ -n "$tuple" ] && [ "$list" != "$tuple" ] ||
		fail "the compiler did not leave list_concat and tuple_concat apart (addresses '$list', '$tuple')"
	fn_code fold.prebolt list_concat > list.code && fn_code fold.prebolt tuple_concat > tuple.code
	[ -s list.code ] && cmp -s list.code tuple.code ||
		{ paste list.code tuple.code; fail "list_concat and tuple_concat differ in code: nothing identical to fold"; }
	# Both ran hot in BOLT's training: BOLT laid them out as hot code.
	in_hot_text fold list_concat && in_hot_text fold tuple_concat ||
		{ nm fold; fail "the slots are not in BOLT's hot text"; }
	[ "$(sym_addr fold list_concat)" != "$(sym_addr fold tuple_concat)" ] || fail "BOLT folded the slots by default"
	expect_contains pgo/logs/bolt.log '^fold check: ok$'
	expect_eq "$(./fold which)" "list:list tuple:tuple" "the rewritten program's slot owners"
	expect_eq "$(./fold run 1000)" "$(./fold.prebolt run 1000)" "the rewritten program's answer"
	# The stage again with -icf=1, its check waived so that the folded rewrite is kept.
	rm pgo/bolt.stamp
	make profile-opt PGO_BOLT_ICF=-icf=1 PGO_BOLT_CHECK=true > icf1.out 2>&1 ||
		{ cat icf1.out; fail "BOLT stage with -icf=1"; }
	expect_contains pgo/logs/bolt.log '^BOLT-INFO: ICF folded [1-9][0-9]* out of'
	expect_eq "$(sym_addr fold tuple_concat)" "$(sym_addr fold list_concat)" \
		"tuple_concat's address after -icf=1 (list_concat's)"
	expect_eq "$(./fold which)" "list:list tuple:list" "the slot owners after -icf=1"
	[ "$(./fold run 1000)" != "$(./fold.prebolt run 1000)" ] || fail "-icf=1 did not change the program's answer"
	expect_status 1 ./fold check
	expect_contains out '^fold check: FAILED: distinct slots'
}

test_bolt_keeps_compared_functions_apart_gcc() { bolt_keeps_compared_functions_apart gcc; }
# Clang: where the folding bit CPython.
test_bolt_keeps_compared_functions_apart_clang() { bolt_keeps_compared_functions_apart clang; }

# A rewrite that fails the program's self-check (folded by -icf=1) is refused: the stage fails
# naming the check, leaves no stamp and the program as linked; the default flags then finish it.
bolt_refuses_a_rewrite_failing_its_self_check() {
	configured_fold_fixture "$1"
	expect_status 2 make profile-opt PGO_BOLT_ICF=-icf=1
	expect_contains pgo/logs/bolt.log '^BOLT-INFO: ICF folded [1-9][0-9]* out of'
	expect_contains out '^fold check: FAILED: distinct slots: list and tuple have one concat function$'
	expect_contains out 'BOLT: optimize the layout: FAILED'
	test -f pgo/verify.stamp || fail "the stages before BOLT did not finish"
	test ! -f pgo/bolt.stamp || fail "a bolt stamp for a refused rewrite"
	cmp -s fold fold.prebolt || fail "the program in place is not the one the profile-use build linked"
	readelf -S fold | grep -q '\.note\.bolt_info' && fail "the program in place was rewritten by BOLT"
	expect_status 0 ./fold check
	make profile-opt > again.out 2>&1 || { cat again.out; fail "the BOLT stage with the default flags"; }
	test -f pgo/bolt.stamp || fail "no bolt stamp after the default flags"
	expect_not_contains again.out '==> rebuild with profile'
	readelf -S fold | grep -q '\.note\.bolt_info' || fail "fold was not rewritten by BOLT"
	expect_eq "$(./fold which)" "list:list tuple:tuple" "the rewritten program's slot owners"
}

test_bolt_refuses_a_rewrite_failing_its_self_check_gcc() { bolt_refuses_a_rewrite_failing_its_self_check gcc; }
test_bolt_refuses_a_rewrite_failing_its_self_check_clang() { bolt_refuses_a_rewrite_failing_its_self_check clang; }

# A name hard-linked to the program (CPython's libpython3.X.so beside libpython3.X.so.1.0, which
# make install copies) follows the rewrite (PGO_BOLT_LINKS): it would keep the old code.
test_bolt_links_follow_the_rewrite() {
	configured_fold_fixture gcc
	make profile-opt PGO_BOLT_LINKS=fold.link > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	readelf -S fold | grep -q '\.note\.bolt_info' || fail "fold was not rewritten by BOLT"
	[ fold -ef fold.link ] || fail "fold.link is not the rewritten fold"
	[ fold.prebolt -ef fold.link ] && fail "fold.link is the program as linked"
	true
}
