# pgo-bench.mk - `make pgo-bench`: the PGO program against a plain one on a command.  pgo.mk
# includes it from beside itself (make install-profopt puts it there); it uses pgo.mk's names.
#
# Is the PGO program faster than a plain one on what its users run?  Training on a
# project's test suite alone can make it slower (error paths and corner cases weigh as much as
# the common path).  `make pgo-bench PGO_BENCH_COMMAND='./prog typical-input'` takes the
# program profile-opt left (running the pipeline when it has not finished) and a plain one,
# built from the same sources and configure arguments without the PGO flags, in a copy of
# this directory (in-tree builds: the build directory is the source tree) or a fresh build
# (out of tree) under PGO_BENCH_PLAIN_DIR, so that neither the PGO build nor its stamps
# change; the plain build is reused until the PGO build is newer.  `profopt compare` then
# runs the command in this directory and in the plain build's (so ./prog names each one's
# program), interleaved, and reports the time ratio with its interval and, where valgrind is
# installed, the instruction ratio and the functions that got more instructions, with advice
# on the training when the PGO program lost ($(PGO_DIR)/bench.txt, bench.json).
#   PGO_BENCH_COMMAND    the shell command to measure, run in each build's directory (required)
#   PGO_BENCH_ROUNDS     timed rounds of each build (default 10)
#   PGO_BENCH_ARGS       more options of profopt compare (--callgrind=no, --threshold=PERCENT, ...)
#   PGO_BENCH_PLAIN_DIR  where the plain build goes (default $(PGO_DIR)/bench-plain)
#   PGO_BENCH_CONFIGURE  the command configuring the plain build, run in its directory (default:
#                        configure of PGO_BENCH_SRCDIR, default $(srcdir), with the arguments
#                        of this directory's config.status)
#   PGO_BENCH_BUILD      the command building it after PGO_CLEAN (default PGO_BUILD_USE, run
#                        with the PGO variables empty: PGO_USE_CFLAGS, PGO_USE_LDFLAGS, BOLT's)
PGO_BENCH_COMMAND ?=
PGO_BENCH_ROUNDS ?= 10
PGO_BENCH_ARGS ?=
PGO_BENCH_PLAIN_DIR ?= $(pgo_abs_dir)/bench-plain
PGO_BENCH_SRCDIR ?= $(srcdir)
PGO_BENCH_BUILD ?= $(PGO_BUILD_USE)
pgo_bench_dir = $(abspath $(PGO_BENCH_PLAIN_DIR))
pgo_bench_tree = $(pgo_bench_dir)/tree
pgo_bench_stamp = $(pgo_bench_dir)/plain.stamp
pgo_bench_in_tree = $(filter $(CURDIR),$(abspath $(or $(PGO_BENCH_SRCDIR),.)))
PGO_BENCH_CONFIGURE ?= eval "$(call pgo_quote,$(if $(pgo_bench_in_tree),.,$(abspath $(PGO_BENCH_SRCDIR)))/configure) \
	$$($(call pgo_quote,$(CURDIR)/config.status) --config)"
# An in-tree build's copy leaves out the pipeline's directories (and git's).
pgo_bench_excludes = $(foreach d,$(pgo_abs_dir) $(pgo_bench_dir) $(CURDIR)/.git,$(if $(filter $(CURDIR)/%,$(d)),--exclude=./$(patsubst $(CURDIR)/%,%,$(d))))
pgo_bench_copy = $(if $(pgo_bench_in_tree),tar -C $(call pgo_quote,$(CURDIR)) $(pgo_bench_excludes) -cf - . | tar -C $(pgo_bench_tree) -xf - &&)
# The plain build's own make sees every PGO flag empty (command-line variables reach its sub-makes
# too) but the debug information's version AX_PGO chose, which callgrind reads.
pgo_bench_no_pgo = PGO_DIR=$(pgo_bench_dir)/pgo PGO_USE_CFLAGS="$(filter -fdebug-default-version=%,$(PGO_USE_CFLAGS))" \
	PGO_USE_LDFLAGS= PGO_BOLT_CFLAGS= PGO_BOLT_LDFLAGS= PGO_BOLT=no PGO_CS=no
pgo_bench_plain_cmds = $(pgo_bench_copy) cd $(pgo_bench_tree) && $(PGO_BENCH_CONFIGURE) && \
	$(MAKE) --no-print-directory pgo-bench-plain $(pgo_bench_no_pgo)
# The plain build's directory is removed before each build: never this directory or one above it.
pgo_bench_not_here = $(if $(filter $(pgo_bench_dir)/%,$(CURDIR)/),$(error pgo.mk: PGO_BENCH_PLAIN_DIR '$(PGO_BENCH_PLAIN_DIR)' \
	holds this build directory, which the plain build would remove: name a directory of its own))
pgo_bench_pgo_done = $(and $(wildcard $(call pgo_stamp,$(lastword $(pgo_stages)))),$(if $(pgo_use_stale),,yes))
.PHONY: pgo-bench pgo-bench-locked pgo-bench-plain
pgo-bench:
	@$(if $(pgo_enabled),,$(call pgo_not_enabled,pgo-bench))
	@$(pgo_check_paths)$(call pgo_check_path,PGO_BENCH_PLAIN_DIR)$(pgo_bench_not_here)$(if $(strip $(PGO_BENCH_COMMAND)),,echo "make pgo-bench: \
		PGO_BENCH_COMMAND is empty: give the command your users run, e.g. make pgo-bench PGO_BENCH_COMMAND='./prog input' \
		(it runs in this directory and in the plain build's)" >&2; exit 2)
	$(call pgo_locked,pgo-bench)
pgo-bench-locked:
	$(pgo_recurse)@$(if $(pgo_bench_pgo_done),echo "==> pgo-bench: the PGO build is finished: reusing it" >&2, \
		$(MAKE) --no-print-directory profile-opt)
	$(pgo_recurse)@if test -f $(pgo_bench_stamp) && test $(pgo_bench_stamp) -nt $(call pgo_stamp,use); then \
		echo "==> pgo-bench: the plain build in $(pgo_bench_tree) is newer than the PGO build: reusing it" >&2; \
	else rm -rf $(pgo_bench_dir) && mkdir -p $(pgo_bench_tree) && \
		$(PROFOPT) run --label="plain build (no PGO flags) in $(pgo_bench_tree)" --log=$(call pgo_log,bench-plain) \
			--stamp=$(pgo_bench_stamp) -- sh -c $(call pgo_quote,$(pgo_bench_plain_cmds)); fi
	@$(PROFOPT) compare --command=$(call pgo_quote,$(PGO_BENCH_COMMAND)) --rounds=$(PGO_BENCH_ROUNDS) \
		--json=$(pgo_abs_dir)/bench.json --table=$(pgo_abs_dir)/bench.txt $(PGO_BENCH_ARGS) plain=$(pgo_bench_tree) pgo=$(call pgo_quote,$(CURDIR))
# Run by the plain build's own make, in its directory.
pgo-bench-plain:
	@sh -c $(call pgo_quote,$(PGO_CLEAN)) && sh -c $(call pgo_quote,$(PGO_BENCH_BUILD))
