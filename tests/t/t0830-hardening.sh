# Hardening (issue 37): every byte of a line-based input counted, names escaped for people,
# outputs that replace only regular files, bounded inputs and options, one diff answer,
# temporary directories removed on a signal.  One test per class; each failed before its fix.

# --- every byte counted: a line-based input with a NUL or a control byte is refused, naming
# the file and the line; an empty or damaged profile is damaged wherever it is read

test_line_inputs_refuse_nul_and_control_bytes() {
	printf 'a\ttrue\nb\ttrue\n\0c\tfalse\nd\tfalse\n' > tasks.txt
	expect_status 1 "$PROFOPT" train --tasks=tasks.txt --log-dir=logs
	expect_contains out 'tasks\.txt:3: column 1 holds a NUL byte'
	expect_not_contains out 'ran'
	printf 'a\ttrue\nb\ttr\033[2Jue\n' > tasks.txt
	expect_status 1 "$PROFOPT" train --tasks=tasks.txt --log-dir=logs
	expect_contains out 'tasks\.txt:2: column 5 holds the control character 0x1b'
	printf 'a\ttrue\nb\t\377true\n' > tasks.txt
	expect_status 1 "$PROFOPT" train --tasks=tasks.txt --log-dir=logs
	expect_contains out 'tasks\.txt:2: column 3 holds the byte 0xff, which is not UTF-8'
	# CRLF lines are still text
	printf 'a\ttrue\r\nb\ttrue\r\n' > tasks.txt
	expect_status 0 "$PROFOPT" train --tasks=tasks.txt --log-dir=logs
	expect_contains out '2 of 2 tasks ran'
	# a task name beyond its limit
	{ printf 'x%.0s' $(seq 300); printf '\ttrue\n'; } > tasks.txt
	expect_status 1 "$PROFOPT" train --tasks=tasks.txt --log-dir=logs
	expect_contains out 'tasks\.txt:1: a task name of 300 bytes, more than the limit of 255'

	# KEY=VALUE files: a NUL would have hidden the facts after it
	printf 'profile' > p.profdata
	printf 'cc=gcc\n\0python=3.13\n' > facts.kv
	expect_status 1 "$PROFOPT" export --profile=p.profdata --manifest=facts.kv --write-manifest=m.json
	expect_contains out 'facts\.kv:2: column 1 holds a NUL byte'
	[ ! -e m.json ] || fail "a manifest was written from a refused file"
	# a value beyond its limit
	{ printf 'cc='; head -c 5000 /dev/zero | tr '\0' x; printf '\n'; } > facts.kv
	expect_status 1 "$PROFOPT" export --profile=p.profdata --manifest=facts.kv --write-manifest=m.json
	expect_contains out 'facts\.kv:1: a value of 5000 bytes, more than the limit of 4096'

	# a --groups file of coverage
	printf 'core Python/*\n\0hidden Modules/*\n' > groups.txt
	expect_status 1 "$PROFOPT" coverage --groups=groups.txt --list
	expect_contains out 'groups\.txt:2: column 1 holds a NUL byte'
}

test_damaged_fingerprint_is_not_zero_files() {
	mkdir src && echo 'int x;' > src/a.c && echo 'int y;' > src/b.c
	"$PROFOPT" check --write-fingerprint=fp --source-dir=src 2> /dev/null
	expect_status 0 "$PROFOPT" check --against=fp
	expect_contains out '2 fingerprinted'
	# a NUL after the header hid every entry: "0 fingerprinted", ok
	{ head -n 2 fp; printf '\0'; tail -n +3 fp; } > nul.fp
	expect_status 1 "$PROFOPT" check --against=nul.fp
	expect_contains out 'nul\.fp:3: column 1 holds a NUL byte'
	expect_not_contains out 'fingerprinted'
	# the header alone, and a last line cut short
	head -n 2 fp > empty.fp
	expect_status 1 "$PROFOPT" check --against=empty.fp
	expect_contains out 'empty\.fp: it lists no file: a damaged fingerprint'
	head -c -3 fp > cut.fp
	expect_status 1 "$PROFOPT" check --against=cut.fp
	expect_contains out 'cut\.fp: its last line is cut short \(no newline\): a damaged fingerprint'
}

test_empty_raw_profile_is_damaged_in_report() {
	require clang llvm-profdata
	printf 'int main(void) { return 0; }\n' > p.c
	clang -fprofile-generate -o p p.c
	mkdir raw && LLVM_PROFILE_FILE=raw/a.profraw ./p
	: > raw/empty.profraw
	expect_status 1 "$PROFOPT" report --profile-dir=raw
	expect_contains out 'profopt report: damaged profile: raw/empty\.profraw: offset 0 .*truncated header'
	expect_contains out '2 files.*1 DAMAGED'
	expect_status 1 "$PROFOPT" report --profdata=raw/empty.profraw
	expect_contains out 'damaged profile: raw/empty\.profraw'
	# merge says the same of it, and so does check-raw
	expect_status 1 "$PROFOPT" merge --family=clang --profile-dir=raw
	expect_contains out 'profopt merge: damaged profile: raw/empty\.profraw: offset 0 .*truncated header'
	expect_status 1 "$PROFOPT" check-raw raw/empty.profraw
	expect_contains out 'profopt check-raw: error: damaged profile: raw/empty\.profraw: offset 0 .*truncated header'
}

# --- names escaped for people: a task or object name from outside never moves the cursor or
# starts a line of its own on the terminal or in the log

test_names_from_outside_are_escaped_in_output() {
	require gcc
	# tasks named by their commands: one with a terminal escape, one with a newline; both fail
	expect_status 0 "$PROFOPT" train --log-dir=logs --min-ran=0 -- $'false \e[2Jx' $'false\nfalse'
	expect_not_contains out $'\e'
	expect_contains out 'running: false \\x1b\[2Jx'
	expect_contains out '  false \\x1b\[2Jx: failed \(exit 1\)'
	expect_contains out 'training tasks failed: false \\x1b\[2Jx, false\\x0afalse;'
	expect_not_contains out '^false'
	# object names in verify --list
	echo 'int f(void) { return 1; }' > $'e\e[2Jx.c'
	gcc -O2 -c -o $'e\e[2Jx.o' $'e\e[2Jx.c'
	expect_status 1 "$PROFOPT" verify --family=gcc --build-dir=. --list
	expect_not_contains out $'\e'
	expect_contains out 'no profile: e\\x1b\[2Jx\.o: no \.gcda beside it'
	# a message naming a file: the whole message is escaped
	expect_status 1 "$PROFOPT" check --against=$'no\e[2Jfile'
	expect_not_contains out $'\e'
	expect_contains out 'no\\x1b\[2Jfile'
}

# --- outputs replace only regular files: a device, a FIFO, a socket or a directory named by an
# output option is refused and left as it was; a symbolic link is replaced, its target untouched

# refused TARGET WHAT COMMAND...: COMMAND fails within 20 s (a FIFO must not hang it), saying
# it refuses TARGET (a WHAT)
refused() {
	local target=$1 what=$2; shift 2
	set +e; timeout 20 "$@" > out 2>&1; local rc=$?; set -e
	[ "$rc" != 124 ] || fail "'$*' hung on $target"
	[ "$rc" != 0 ] || { cat out; fail "'$*' wrote $target"; }
	expect_contains out "refusing to write (.*/)?$target: it is $what, and an output replaces only a regular file|refusing the lock file $target"
}

# every_output TARGET WHAT CHECK: each output option of each command, given TARGET
every_output() {
	local t=$1 what=$2 check=$3
	refused "$t" "$what" "$PROFOPT" train --log-dir=logs --stamp="$t" -- true; $check
	refused "$t" "$what" "$PROFOPT" train --log-dir=logs --results="$t" -- true; $check
	refused "$t" "$what" "$PROFOPT" run --log="$t" -- true; $check
	refused "$t" "$what" "$PROFOPT" run --log=run.log --stamp="$t" -- true; $check
	refused "$t" "$what" "$PROFOPT" export --profile=p.profdata --output="$t"; $check
	refused "$t" "$what" "$PROFOPT" export --profile=p.profdata --write-manifest="$t"; $check
	refused "$t" "$what" "$PROFOPT" import --bundle=b.tar.gz --dest="$t"; $check
	refused "$t" "$what" "$PROFOPT" import --bundle=b.tar.gz --dest=got.profdata --manifest-out="$t"; $check
	refused "$t" "$what" "$PROFOPT" import --bundle=b.tar.gz --dest=got.profdata --stamp="$t"; $check
	refused "$t" "$what" "$PROFOPT" check --write-fingerprint="$t" --source-dir=src; $check
	refused "$t" "$what" "$PROFOPT" stash save --build-dir=src --archive="$t"; $check
	refused "$t" "$what" "$PROFOPT" verify --family=gcc --build-dir=src --stamp="$t"; $check
	refused "$t" "$what" "$PROFOPT" lock --file="$t" -- true; $check
}

test_outputs_replace_only_regular_files() {
	[ "$(id -u)" = 0 ] || skip "mknod needs root (the device node is created here, never /dev/null)"
	require python3
	mkdir src && echo 'int x;' > src/a.c && printf 'gcda' > src/a.gcda
	printf 'profile' > p.profdata
	"$PROFOPT" export --profile=p.profdata --output=b.tar.gz 2> /dev/null
	mknod null c 1 3
	every_output null 'a character device' '[ -c null ]'
	mkfifo fifo
	every_output fifo 'a FIFO' '[ -p fifo ]'
	mkdir dir
	every_output dir 'a directory' '[ -d dir ]'
	python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'
	every_output sock 'a socket' '[ -S sock ]'
	[ -z "$(ls -A | grep '\.tmp')" ] || fail "temporary files left: $(ls -A | grep '\.tmp')"

	# a symbolic link is replaced itself: its target (a device here, a file there) is untouched
	ln -s "$PWD/null" link-to-dev
	echo keep > target.txt && ln -s target.txt link-to-file
	"$PROFOPT" train --log-dir=logs --stamp=link-to-dev --results=link-to-file -- true 2> /dev/null
	[ -c null ] && [ -f link-to-dev ] && [ ! -L link-to-dev ] || fail "the link to the device was followed"
	[ ! -L link-to-file ] && [ "$(cat target.txt)" = keep ] || fail "the link to the file was followed"
	ln -sf "$PWD/null" log-link
	"$PROFOPT" run --log=log-link -- echo hello 2> /dev/null
	[ -c null ] && [ ! -L log-link ] && grep -q hello log-link || fail "run's log followed the link"
}

# --- bounded: a profile reader checks the file before reading it, a bundle unpacks to a
# bounded size, a log line is cut, a number out of range is refused (never wrapped)

test_inputs_and_numbers_are_bounded() {
	require python3
	# a device never ends, a sparse file of gigabytes is refused by its size, unread
	set +e; timeout 20 "$PROFOPT" check-raw --tool=true /dev/zero > out 2>&1; rc=$?; set -e
	expect_eq "$rc" 1 "check-raw /dev/zero"
	expect_contains out '/dev/zero: a character device, not a regular file: not a profile'
	truncate -s 5G big.profraw
	set +e; timeout 20 "$PROFOPT" check-raw --tool=true big.profraw > out 2>&1; rc=$?; set -e
	expect_eq "$rc" 1 "check-raw of a 5 GB sparse file"
	expect_contains out 'big\.profraw: 5368709120 bytes, more than the 1073741824 bytes a profile file may have'
	mkdir g && truncate -s 2000 g/a.gcda
	PROFOPT_MAX_PROFILE_BYTES=1000 expect_status 1 "$PROFOPT" report --family=gcc --profile-dir=g
	expect_contains out 'g/a\.gcda: 2000 bytes, more than the 1000 bytes'
	expect_status 2 "$PROFOPT" diff /dev/zero g
	expect_contains out '/dev/zero: a character device, not a regular file'

	# a bundle that inflates 1000 times is refused before a byte is written, unless allowed
	python3 - <<'PY'
import tarfile, io, json, hashlib
data = b'\0' * (20 << 20)
m = json.dumps({"profile_file": "p.profdata", "profile_sha256": hashlib.sha256(data).hexdigest()}).encode()
with tarfile.open('bomb.tar.gz', 'w:gz') as t:
    for name, b in (('manifest.json', m), ('profile/p.profdata', data)):
        i = tarfile.TarInfo(name); i.size = len(b); t.addfile(i, io.BytesIO(b))
PY
	export TMPDIR=$PWD/tmp && mkdir tmp
	expect_status 1 "$PROFOPT" import --bundle=bomb.tar.gz --dest=got.profdata
	expect_contains out "refusing bomb\.tar\.gz: member 'profile/p\.profdata' takes it past [0-9]+ bytes unpacked, its limit"
	[ ! -e got.profdata ] && [ -z "$(ls -A tmp)" ] || fail "the refused bundle left files"
	expect_status 1 "$PROFOPT" import --bundle=bomb.tar.gz --dest=got.profdata --max-inflate=100000 --max-unpacked=1000000
	expect_contains out 'takes it past 1000000 bytes unpacked'
	expect_status 0 "$PROFOPT" import --bundle=bomb.tar.gz --dest=got.profdata --max-inflate=100000
	PROFOPT_MAX_INFLATE=100000 expect_status 0 "$PROFOPT" import --bundle=bomb.tar.gz --dest=got2.profdata
	expect_status 1 "$PROFOPT" import --bundle=/dev/zero --dest=got3.profdata
	expect_contains out 'refusing /dev/zero: it is a character device, not a regular file'

	# a log of one endless line: the tail shows its start, cut
	expect_status 1 "$PROFOPT" run --log=long.log --tail=3 -- sh -c 'head -c 100000 /dev/zero | tr "\0" x; echo; exit 1'
	expect_contains out '^x{4096} \[\.\.\. the rest of a long line cut\]$'

	# numbers: out of range is refused, never wrapped (2^32 jobs were "0 at a time", a hang)
	for bad in 4294967296 0 -1 4097 1e3; do
		set +e; timeout 10 "$PROFOPT" train --log-dir=logs -j "$bad" -- true > out 2>&1; rc=$?; set -e
		expect_eq "$rc" 2 "train -j $bad"
		expect_contains out "--jobs wants a whole number from 1 to 4096, not '$bad'"
	done
	expect_status 2 "$PROFOPT" train --log-dir=logs --timeout=inf -- true
	expect_status 2 "$PROFOPT" train --log-dir=logs --min-ran=nan -- true
	expect_status 2 "$PROFOPT" run --log=r.log --heartbeat=nan -- true
	expect_status 2 "$PROFOPT" run --log=r.log --tail=4294967296 -- true
	expect_status 2 "$PROFOPT" check --against=fp --max-changed=nan
	expect_status 2 "$PROFOPT" coverage --threshold=nan --list
	expect_status 2 "$PROFOPT" merge --family=clang --weighted=d:4294967296
	expect_status 2 "$PROFOPT" report --profile-dir=g --top=4294967296
	expect_status 2 "$PROFOPT" bench --rounds=4294967296 a=true
	expect_contains out '--rounds wants a whole number from 1 to 100000'
	expect_status 2 "$PROFOPT" bench --target=inf a=true
}

# --- diff: one answer for profiles without counts; identical is 100% and exit 0

# zero_gcda FILE STAMP: a .gcda (GCC 12) of two functions whose counters are all zero
zero_gcda() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
w = lambda *v: struct.pack('<%dI' % len(v), *v)
version = (ord('B') << 24) | (ord('2') << 16) | (ord('2') << 8) | ord('*')
data = [w(0x67636461, version, int(sys.argv[2]), 0)]
for i in range(2):
    data.append(w(0x01000000, 12, i + 1, 11, 22) + w(0x01a10000, 16) + struct.pack('<QQ', 0, 0))
open(sys.argv[1], 'wb').write(b''.join(data + [w(0)]))
PY
}

test_diff_answers_alike_for_profiles_without_counts() {
	require python3
	mkdir a b c
	zero_gcda a/x.gcda 7 && cp a/x.gcda b/ && zero_gcda c/x.gcda 8
	# identical files without a count: 100% and exit 0 (it said "identical: yes" at 0%)
	expect_status 0 "$PROFOPT" diff a b
	expect_contains out 'similarity: 100\.000% \(edge-count overlap; neither profile has a count\)'
	expect_contains out 'identical:  yes'
	"$PROFOPT" diff --json a b > d.json
	expect_eq "$(json_get d.json similarity)" 1.0
	expect_eq "$(json_get d.json no_counts)" true
	# different files, neither with a count: the same empty distribution, but not identical
	expect_status 1 "$PROFOPT" diff a c
	expect_contains out 'similarity: 100\.000%.*neither profile has a count'
	expect_contains out 'identical:  no'
	if command -v llvm-profdata > /dev/null; then
		printf '# IR level Instrumentation Flag\n:ir\nmain\n# Func Hash:\n12345\n# Num Counters:\n2\n# Counter Values:\n0\n0\n\n' > z.proftext
		printf '# IR level Instrumentation Flag\n:ir\nmain\n# Func Hash:\n12346\n# Num Counters:\n2\n# Counter Values:\n0\n0\n\n' > z2.proftext
		printf '# IR level Instrumentation Flag\n:ir\nmain\n# Func Hash:\n12345\n# Num Counters:\n2\n# Counter Values:\n5\n0\n\n' > c.proftext
		for p in z z2 c; do llvm-profdata merge -o $p.profdata $p.proftext; done
		# all-zero clang profiles: exit 2 ("printed no 'Edge profile overlap' line") before
		expect_status 0 "$PROFOPT" diff z.profdata z.profdata
		expect_contains out 'similarity: 100\.000%.*neither profile has a count'
		expect_status 1 "$PROFOPT" diff z.profdata z2.profdata
		expect_contains out 'similarity: 100\.000%.*neither profile has a count'
		expect_status 1 "$PROFOPT" diff z.profdata c.profdata
		expect_contains out 'similarity: 0\.000% \(edge-count overlap\)'
		expect_status 0 "$PROFOPT" diff c.profdata c.profdata
		expect_contains out 'similarity: 100\.000% \(edge-count overlap\)'
		# an empty raw profile is damaged, as merge says: an error, not a result
		: > e.profraw
		expect_status 2 "$PROFOPT" diff e.profraw e.profraw
		expect_contains out 'damaged profile: e\.profraw: offset 0'
	fi
}

# --- signals and true words: a temporary directory is removed when profopt is ended by a
# signal; what training says of a timed-out task's counts is what happened

test_signal_removes_temporary_directories() {
	require python3
	export TMPDIR=$PWD/tmp && mkdir tmp
	printf 'profile' > p.profdata
	"$PROFOPT" export --profile=p.profdata --output=b.tar.gz 2> /dev/null
	# import stops, its temporary directory made, writing a long list of differences to a pipe
	# nobody reads; then it gets the signal
	local facts=() i sig
	for i in $(seq 40); do facts+=("k$i=$(head -c 3000 /dev/zero | tr '\0' v)"); done
	for sig in INT TERM HUP; do
		rm -f err.fifo && mkfifo err.fifo
		exec 3<> err.fifo
		# (a background job of a script starts with SIGINT ignored: env gives it back)
		env --default-signal=INT,TERM,HUP "$PROFOPT" import --bundle=b.tar.gz --dest=got.profdata --force \
			"${facts[@]}" 2> err.fifo &
		local pid=$! n=0
		until [ -n "$(ls -A tmp)" ] || [ $n -ge 100 ]; do sleep 0.1; n=$((n + 1)); done
		[ -n "$(ls -A tmp)" ] || fail "import made no temporary directory"
		sleep 0.5
		kill -"$sig" "$pid"
		n=0 && while kill -0 "$pid" 2> /dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
		kill -0 "$pid" 2> /dev/null && { kill -KILL "$pid"; fail "SIG$sig did not end import"; }
		set +e; wait "$pid"; rc=$?; set -e
		exec 3<&-
		[ "$rc" -gt 128 ] || fail "import ended with $rc, not by SIG$sig"
		[ -z "$(ls -A tmp)" ] || fail "SIG$sig left $(ls -A tmp)"
	done
}

test_timed_out_task_counts_are_told_as_they_are() {
	# one task exits on SIGTERM (writing what it counted), one ignores it and is killed
	cat > tasks.txt <<'TASKS'
exits	sh -c 'trap "echo counted > exits.counts; exit 0" TERM; sleep 30 & wait'
stays	sh -c 'trap "" TERM; sleep 30'
TASKS
	expect_status 1 "$PROFOPT" train --tasks=tasks.txt --log-dir=logs --timeout=1 --min-ran=100%
	[ -f exits.counts ] || fail "the task that exited on SIGTERM did not write"
	expect_not_contains out 'they wrote no counts'
	expect_contains out '2 of 2 training tasks timed out: exits, stays; they were stopped with SIGTERM: their processes that exited on it wrote the counts they had, those killed by it wrote none'
	expect_contains out 'processes of 1 task \(stays\) still ran 5 s after SIGTERM and were killed \(SIGKILL\): their counts are lost'
}

# A directory the walk cannot read is an error naming it, never a quietly shorter list: a
# stash that missed it would lose its profiles.  (Root reads everything: the commands run as
# nobody, on a tree nobody owns with one directory closed.)
test_unreadable_directory_is_named_not_skipped() {
	require setpriv
	mkdir -p tree/a tree/b store
	printf 'x' > tree/a/one.gcda && printf 'y' > tree/b/two.gcda
	chown -R nobody tree store && chmod 755 . && chmod 000 tree/b
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	expect_status 1 as_nobody "$PROFOPT" stash save --build-dir=tree --archive=store/s.tar
	expect_contains out 'cannot read tree/b: Permission denied \(a stash without it would lose its profiles\)'
	test ! -e store/s.tar || fail "a stash without tree/b was written"
	expect_status 1 as_nobody "$PROFOPT" merge --family=gcc --profile-dir=tree --check-only
	expect_contains out 'tree/b'
	printf 'z' > tree/a/one.o && chown nobody tree/a/one.o
	expect_status 1 as_nobody "$PROFOPT" verify --family=gcc --build-dir=tree
	expect_contains out 'cannot read tree/b: Permission denied \(looking for \*\.o under tree: nothing may be missed\)'
	chmod 755 tree/b
	expect_status 0 as_nobody "$PROFOPT" stash save --build-dir=tree --archive=store/s.tar
	expect_eq "$(tar -tf store/s.tar | sort | tr '\n' ' ')" "a/one.gcda b/two.gcda " "stashed files"
}
