# Every option a command's --help names is in the man page: the two are written separately,
# so this is what keeps them from drifting apart.

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
