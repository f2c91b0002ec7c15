# profopt's command line and `profopt probe` against the real compilers and fake tools.

test_help_version_and_usage_errors() {
	"$PROFOPT" --help > out
	expect_contains out 'Commands:'
	expect_contains out 'probe'
	"$PROFOPT" --version > out
	expect_contains out '^profopt [0-9]+\.[0-9]+'
	"$PROFOPT" probe --help > out
	expect_contains out 'profile_tool.matches'
	"$PROFOPT" train --help > out
	expect_contains out -- '--min-ran'
	expect_status 2 "$PROFOPT" frobnicate
	expect_eq "$(wc -l < out)" 1 "lines of the unknown-command error"
	expect_contains out "unknown command 'frobnicate'"
	expect_status 2 "$PROFOPT" --frob
	expect_eq "$(wc -l < out)" 1 "lines of the unknown-option error"
	expect_status 2 "$PROFOPT" probe --frob
	expect_eq "$(wc -l < out)" 1 "lines of the unknown probe option error"
	expect_status 2 "$PROFOPT"
}

test_probe_gcc() {
	require gcc
	CC=gcc "$PROFOPT" probe --json > probe.json || { cat probe.json; fail "probe failed"; }
	expect_eq "$(json_get probe.json compiler.family)" gcc
	expect_eq "$(json_get probe.json compiler.version)" "$(gcc -dumpfullversion)"
	expect_eq "$(json_get probe.json profile_tool.matches)" true
	expect_eq "$(json_get probe.json profile_tool.version | cut -d. -f1)" "$(gcc -dumpversion | cut -d. -f1)"
	expect_match "$(json_get probe.json profile_tool.path)" 'gcov-tool'
	CC=gcc "$PROFOPT" probe > out
	expect_contains out 'PGO possible:  yes'
}

test_probe_clang() {
	require clang
	CC=clang "$PROFOPT" probe --json > probe.json || { cat probe.json; fail "probe failed"; }
	local v; v=$(clang -dumpversion)
	expect_eq "$(json_get probe.json compiler.family)" clang
	expect_eq "$(json_get probe.json compiler.version)" "$v"
	expect_eq "$(json_get probe.json profile_tool.matches)" true
	expect_eq "$(json_get probe.json profile_tool.version | cut -d. -f1)" "${v%%.*}"
	expect_match "$(json_get probe.json profile_tool.path)" 'llvm-profdata'
	# The first candidate is the one next to the real clang binary, symlinks resolved.
	local real; real=$(readlink -f "$(command -v clang)")
	expect_eq "$(json_get probe.json profile_tool.candidates.0.path)" "$(dirname "$real")/llvm-profdata"
}

test_probe_gcc_that_is_clang() {
	require clang
	fake_bin gcc 'exec clang "$@"'
	CC="$PWD/fakebin/gcc" "$PROFOPT" probe --json > probe.json
	expect_eq "$(json_get probe.json compiler.family)" clang
	PATH="$PWD/fakebin:$PATH" CC=gcc "$PROFOPT" probe --json > probe.json
	expect_eq "$(json_get probe.json compiler.family)" clang
	expect_eq "$(json_get probe.json profile_tool.matches)" true
}

test_probe_wrong_version_llvm_profdata() {
	require clang
	fake_bin llvm-profdata 'echo "LLVM (http://llvm.org/):"; echo "  LLVM version 13.0.1"'
	set +e
	LLVM_PROFDATA="$PWD/fakebin/llvm-profdata" CC=clang "$PROFOPT" probe --json > probe.json
	rc=$?
	set -e
	expect_eq "$rc" 1 "exit status with a mismatched tool"
	expect_eq "$(json_get probe.json profile_tool.matches)" false
	expect_eq "$(json_get probe.json profile_tool.version)" 13.0.1
	expect_match "$(json_get probe.json why)" "13\.0\.1"
	expect_match "$(json_get probe.json why)" "llvm-profdata $(clang -dumpversion | cut -d. -f1)"
}

test_probe_missing_profile_tool() {
	require clang
	set +e
	CC=clang "$PROFOPT" probe --profile-tool=/nonexistent/llvm-profdata > out
	rc=$?
	set -e
	expect_eq "$rc" 1
	expect_contains out 'PGO possible:  no'
	expect_contains out "/nonexistent/llvm-profdata.*not found"
}

test_probe_not_a_compiler() {
	fake_bin notcc 'exit 1'
	expect_status 1 env CC="$PWD/fakebin/notcc" "$PROFOPT" probe
	expect_contains out 'could not preprocess'
}
