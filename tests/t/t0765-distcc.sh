# t0765: a distributed compiler under the pipeline (issue 16, Misc/DISTRIBUTED.md): with
# clang's front-end instrumentation both compile stages go to a distcc worker on loopback
# and the profile is still used; gcc's profile compiles stay local, as distcc decides.

# start_worker: a distccd on a free loopback port, stopped when the test ends; sets PORT.
start_worker() {
	require distcc distccd
	for PORT in $(seq 36320 36399); do
		distccd --no-detach --daemon --allow 127.0.0.1 --listen 127.0.0.1 --port "$PORT" \
			--jobs 2 --enable-tcp-insecure --log-stderr > worker.log 2>&1 &
		WORKER=$!
		sleep 0.5
		if kill -0 "$WORKER" 2>/dev/null; then
			trap 'kill $WORKER 2>/dev/null' EXIT
			export DISTCC_HOSTS=127.0.0.1:$PORT DISTCC_VERBOSE=1
			return
		fi
	done
	skip "no loopback port for distccd in 36320-36399"
}

# distcc_fixture CC ARGS...: the fixture configured with "distcc CC".
distcc_fixture() {
	cc=$1; shift
	require "$cc" autoconf
	setup_fixture
	./configure --enable-optimizations CC="distcc $cc" PROFOPT="$PROFOPT" "$@" > configure.out 2>&1 ||
		{ cat configure.out; fail "configure"; }
}

# where STAGE: "remote" or "local" for each compile of a stage's log (links, "(null)", run here).
where() {
	grep -E 'compile .* on .* completed ok' "pgo/logs/$1.log" | grep -v 'compile (null) on' |
		sed -n 's/.* on localhost completed ok/local/p; s/.* on 127\.0\.0\.1:[0-9]* completed ok/remote/p'
}

test_distcc_clang_frontend_both_stages_remote() {
	start_worker
	distcc_fixture clang --with-pgo-instrumentation=frontend
	# A compile that cannot be distributed fails instead of quietly running here.
	DISTCC_FALLBACK=0 make profile-opt > make.out 2>&1 || { cat make.out worker.log; fail "make profile-opt"; }
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	expect_eq "$(where instrument | sort -u)" remote "where the instrumented compiles ran"
	expect_eq "$(where use | sort -u)" remote "where the profile-use compiles ran"
	expect_eq "$(where use | wc -l)" 2 "profile-use compiles on the worker"
}

test_distcc_gcc_profile_compiles_stay_local() {
	start_worker
	distcc_fixture gcc
	make profile-opt > make.out 2>&1 || { cat make.out worker.log; fail "make profile-opt"; }
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	expect_eq "$(grep -c 'compiler will emit/use profile info; must be local' pgo/logs/use.log)" 3 \
		"gcc profile-use commands distcc kept local (two compiles, one link)"
	expect_not_contains pgo/logs/use.log 'on 127[.]0[.]0[.]1:[0-9]* completed'
}
