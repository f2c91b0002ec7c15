#!/bin/sh
# make-corpus.sh - regenerates the seed corpus of the profile readers' fuzzer (and the real
# files their unit tests read) from seed.c: GCC 12 .gcda/.gcno, clang 14 .profraw (IR and
# front-end instrumentation, format version 8), clang 19 .profraw (version 10), the text of
# llvm-profdata show and nm, and a stash (tar) of a .gcda.  Run it from
# anywhere; it writes tests/fuzz/corpus/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$here/seed.c" .
gcc -O1 -fprofile-generate -ftest-coverage -o seed seed.c
./seed > /dev/null
cp seed.gcda "$here/corpus/seed.gcda"
cp seed.gcno "$here/corpus/seed.gcno"
clang -O1 -fprofile-generate -o seed-ir seed.c
LLVM_PROFILE_FILE=ir.profraw ./seed-ir > /dev/null
cp ir.profraw "$here/corpus/seed-ir.profraw"
clang -O1 -fprofile-instr-generate -o seed-fe seed.c
LLVM_PROFILE_FILE=fe.profraw ./seed-fe > /dev/null
cp fe.profraw "$here/corpus/seed-fe.profraw"
# the text report reads: llvm-profdata show, nm; and a stash (tar) of the .gcda
llvm-profdata merge -o ir.profdata ir.profraw
llvm-profdata show --all-functions --counts ir.profdata > "$here/corpus/seed-show.txt"
gcc -O1 -c -o seed.o seed.c
nm -A --defined-only --format=posix ./seed.o > "$here/corpus/seed-nm.txt"
tar -cf "$here/corpus/seed-stash.tar" seed.gcda
# format version 10, if clang 19 is there
if command -v clang-19 > /dev/null; then
	clang-19 -O1 -fprofile-generate -o seed-19 seed.c
	LLVM_PROFILE_FILE=v10.profraw ./seed-19 > /dev/null
	cp v10.profraw "$here/corpus/seed-v10.profraw"
fi
ls -l "$here/corpus"
