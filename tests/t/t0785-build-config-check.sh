# Tools/check/build_config.py, which verify runs on the final interpreter: the interpreter is the
# configuration asked for (PROFOPT_EXPECT: shared, free-threaded) and a shared build runs on its
# own build's libpython, not on another copy with the same soname.  Run on the machine's python3.

CHECK=$SRCDIR/Tools/check/build_config.py

# what this python3 is, as the check sees it: shared=yes|no free-threaded=yes|no
actual() {
	env -u PROFOPT_EXPECT python3 "$CHECK" | sed -n 's/^build_config: \(shared=[a-z]* free-threaded=[a-z]*\) .*/\1/p'
}

test_the_configuration_asked_for_passes() {
	require python3
	expect_status 0 env PROFOPT_EXPECT="$(actual)" python3 "$CHECK"
	expect_contains out "^build_config: $(actual) gil=(on|off)"
	# without expectations it says what the interpreter is
	expect_status 0 env -u PROFOPT_EXPECT python3 "$CHECK"
	expect_contains out "^build_config: $(actual)"
}

test_another_configuration_fails_naming_asked_and_built() {
	require python3
	local shared free
	shared=$(actual | sed 's/^shared=\([a-z]*\) .*/\1/')
	free=$(actual | sed 's/.*free-threaded=//')
	other() { [ "$1" = yes ] && echo no || echo yes; }
	expect_status 1 env PROFOPT_EXPECT="free-threaded=$(other "$free")" python3 "$CHECK"
	expect_contains out "^build_config: free-threaded: asked $(other "$free"), built $free$"
	expect_status 1 env PROFOPT_EXPECT="shared=$(other "$shared") free-threaded=$free" python3 "$CHECK"
	expect_contains out "^build_config: shared: asked $(other "$shared"), built $shared$"
	# a bad expectation is an error, not a pass
	expect_status 1 env PROFOPT_EXPECT="shared=maybe" python3 "$CHECK"
	expect_contains out "shared=maybe: yes or no"
	expect_status 1 env PROFOPT_EXPECT="gil=off" python3 "$CHECK"
	expect_contains out "'gil=off' is not shared=, free-threaded= or libdir="
}

# A shared interpreter whose library comes from elsewhere than the build's directory fails,
# naming the library it runs on: the silent fallback to an installed libpython.
test_a_shared_build_on_another_library_fails() {
	require python3
	case $(actual) in shared=yes*) ;; *) skip "python3 is not a shared build (needs a libpython to check)" ;; esac
	local lib
	expect_status 0 env PROFOPT_EXPECT="shared=yes" python3 "$CHECK"
	lib=$(sed -n 's/.* library=\([^ ]*\).*/\1/p' out | head -n 1)
	[ -f "$lib" ] || fail "no library named: $(cat out)"
	expect_status 0 env PROFOPT_EXPECT="shared=yes libdir=$(dirname "$lib")" python3 "$CHECK"
	mkdir elsewhere
	expect_status 1 env PROFOPT_EXPECT="shared=yes libdir=$PWD/elsewhere" python3 "$CHECK"
	expect_contains out "^build_config: shared: runs on $lib, not on the library in $PWD/elsewhere$"
}

# make installcheck (Tools/scripts/cpython-installcheck): the installed interpreter runs from its
# prefix, without LD_LIBRARY_PATH, is what was built and passes the guard tests; under DESTDIR the
# staged tree is mounted at the prefix in a private mount namespace.  The machine's python3,
# copied into a staged tree, stands in for the installed CPython.
test_installcheck_runs_the_installed_interpreter_from_its_prefix() {
	require python3 unshare
	[ "$(id -u)" = 0 ] || skip "mounting a staged tree at its prefix needs root"
	unshare -m true 2> /dev/null || skip "unshare -m is not permitted here"
	local ic=$SRCDIR/Tools/scripts/cpython-installcheck prefix=$PWD/prefix guard=test_tuple capi='test_*slot*'
	# Debian's python3 comes without CPython's tests (libpython3.X-testsuite): no guard tests then
	python3 -c 'import test.test_tuple, test.test_capi' 2> /dev/null || guard= capi=
	expect_status 2 "$ic" "$prefix"
	expect_contains out '^usage: cpython-installcheck'
	mkdir -p prefix "dest$prefix/bin"
	expect_status 1 "$ic" "$prefix" "$PWD/dest" python3.X "$(actual)" test_tuple '*slot*'
	expect_contains out "no $PWD/dest$prefix/bin/python3.X: run make install DESTDIR=$PWD/dest first"
	cp "$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')" "dest$prefix/bin/python3.X"
	case $(actual) in
	shared=yes*)
		# a shared python3's copy still runs on its own library, outside the prefix: refused
		expect_status 1 "$ic" "$prefix" "$PWD/dest" python3.X "$(actual)" "$guard" "$capi"
		expect_contains out "^build_config: shared: runs on [^ ]*libpython[^ ]*, not on the library in $prefix/lib$" ;;
	*)
		expect_status 0 "$ic" "$prefix" "$PWD/dest" python3.X "$(actual)" "$guard" "$capi"
		expect_contains out "^installcheck: $prefix/bin/python3.X runs from its prefix and passes the guard tests$" ;;
	esac
	expect_contains out "^installcheck: $prefix/bin/python3.X \\(from $PWD/dest, mounted at $prefix\\)$"
	[ -z "$(ls -A prefix)" ] || fail "the staged tree was mounted outside the private namespace"
	# another configuration than the one built fails
	expect_status 1 "$ic" "$prefix" "$PWD/dest" python3.X "free-threaded=maybe" test_tuple '*slot*'
	expect_contains out 'free-threaded=maybe: yes or no'
}
