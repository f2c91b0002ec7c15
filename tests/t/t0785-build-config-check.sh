# Tools/check/build_config.py, which verify runs on the final interpreter: the interpreter is the
# configuration asked for (PROFOPT_EXPECT: shared, free-threaded) and a shared build runs on its
# own build's libpython, not on another copy with the same soname.  Run on the machine's python3.

CHECK=$SRCDIR/Tools/check/build_config.py

# what this python3 is: shared=yes|no free-threaded=yes|no
actual() {
	python3 -c 'import sysconfig as s; print("shared=%s free-threaded=%s" % tuple("yes" if s.get_config_var(v) else "no" for v in ("Py_ENABLE_SHARED", "Py_GIL_DISABLED")))'
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
