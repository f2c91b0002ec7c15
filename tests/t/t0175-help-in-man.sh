# The man page and the options agree.  A command's options are declared once, in its table
# (lib/options.h), which drives parsing and --help; `profopt --list-options` prints the
# tables, and `profopt-bench --list-options` those of the benchmark tool's bench and compare.
# The man page's entry for the command (COMMANDS, ".TP" then ".B NAME ...") must name each of
# them, and name no option the table lacks; bench's entry points to its own section, BENCH,
# which counts as part of it.  Commands not on a table are held to their --help text instead.

# BENCH_TOOL: the benchmark tool, beside the driver.
find_bench_tool() {
	BENCH_TOOL=$(dirname "$(readlink -f "$PROFOPT")")/profopt-bench
	[ -x "$BENCH_TOOL" ] || fail "no profopt-bench beside $PROFOPT"
}

# man_entry NAME: the text of NAME's entries under COMMANDS, '\-' written '-'
man_entry() {
	awk -v want="$1" '
		/^\.SH COMMANDS/ { on = 1; next }
		/^\.SH/ { on = 0 }
		on && prev == ".TP" && /^\.B / { n = $2; gsub(/\\-/, "-", n); sub(/\\f.*/, "", n); mine = (n == want) }
		on && /^\.TP/ { prev = $0; next }
		on && mine { gsub(/\\-/, "-"); print }
		{ prev = $0 }' "$SRCDIR/Misc/profopt.1"
}

# man_section NAME: the text of section NAME (".SH NAME"), '\-' written '-'
man_section() {
	awk -v want=".SH $1" '
		$0 == want { on = 1; next }
		/^\.SH/ { on = 0 }
		on { gsub(/\\-/, "-"); print }' "$SRCDIR/Misc/profopt.1"
}

# man_text NAME: what the man page says of command NAME's options
man_text() {
	man_entry "$1"
	if [ "$1" = bench ]; then man_section BENCH; fi
}

test_every_table_option_is_in_the_man_page_and_no_other() {
	local c o missing= extra= commands
	"$PROFOPT" --list-options > table.txt
	find_bench_tool
	"$BENCH_TOOL" --list-options > bench-table.txt
	grep -q '^bench --callgrind$' bench-table.txt && grep -q '^compare --command$' bench-table.txt ||
		fail "profopt-bench --list-options lacks bench's or compare's options: $(cat bench-table.txt)"
	cat bench-table.txt >> table.txt
	commands=$(cut -d' ' -f1 table.txt | sort -u)
	[ "$(echo "$commands" | wc -w)" -ge 14 ] || fail "--list-options lists too few commands: $commands"
	for c in $commands; do
		man_text "$c" > entry.txt
		[ -s entry.txt ] || { missing="$missing $c:(no entry)"; continue; }
		grep "^$c " table.txt | cut -d' ' -f2 > options.txt
		while read -r o; do
			grep -qE -- "(^|[^a-z-])$o([^a-z0-9-]|$)" entry.txt || missing="$missing $c:$o"
		done < options.txt
		# what the entry names: options after a font change or a space, not another tool's
		# (llvm-profdata's, tar's), which the entry writes after the tool's name
		for o in $(grep -oE -- '(\\fB|^| |\[|\(|\|)--[a-z][a-z0-9-]*' entry.txt | grep -oE -- '--[a-z0-9-]+' | sort -u); do
			case "$c $o" in
			# llvm-profdata's, tar's, valgrind's, Tools/scripts' bench-compare and bench-builds,
			# and report's --top named in the coverage entry
			"merge --failure-mode" | "stash --files-from" | "report --all-functions" | "report --counts" | \
				"coverage --top" | "bench --tool" | "compare --tool" | "compare --trace-children" | \
				"bench --metric" | "bench --any-loops" | "bench --only") continue ;;
			esac
			grep -qx -- "$o" options.txt || extra="$extra $c:$o"
		done
	done
	[ -z "$missing" ] || fail "options in the tables but not in their man page entry:$missing"
	[ -z "$extra" ] || fail "options in the man page that the command's table lacks:$extra"
}

test_every_help_option_is_in_the_man_page() {
	local man=$SRCDIR/Misc/profopt.1 commands c o missing=
	commands=$("$PROFOPT" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
	[ "$(echo "$commands" | wc -w)" -ge 15 ] || fail "profopt --help lists too few commands: $commands"
	for c in $commands; do
		"$PROFOPT" "$c" --help > help.txt 2>&1 || fail "profopt $c --help failed"
		grep -q -- "--" help.txt || fail "profopt $c --help names no option"
		for o in $(grep -o -- '--[a-z][a-z0-9-]*' help.txt | sort -u); do
			# the man page writes each '-' as '\-'
			grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$man" || missing="$missing $c:$o"
		done
	done
	[ -z "$missing" ] || fail "options in --help but not in Misc/profopt.1:$missing"
}

# The benchmark tool's --help is its table too, and reaches the user through the driver.
test_bench_help_is_the_table() {
	local c o
	find_bench_tool
	"$BENCH_TOOL" --list-options > table.txt
	for c in bench compare; do
		grep "^$c --" table.txt | cut -d' ' -f2 > "$c.txt"
		[ -s "$c.txt" ] || fail "profopt-bench --list-options has no options of $c"
		"$PROFOPT" "$c" --help > help.txt
		expect_contains help.txt "^usage: profopt $c "
		while read -r o; do
			grep -qE -- "^  $o[= ]|^  $o\$" help.txt || fail "$c --help does not list $o"
		done < "$c.txt"
		expect_eq "$(grep -cE '^  --' help.txt)" "$(wc -l < "$c.txt")" "options in $c --help"
		"$PROFOPT" help "$c" > help2.txt
		cmp -s help.txt help2.txt || fail "profopt help $c differs from profopt $c --help"
	done
	"$BENCH_TOOL" --help > help.txt
	grep -q -- '--list-options' help.txt && fail "profopt-bench --help shows the hidden --list-options"
	true
}

test_help_is_the_table() {
	local o
	"$PROFOPT" --list-options | grep '^merge --' | cut -d' ' -f2 > merge.txt
	"$PROFOPT" merge --help > help.txt
	while read -r o; do
		grep -qE -- "^  $o[= ]" help.txt || fail "merge --help does not list $o"
	done < merge.txt
	expect_eq "$(grep -cE '^  --' help.txt)" "$(wc -l < merge.txt)" "options in merge --help"
}

# Every variable the make side lets a project or a user set (NAME ?= DEFAULT in pgo.mk and
# pgo-bench.mk) is in the man page, and every PGO_ name the man page gives is one the make side,
# configure or the driver knows: the make interface is declared once, in the man page.
test_every_make_variable_is_in_the_man_page_and_no_other() {
	local v missing= unknown=
	sed 's/\\-/-/g; s/\\f[BIRP]//g' "$SRCDIR/Misc/profopt.1" > man.txt
	grep -ohE '^[A-Z][A-Z0-9_]* \?=' "$SRCDIR/Tools/make/pgo.mk" "$SRCDIR/Tools/make/pgo-bench.mk" | cut -d' ' -f1 | sort -u > vars.txt
	[ "$(wc -l < vars.txt)" -ge 50 ] || fail "too few NAME ?= in pgo.mk: $(cat vars.txt)"
	while read -r v; do grep -qw -- "$v" man.txt || missing="$missing $v"; done < vars.txt
	[ -z "$missing" ] || fail "variables pgo.mk lets a user set, not in the man page:$missing"
	# (PGO_TRAIN_ARGS_NAME stands for a family of variables: their common prefix is looked for)
	for v in $(grep -oE '\bPGO_[A-Z0-9_]*[A-Z0-9]\b' man.txt | sed 's/_NAME$/_/' | sort -u); do
		grep -rqE "\b$v(\b|[A-Za-z(\$])" "$SRCDIR/Tools/make" "$SRCDIR/Makefile.pre.in" "$SRCDIR/m4/ax_pgo.m4" "$SRCDIR/configure.ac" \
			"$SRCDIR/Tools/profopt" || unknown="$unknown $v"
	done
	[ -z "$unknown" ] || fail "the man page names make variables nothing defines:$unknown"
}
