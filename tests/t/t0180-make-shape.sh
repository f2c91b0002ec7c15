# t0180-make-shape.sh - the make side decides nothing twice (issue 38): pgo.mk names the
# compiler family in at most four lines (a table of flag variables, chosen once; the driver's
# commands, given --family, do the family's work), writes no stage stamp itself (the driver
# does), deletes no profile data with find (profopt clear does), parses no output of the driver,
# and Makefile.pre.in uses only pgo.mk's documented upper-case names.

PGO_MK=$SRCDIR/Tools/make/pgo.mk

# pgo.mk's lines of make code: comments (and recipe comments, @#) left out.
code_lines() {
	grep -v -E '^[[:space:]]*@?#' "$1"
}

test_pgo_mk_names_the_family_in_at_most_four_lines() {
	code_lines "$PGO_MK" | grep -i -E 'gcc|clang' > family.txt || true
	local n; n=$(wc -l < family.txt)
	[ "$n" -le 4 ] || { cat family.txt; fail "pgo.mk mentions gcc or clang in $n lines of code (at most 4)"; }
	[ "$n" -ge 1 ] || fail "no family table in pgo.mk (is the file there?)"
	# the table is chosen once, by PGO_CC_FAMILY
	expect_contains "$PGO_MK" '^pgo_kind = \$\(if \$\(filter gcc,\$\(PGO_CC_FAMILY\)\),intree,merged\)$'
}

test_pgo_mk_writes_no_stamp_by_hand() {
	code_lines "$PGO_MK" | grep -n -E "printf[^|]*\\\\?\"stage\\\\?\"|\\{\"stage\"|> *\\$\\(call pgo_stamp|> *[^ ]*\\.stamp\\b" > stamps.txt || true
	[ ! -s stamps.txt ] || { cat stamps.txt; fail "pgo.mk writes a stamp itself"; }
	# every stage stamp comes from the driver: --stamp= of profopt run, train, merge, verify, import
	expect_contains "$PGO_MK" 'train .*--stamp=|PGO_TRAIN_CMD\) --family=.* --stamp='
}

test_pgo_mk_deletes_no_profile_data_itself() {
	code_lines "$PGO_MK" | grep -n -E "find .*(gcda|gcno)|-name '\\*\\.gc" > finds.txt || true
	[ ! -s finds.txt ] || { cat finds.txt; fail "pgo.mk deletes profile data with find"; }
	expect_contains "$PGO_MK" '\$\(PROFOPT\) clear --family=\$\(PGO_CC_FAMILY\)'
	# and the merge's own removal (--from) is the same driver function as clear's: the GCC kind's
	[ "$(grep -c 'remove_files(' "$SRCDIR/Tools/profopt/format/family_gcc.c")" -ge 2 ] ||
		fail "format/family_gcc.c's merge and clear do not both use remove_files()"
}

test_pgo_mk_has_one_training_path() {
	local n; n=$(code_lines "$PGO_MK" | grep -c -E '\$\(PGO_TRAIN_CMD\) --family')
	expect_eq "$n" 1 "training calls of profopt train with the family"
	code_lines "$PGO_MK" | grep -n -E 'shell seq|pgo_train_(one|run|each|common)' > old.txt || true
	[ ! -s old.txt ] || { cat old.txt; fail "pgo.mk still has the old training paths"; }
}

test_makefile_uses_only_documented_pgo_names() {
	grep -o -E '\bpgo_[a-z_]+' "$SRCDIR/Makefile.pre.in" | sort -u > private.txt || true
	[ ! -s private.txt ] || { cat private.txt; fail "Makefile.pre.in uses pgo.mk's private names"; }
	# every PGO_ name it reads from pgo.mk is in pgo.mk's documented interface (its header)
	local name
	for name in PGO_STAMP PGO_STAMPS PGO_TRAIN_CMD PGO_REPORT_ARGS PGO_EXPORTED_PROFILE PGO_WORKLOADS; do
		grep -q -E "^#   $name\b" "$PGO_MK" || fail "$name is not documented in pgo.mk's header"
	done
}

test_configure_requires_no_gcov_tool_and_no_merge_command() {
	expect_not_contains "$SRCDIR/m4/ax_pgo.m4" 'gcov-tool|GCOV_TOOL|PGO_MERGE'
}

test_pgo_mk_parses_no_output_of_the_driver() {
	# what make shows of a driver command comes from an option of that command (report --brief)
	code_lines "$PGO_MK" | grep -n -E '\b(sed|awk)\b' | grep -E 'PROFOPT|report\.|pgo_abs_dir' > parsed.txt || true
	[ ! -s parsed.txt ] || { cat parsed.txt; fail "pgo.mk parses the driver's output"; }
	expect_contains "$PGO_MK" 'report \$\(PGO_REPORT_ARGS\) --brief'
}

# pgo.mk is the stage graph (issue 53): the shell the driver owns is not in it (no awk, no
# sha256sum, no run directory made with mktemp, no rm -r), and pgo-bench is a fragment of its own.
test_pgo_mk_is_the_stage_graph() {
	local n; n=$(wc -l < "$PGO_MK")
	[ "$n" -le 600 ] || fail "pgo.mk has $n lines (at most 600)"
	code_lines "$PGO_MK" | grep -n -E '\b(awk|sha256sum|mktemp)\b|rm -[a-z]*r' > shell.txt || true
	[ ! -s shell.txt ] || { cat shell.txt; fail "pgo.mk carries shell the driver owns"; }
	expect_contains "$SRCDIR/Tools/make/pgo-bench.mk" '^pgo-bench:'
	expect_not_contains "$PGO_MK" '^pgo-bench:'
}
