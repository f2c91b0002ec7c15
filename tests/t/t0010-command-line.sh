# profopt's own command line: the command list, --version, a command's --help, usage errors.

test_help_version_and_usage_errors() {
	"$PROFOPT" --help > out
	expect_contains out 'Commands:'
	expect_contains out 'verify'
	expect_not_contains out 'probe'
	"$PROFOPT" --version > out
	expect_contains out '^profopt [0-9]+\.[0-9]+'
	"$PROFOPT" train --help > out
	expect_contains out -- '--min-ran'
	expect_status 2 "$PROFOPT" frobnicate
	expect_eq "$(wc -l < out)" 1 "lines of the unknown-command error"
	expect_contains out "unknown command 'frobnicate'"
	expect_status 2 "$PROFOPT" probe
	expect_contains out "unknown command 'probe'"
	expect_status 2 "$PROFOPT" --frob
	expect_eq "$(wc -l < out)" 1 "lines of the unknown-option error"
	expect_status 2 "$PROFOPT" train --frob
	expect_eq "$(wc -l < out)" 1 "lines of the unknown train option error"
	expect_status 2 "$PROFOPT"
}
