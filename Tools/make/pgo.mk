# pgo.mk - the profile-guided optimization pipeline as make targets.
#
# Pairs with the AX_PGO autoconf macro (m4/ax_pgo.m4).  Any GNU make project can include it:
# set the variables below, then `include $(srcdir)/pgo.mk` (from a Makefile.am: `include
# $(abs_top_srcdir)/pgo.mk`, a path automake hands to make instead of reading the file, whose
# GNU make functions and assignment order it would not keep), and `make profile-opt` runs
#
#   instrument -> train -> merge -> clean keeping profiles -> use -> verify
#
# and, when enabled, context-sensitive PGO (clang; PGO_CS=yes) between merge and clean:
#
#   merge -> cs-instrument -> cs-train -> cs-merge -> clean
#
# and a post-link layout stage with LLVM BOLT (PGO_BOLT=yes) after verify.
#
# Every stage leaves a stamp in $(PGO_DIR) (a one-line JSON record written atomically by
# profopt), so an interrupted pipeline resumes at the stage that did not finish, and a second
# `make profile-opt` with nothing changed does nothing.  One `make profile-opt` at a time runs
# in a build directory (a lock, $(PGO_DIR)/lock, names the holder to a second one, and to a
# clean or install started under it).  Sources edited after a finished build are rebuilt with
# the kept profile by the next `make profile-opt` (the use stage and those after it run again).
# A stage only looks at its predecessor while its own stamp is missing: `make
# clean-retain-profile` can therefore drop the build and keep the profile, and the next `make
# profile-opt` only rebuilds with it.  (The stamps of finished stages stay as the record of
# the run, even once the instrumented build is cleaned.)
#
# The convention is CPython's: in a tree configured with --enable-optimizations (PGO_ENABLED=yes),
# a plain `make` is `make profile-opt` (PGO_DEFAULT_GOAL; empty keeps the Makefile's own first
# target); in one configured without it, `make profile-opt` refuses and says why.
#
# `make clean` must drop the stamps of the build it removes, or the next profile-opt would say
# "ok" over a missing build: hook `pgo-clean-build` (the build's stamps; the profile is kept, so the
# next profile-opt rebuilds with it without training) and `pgo-clean` (the whole $(PGO_DIR)
# and GCC's .gcda files) into the project's clean and distclean, e.g. with automake
# `clean-local: pgo-clean-build` and `distclean-local: pgo-clean`.
#
# Set before including (those marked * are required):
#   PGO_ENABLED *        yes or no, from AX_PGO (pgo-config.mk): --enable-optimizations
#   PROFOPT *            the profopt driver (AX_PGO finds it)
#   PGO_CC_FAMILY *      gcc|clang|apple-clang, and from AX_PGO: PGO_CC_VERSION, PGO_GEN_CFLAGS, PGO_GEN_LDFLAGS,
#                        PGO_USE_CFLAGS, PGO_USE_LDFLAGS, LLVM_PROFDATA
#   PGO_BUILD_DIR *      where objects (and GCC's .gcda files) of the program live
#   PGO_BUILD_GEN *      command: build instrumented (use $(PGO_GEN_CFLAGS)/$(PGO_GEN_LDFLAGS))
#   PGO_BUILD_USE *      command: build with the profile (use $(PGO_USE_CFLAGS)/$(PGO_USE_LDFLAGS))
#   PGO_CLEAN *          command: remove build products (profiles are stashed around it)
#   PGO_TRAIN_ARGS *     what `profopt train` runs: --tasks=FILE [--each=TEMPLATE] or commands
#   PGO_DIR              stamps, logs and profiles (default: pgo)
#   PGO_DEFAULT_GOAL     what a plain `make` runs when PGO_ENABLED=yes (default profile-opt;
#                        empty: the Makefile's first target)
#   PGO_CONFIGURE        command run once before the first stage (default: none)
#   PGO_TRAIN_LIST       command run before training, e.g. to write the task file; it also
#                        proves that the instrumented program starts (default: none; a program
#                        of the target is started as $(PGO_RUNNER) ./prog)
#   PGO_JOBS             parallel training tasks (default: number of CPUs)
#   PGO_TRAIN_TIMEOUT    seconds per training task (default 1200)
#   PGO_TRAIN_WORK_DIR   the directory every training task runs in, whatever its workload
#                        (default: where make runs)
#   PGO_TRAIN_WRAPPER    command prefix for `profopt train`, e.g. `setarch -R` (no address
#                        randomization, inherited by every task: reproducible counts)
#   PGO_RUNNER           from AX_PGO: the command that runs the target's programs
#                        when this machine cannot (a cross build: qemu-aarch64 -L /usr/aarch64-
#                        linux-gnu, an ssh wrapper, a script; empty: they run directly).  Training
#                        starts every task's command through it (see "Cross builds" below), and
#                        pgo.mk exports it to every command it runs: the project's own commands
#                        write $(PGO_RUNNER) ./prog (PGO_TRAIN_LIST), and a task in shell syntax
#                        starts a target program after its first word as $PGO_RUNNER ./prog
#   PGO_RUNNER_EMULATED  from AX_PGO: yes when PGO_RUNNER is qemu-user, whose programs pgo.mk
#                        makes follow exec (Cross builds, below; default: yes when the runner's
#                        first word is qemu-*)
#   PGO_TRAIN_TIMEOUT_SCALE  from AX_PGO: the factor of PGO_TRAIN_TIMEOUT for training and
#                        PGO_TRAIN_CMD (default 1; AX_PGO says 10 where the programs are
#                        emulated); the training says the timeout it uses and why
#   PGO_TRAIN_CMD        (set by pgo.mk) `profopt train` as the training runs it (PGO_JOBS,
#                        the scaled timeout, PGO_MIN_RAN, the runner), for the project's own runs
#                        of its tasks, e.g. in PGO_VERIFY_RUN
#   PGO_STAMP            (set by pgo.mk) $(call PGO_STAMP,STAGE): the stamp file of a stage
#   PGO_STAMPS           (set by pgo.mk) the stamps of the stages this configuration runs, in order
#   PGO_REPORT_ARGS      (set by pgo.mk) the options by which `profopt report` reads the profile
#   PGO_EXPORTED_PROFILE (set by pgo.mk) the file that carries the profile (clang's merged
#                        profile, GCC's .gcda archive): what profile-export bundles
#   PGO_NM, PGO_READELF  from AX_PGO: the target's nm and readelf for verify and report (a cross
#                        GCC's; empty: the driver's defaults)
#   PGO_TARGET           from AX_PGO: the machine the compiler builds for, recorded by the default
#                        PGO_MANIFEST_CMD (a profile for another machine is refused on import)
#   PGO_LLVM_PROFILE_PATTERN  clang: raw profile file names in the raw directory; {} is the
#                        task's name (default {}-%m.profraw: files per task, reproducible)
#   PGO_MIN_RAN          share of training tasks that must run to the end (default 90%)
#   PGO_VERIFY_REQUIRE   objects (relative to PGO_BUILD_DIR) that must get profile data
#   PGO_DISPATCH_FUNCTION  an interpreter's eval loop (e.g. _PyEval_EvalFrameDefault): verify
#                        refuses the program when it keeps less than PGO_DISPATCH_MIN percent
#                        (default 90; 0: any) of the indirect jumps (the computed gotos) a
#                        reference compile of its source has (profopt dispatch), and says both
#                        counts; PGO_DISPATCH_HANDLERS instead: the name prefix of a tail-calling
#                        interpreter's opcode handlers, whose indirect tail jumps are counted
#   PGO_DISPATCH_BINARY  the program holding it (relative to PGO_BUILD_DIR); when it is
#                        PGO_BOLT_BINARY, BOLT's rewrite must pass the same check
#   PGO_DISPATCH_REFERENCE  command that compiles the loop's source into $(PGO_DISPATCH_REF)
#                        (set by pgo.mk) as the build compiles it, but at -O3 and with AX_PGO's
#                        $(PGO_DISPATCH_REF_CFLAGS) instead of the profile and LTO flags
#   PGO_OBJDUMP          the target's objdump, for the dispatch check (default: objdump)
#   PGO_VERIFY_RUN       command the optimized program must pass at the verify stage, e.g.
#                        the training's tasks run on it by $(PGO_TRAIN_CMD) (default: none): a miscompiled
#                        program crashes where its instrumented build ran; pass it
#                        $(PGO_CRASHED_IN_TRAINING) (with --no-crash) to excuse tasks that
#                        crashed in training, or $(PGO_FAILED_IN_TRAINING) (with --all-pass)
#                        to require every task that passed in training to pass again
#   PGO_HEARTBEAT        seconds between progress lines off a terminal (default 30)
#   PGO_BUILD_VERBOSE    make variables the logged builds (instrumented, profile-use) get, so
#                        that they print their commands for verify (default V=1: automake's
#                        silent rules); their make also prints its directories (-w)
#   PGO_SUMMARY_NOTES    files (those that exist) printed after profile-opt's summary, e.g.
#                        a compiler cache's hit rate per stage
#   PGO_LAUNCHER, PGO_DISTCC_HOSTS  from AX_PGO (--with-distcc[=HOSTS], --with-icecc): the
#                        distributed compiler, and distcc's workers (exported as DISTCC_HOSTS
#                        when given); see "Distributed compiles" below
#   PGO_THIN_LAUNCHER, PGO_THINLTO_WORKERS  from AX_PGO (--with-thinlto-workers[=CMDS]): the
#                        launcher before $(CC) that splits a -flto=thin link in the use stage,
#                        and the workers of its backends; see "ThinLTO's backends" below
#   PGO_PROFILE_STORE    clang: the directory that holds the merged profile under its content's
#                        name for the use stage, at the same path on every distcc worker
#                        (default: $(PGO_DIR); a directory every worker shares, or one that
#                        PGO_DISTRIBUTE_CMD fills)
#   PGO_DISTRIBUTE_CMD   clang: command run before the use stage that copies $$PGO_PROFILE_FILE
#                        to the same path on each worker, e.g. for h in w1 w2; do ssh $$h mkdir
#                        -p $$PGO_PROFILE_STORE && scp $$PGO_PROFILE_FILE $$h:$$PGO_PROFILE_FILE;
#                        done (default: none, the store is shared)
#   PGO_WORKLOADS        training workloads, merged with weights: "NAME[:WEIGHT] ..." (weight
#                        default 1); the tasks of workload NAME are PGO_TRAIN_ARGS_NAME (train
#                        arguments, like PGO_TRAIN_ARGS, which a workload named main defaults to).
#                        Empty: the one workload PGO_TRAIN_ARGS.  All train in one `profopt train`
#   PGO_SOURCE_ROOT      source tree fingerprinted at training (unset: the files the instrumented
#                        build compiled, for verify's word on clang's hash mismatches); the
#                        profile-use build stops if more than PGO_MAX_CHANGED files (N or P%,
#                        default 0) changed since.
#                        After the profile-use build, this tree (or, when unset, the files
#                        its compiles read: sources and the headers beside them and in their
#                        -I directories) is fingerprinted, so that sources edited later are
#                        rebuilt with the kept profile by the next profile-opt
#   PGO_LOCKED_GOALS     goals that refuse while a pipeline holds the lock (default: clean,
#                        distclean, mostlyclean, maintainer-clean, pgo-clean, pgo-clean-build,
#                        install, install-%, uninstall; add the project's goals that build, run
#                        or test the program); pgo.mk's goals that train or build take the lock
#   PGO_MANIFEST_CMD     command printing KEY=VALUE lines that identify what a profile fits
#                        (sources, compiler, flags): recorded by profile-export, compared on import
#   PGO_PROFILE          a bundle written by `make profile-export`: skip the instrumented build,
#                        training and merge, and rebuild with it (refused if the manifest differs
#                        from this build's, unless PGO_PROFILE_FORCE=1)
#   PGO_PROFILE_TARGET   the machine PGO_PROFILE was trained for, when it is not PGO_TARGET: with
#                        clang, a profile trained natively on the same source serves a cross
#                        build, no emulator needed; verify then says which units it covered
#   PGO_RELOCATE_ROOT    an absolute directory (or shell text printing one) that appears inside object paths (GCC writes
#                        .gcda files beside objects): recorded by profile-export, and on import
#                        the profile's files under the exporter's directory move under this one
#   PGO_CS, PGO_BUILD_CSGEN   context-sensitive PGO (clang, from AX_PGO --enable-pgo-cs): the
#                        command building with $(PGO_CSGEN_CFLAGS)/$(PGO_CSGEN_LDFLAGS)
#   PGO_BOLT, LLVM_BOLT, MERGE_FDATA   BOLT (from AX_PGO --enable-bolt); the profile-use build
#                        must link with $(PGO_BOLT_LDFLAGS).  PGO_BOLT_BINARY (relative to
#                        PGO_BUILD_DIR) is instrumented, trained with PGO_BOLT_TRAIN_ARGS_NAME
#                        for each workload NAME, and rewritten; PGO_BOLT_SKIP lists functions
#                        BOLT must leave alone (comma-separated regular expressions, each
#                        matching a whole name), PGO_BOLT_FLAGS its options (PGO_BOLT_ICF,
#                        from AX_PGO, its function folding: never -icf=1, see below),
#                        PGO_BOLT_CHECK a command the rewritten binary ($(PGO_BOLT_NEW)) must pass
#   PGO_BENCH_*          `make pgo-bench`, the PGO program against a plain one on a command:
#                        see its block at the end

# Cross builds.  The programs a cross build makes run on the target, not here: AX_PGO finds
# how (PGO_RUNNER: qemu-user for the target by default, or --with-pgo-runner=CMD; empty where
# this machine runs them itself, natively or by binfmt_misc emulation).  The pipeline owns it,
# so that no project rewrites its task lists for it: every `profopt train` pgo.mk runs
# (training, PGO_TRAIN_CMD) starts each task's command through target-run, a launcher pgo.mk
# writes into $(PGO_DIR): the lines of a --tasks list (a copy with the launcher before each
# command; names kept), --each's template and the command arguments.  target-run hands a
# program this machine cannot run (an ELF program of another machine, a Windows one...) to
# $(PGO_RUNNER) and runs the others (sh -c ..., a script, a tool of this machine) as they are;
# the shell code of a task reaches the runner with its first word only, and starts a target
# program later in it as $PGO_RUNNER ./prog (exported; empty natively), as the fixture's task
# "fails" does.  The counts come back as natively: the emulated program writes the files its
# environment names (LLVM_PROFILE_FILE, GCOV_PREFIX) on this machine; a runner on another
# machine must pass that environment on and share the build directory at the same path.
# Clang's raw-profile check (profopt check-raw) runs its test program through the runner;
# verify reads the target's objects with PGO_NM and PGO_READELF.  Under qemu-user
# (PGO_RUNNER_EMULATED=yes) a program that starts another program of the target (fork and exec
# of sys.executable) hands it to this machine's kernel, which cannot run it: pgo.mk builds
# qemu-exec.c (installed beside it) with $(CC) into $(PGO_DIR)/qemu-exec.so and adds
# -E LD_PRELOAD=$(PGO_DIR)/qemu-exec.so to PGO_RUNNER, so that such an exec goes through the
# emulator again (PROFOPT_QEMU_EXEC, exported: the runner as configured); other runners are
# used as they are.  PGO_RUNNER and PGO_RUNNER_EMULATED are set before pgo.mk is included.
pgo_mk_file := $(lastword $(MAKEFILE_LIST))
# AX_PGO's settings, written by config.status beside the Makefile (top_builddir's, with automake).
-include $(or $(top_builddir),.)/pgo-config.mk
PGO_RUNNER ?=
export PGO_RUNNER
PGO_RUNNER_EMULATED ?= $(if $(filter qemu-%,$(notdir $(firstword $(PGO_RUNNER)))),yes,no)
PGO_TRAIN_TIMEOUT_SCALE ?= 1
PGO_NM ?=
PGO_READELF ?=

PGO_DIR ?= pgo
PGO_ENABLED ?=
PGO_DEFAULT_GOAL ?= profile-opt
pgo_enabled = $(filter yes,$(PGO_ENABLED))
# CPython's convention: after --enable-optimizations, `make` alone builds with PGO.
$(if $(and $(pgo_enabled),$(PGO_DEFAULT_GOAL)),$(eval .DEFAULT_GOAL := $(PGO_DEFAULT_GOAL)))
pgo_off_why = this tree was configured without --enable-optimizations, so there is no PGO build to run: \
	run ./configure --enable-optimizations (a plain make then builds with PGO)
pgo_unset_why = PGO_ENABLED is not set: pgo.mk reads it from pgo-config.mk, which AX_PGO's configure writes beside the Makefile
pgo_not_enabled = echo "make $(1): $(if $(PGO_ENABLED),$(pgo_off_why),$(pgo_unset_why))" >&2; exit 2
PGO_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PGO_TRAIN_TIMEOUT ?= 1200
PGO_MIN_RAN ?= 90%
PGO_HEARTBEAT ?= 30
PGO_SUMMARY_NOTES ?=
PGO_CONFIGURE ?= true
PGO_TRAIN_LIST ?= true
PGO_VERIFY_RUN ?=
# For PGO_VERIFY_RUN's `profopt train --no-crash`: the training's results, so that a task that
# crashed in training too is excused (the program's tests, not the optimization, crash there).
PGO_CRASHED_IN_TRAINING = $(foreach f,$(wildcard $(pgo_abs_dir)/train-results*.json),--crashed-before=$(f))
PGO_FAILED_IN_TRAINING = $(foreach f,$(wildcard $(pgo_abs_dir)/train-results*.json),--failed-before=$(f))

pgo_abs_dir := $(abspath $(PGO_DIR))
# automake moves ':=' assignments above the '?=' defaults when it reads a fragment itself.
pgo_misread = $(if $(pgo_abs_dir),,$(error pgo.mk: PGO_DIR is empty (was pgo.mk read by automake? include it as $$(abs_top_srcdir)/pgo.mk, which automake leaves to make)))
# Paths the recipes hand to the shell are refused, naming the character, before any pipeline
# target runs, when they (or a workload name: file and log names, JSON text) hold what make
# or the shell would read as syntax (configure refuses the same in the build
# and source directories): a path never becomes code.
# $(1) as one single-quoted shell word, whatever it holds: the one way make text that came
# from a user or a file enters a recipe's shell.
pgo_quote = '$(subst ','\'',$(1))'
pgo_lp := (
pgo_rp := )
pgo_hash := \#
pgo_syntax_chars = ' " ` ; & | < > $(pgo_lp) $(pgo_rp) * ? [ ] \ % : $(pgo_hash)
pgo_syntax_in = $(firstword $(foreach c,$(pgo_syntax_chars),$(if $(findstring $(c),$(1)),$(c))))
pgo_check_path = $(if $(findstring $$,$($(1))),$(error pgo.mk: $(1) holds '$$': a path for the PGO pipeline \
	cannot contain shell or make syntax)) \
	$(if $(word 2,x$($(1))x),$(error pgo.mk: $(1) '$($(1))' contains white space, which make splits file names at: \
	use a path without it)) \
	$(if $(call pgo_syntax_in,$($(1))),$(error pgo.mk: $(1) '$($(1))' contains '$(call pgo_syntax_in,$($(1)))', \
	which make or the shell running its recipes reads as syntax: use a path of letters, digits, / . _ - + = @ ~ ^ ! { }))
# What make itself cannot parse in a target's name is refused as soon as pgo.mk is read.
pgo_parse_chars = ; : % $(pgo_hash)
$(foreach v,PGO_DIR PGO_BUILD_DIR PGO_RAW_DIR PGO_PROFDATA,$(foreach c,$(pgo_parse_chars),$(if $(findstring $(c),$($(v))),\
	$(error pgo.mk: $(v) '$($(v))' contains '$(c)', which make reads as syntax in a file name: use a path of letters, digits, / . _ - + = @ ~ ^ ! { }))))
# Every variable that names a file, a directory or a tool (clang's content-named profile and
# its store, the fingerprinted tree, BOLT's binary, the target's nm...), and those that list files.
pgo_path_vars = PGO_DIR PGO_BUILD_DIR PGO_RAW_DIR PGO_PROFDATA PGO_PROFILE PGO_EXPORT PGO_CS_RAW_DIR \
	PGO_PROFILE_STORE PGO_USE_PROFDATA PGO_SOURCE_ROOT PGO_BOLT_BINARY PGO_BENCH_SRCDIR \
	PROFOPT PGO_NM PGO_READELF LLVM_PROFDATA LLVM_BOLT MERGE_FDATA
pgo_path_list_vars = PGO_VERIFY_REQUIRE PGO_SUMMARY_NOTES
pgo_check_list = $(foreach w,$($(1)),$(if $(findstring $$,$(w))$(call pgo_syntax_in,$(w)),$(error pgo.mk: $(1) holds \
	'$(w)', with '$(or $(findstring $$,$(w)),$(call pgo_syntax_in,$(w)))', which make or the shell running its recipes reads as syntax: \
	use names of letters, digits, / . _ - + = @ ~ ^ ! { })))
pgo_check_paths = $(pgo_misread)$(foreach v,$(pgo_path_vars),$(call pgo_check_path,$(v)))\
	$(foreach v,$(pgo_path_list_vars),$(call pgo_check_list,$(v)))\
	$(foreach w,$(foreach x,$(PGO_WORKLOADS),$(word 1,$(subst :, ,$(x)))),$(if $(or $(call pgo_syntax_in,$(w)),$(findstring /,$(w))),\
	$(error pgo.mk: the workload '$(w)' holds '$(or $(call pgo_syntax_in,$(w)),/)': a workload is NAME:WEIGHT, NAME of letters, digits, . _ -)))
PGO_PROFDATA ?= $(pgo_abs_dir)/merged.profdata
PGO_RAW_DIR ?= $(pgo_abs_dir)/raw
pgo_stash := $(pgo_abs_dir)/profiles.tar
PGO_CS ?= no
PGO_BOLT ?= no
pgo_cs_on = $(and $(filter yes,$(PGO_CS)),$(if $(strip $(PGO_PROFILE)),,yes))
pgo_bolt_on = $(filter yes,$(PGO_BOLT))
pgo_all_stages := configure instrument train merge cs-instrument cs-train cs-merge clean use verify bolt
pgo_stages := configure $(if $(strip $(PGO_PROFILE)),,instrument train) merge \
	$(if $(pgo_cs_on),cs-instrument cs-train cs-merge) clean use verify $(if $(pgo_bolt_on),bolt)
pgo_stamp = $(pgo_abs_dir)/$(1).stamp
pgo_log = $(pgo_abs_dir)/logs/$(1).log
# The stages listed in $(2) before / after stage $(1).
pgo_before = $(if $(2),$(if $(filter $(1),$(firstword $(2))),,$(firstword $(2)) $(call pgo_before,$(1),$(wordlist 2,$(words $(2)),$(2)))))
pgo_rest = $(if $(2),$(if $(filter $(1),$(firstword $(2))),$(wordlist 2,$(words $(2)),$(2)),$(call pgo_rest,$(1),$(wordlist 2,$(words $(2)),$(2)))))
# A stage's predecessor is a prerequisite only while the stage's own stamp is missing, or
# while the stage must run again because sources changed since the profile-use build.
pgo_after = $(if $(and $(wildcard $(call pgo_stamp,$(1))),$(if $(filter $(1),$(pgo_redo)),,x)),,$(call pgo_stamp,$(lastword $(call pgo_before,$(1),$(pgo_stages)))))
# The profile-use build records the sources it built (use-sources.fp); if they differ now (or
# it left no record), it runs again with the kept profile, and so does every later stage.
pgo_use_fp = $(pgo_abs_dir)/use-sources.fp
pgo_use_stale := $(if $(wildcard $(pgo_abs_dir)/use.stamp),$(shell test -f $(pgo_use_fp) && \
	$(PROFOPT) check --against=$(pgo_use_fp) --max-changed=0 >/dev/null 2>&1 || echo stale))
pgo_redo = $(if $(pgo_use_stale),use $(call pgo_rest,use,$(pgo_stages)))
# A rebuild of edited sources compiles only those: its log goes after the earlier one, so
# verify still finds every object's compile command (the last one of an object counts).
pgo_use_log = $(call pgo_log,use)
# What the profile-use build compiled: the PGO_SOURCE_ROOT tree, or else the sources of the
# compiles in its log and the headers beside them (with the earlier record's files when it
# compiled only what changed).
pgo_record_use_sources = $(PROFOPT) check --write-fingerprint=$(pgo_use_fp) $(if $(PGO_SOURCE_ROOT),--source-dir=$(PGO_SOURCE_ROOT), \
	--build-log=$(pgo_use_log) --build-dir=$(PGO_BUILD_DIR) $(pgo_skip) $$(test ! -f $(pgo_use_fp).before || echo --add-files-of=$(pgo_use_fp).before))
# Starting a stage invalidates every later one.
pgo_rm_later = rm -f $(foreach s,$(call pgo_rest,$(1),$(pgo_all_stages)),$(call pgo_stamp,$(s)))
# $(1): banner label, $(2): stage (log and stamp name), $(3): more options of profopt run
# (--since=FILE: a stage of several commands, its stamp counting from the first).
pgo_run = $(PROFOPT) run --heartbeat=$(PGO_HEARTBEAT) --label="$(1)" --log=$(call pgo_log,$(2)) --stamp=$(call pgo_stamp,$(2)) --units=$(PGO_DIR)/units.count $(3) --
# Clang's runtime writes raw profiles where LLVM_PROFILE_FILE says.  profopt train puts each
# task's name in place of {}, so every task writes its own files (%m: one per instrumented
# binary or library), named the same in every training, so two trainings give identical
# profiles: a pool shared by all tasks merges processes in the order they end, and the runtime
# keeps only a few indirect-call targets per call site.
PGO_LLVM_PROFILE_PATTERN ?= {}-%m.profraw
# The merged profile's SHA-256, written by profopt merge, compared before the rebuild.
pgo_seal = $(PGO_PROFDATA).sha256
pgo_manifest = $(pgo_abs_dir)/manifest.kv
PGO_TARGET ?=
PGO_MANIFEST_CMD ?= echo compiler=$(PGO_CC_FAMILY) $(PGO_CC_VERSION); $(if $(PGO_TARGET),echo target=$(PGO_TARGET);) \
	echo generate_flags=$(PGO_GEN_CFLAGS)
PGO_PROFILE ?=
PGO_PROFILE_FORCE ?=
PGO_PROFILE_TARGET ?=
PGO_SOURCE_ROOT ?=
PGO_MAX_CHANGED ?= 0
pgo_fingerprint = $(pgo_abs_dir)/sources.fp
# The pipeline's own directory may sit inside the build directory: its raw profiles are not
# the build's.
pgo_skip = --skip=$(notdir $(pgo_abs_dir))
PGO_STAMP = $(call pgo_stamp,$(1))
PGO_STAMPS = $(foreach s,$(pgo_stages),$(call pgo_stamp,$(s)))

# The compiler family's differences, set once: configure decided the family, the driver's
# commands (given --family) do the family's work, and these say where its profile is.  GCC
# keeps its profile in the build tree (.gcda files beside the objects, archived around a
# clean); clang's is one merged file, which the use stage's compiles read and the checks read
# with llvm-profdata.  Each variable has its two values, NAME_intree and NAME_merged, of which
# pgo_kind chooses one.  (Plain variables, no define: automake reads this file too.)
#   PGO_EXPORTED_PROFILE  what profile-export and import carry
#   pgo_profile_read      how merge --check-only and report read the profile
#   pgo_merged_profile    the merged profile, for verify
#   pgo_merge_inputs      merge's inputs, $(1) the training's raw directory
#   pgo_stash_save, pgo_stash_restore  the build tree's profile around a clean
#   pgo_raw_check         before training: can the tools read what the runtime writes?
#   pgo_place_profile     the merged profile where the use stage's compiles read it
#   pgo_repro_file, pgo_repro_save  a copy of the profile for pgo-repro-check ($(1): its name)
pgo_kind = $(if $(filter gcc,$(PGO_CC_FAMILY)),intree,merged)
PGO_EXPORTED_PROFILE = $(PGO_EXPORTED_PROFILE_$(pgo_kind))
PGO_EXPORTED_PROFILE_intree = $(pgo_stash)
PGO_EXPORTED_PROFILE_merged = $(PGO_PROFDATA)
pgo_profile_read = $(pgo_profile_read_$(pgo_kind))
pgo_profile_read_intree = --profile-dir=$(PGO_BUILD_DIR) $(pgo_skip)
pgo_profile_read_merged = $(pgo_merged_profile)
PGO_REPORT_ARGS = --family=$(PGO_CC_FAMILY) $(pgo_profile_read) $(pgo_report_nm_$(pgo_kind))
pgo_report_nm_intree = $(if $(PGO_NM),--nm=$(PGO_NM))
pgo_report_nm_merged =
pgo_merged_profile = $(pgo_merged_profile_$(pgo_kind))
pgo_merged_profile_intree =
pgo_merged_profile_merged = --profdata=$(PGO_PROFDATA) --tool=$(LLVM_PROFDATA)
pgo_merge_inputs = $(call pgo_merge_inputs_$(pgo_kind),$(1))
pgo_merge_inputs_intree = --profile-dir=$(PGO_BUILD_DIR) --from=$(1)
pgo_merge_inputs_merged = --profile-dir=$(1) --tool=$(LLVM_PROFDATA) \
	$(foreach w,$(pgo_workloads),--weighted=$(1)/$(call pgo_wname,$(w)):$(call pgo_wweight,$(w)))
pgo_stash_save = $(pgo_stash_save_$(pgo_kind))
pgo_stash_save_intree = test -f $(pgo_stash) || $(PROFOPT) stash save $(pgo_skip) --build-dir=$(PGO_BUILD_DIR) --archive=$(pgo_stash)
pgo_stash_save_merged = true
pgo_stash_restore = $(pgo_stash_restore_$(pgo_kind))
pgo_stash_restore_intree = $(PROFOPT) stash restore $(pgo_skip) --build-dir=$(PGO_BUILD_DIR) --archive=$(pgo_stash)
pgo_stash_restore_merged = true
pgo_raw_check = $(pgo_raw_check_$(pgo_kind))
pgo_raw_check_intree = true
pgo_raw_check_merged = $(if $(pgo_runner_on),$(pgo_check_raw_runner),$(PROFOPT) check-raw --cc="$(CC)" --tool=$(LLVM_PROFDATA) >&2)
pgo_place_profile = $(pgo_place_profile_$(pgo_kind))
pgo_place_profile_intree = true
pgo_place_profile_merged = $(pgo_distribute)
pgo_repro_file = $(pgo_repro_dir)/$(1).$(pgo_repro_ext_$(pgo_kind))
pgo_repro_ext_intree = tar
pgo_repro_ext_merged = profdata
pgo_repro_save = $(call pgo_repro_save_$(pgo_kind),$(1))
pgo_repro_save_intree = rm -f $(call pgo_repro_file,$(1)) && $(PROFOPT) stash save $(pgo_skip) --build-dir=$(PGO_BUILD_DIR) --archive=$(call pgo_repro_file,$(1))
pgo_repro_save_merged = cp $(PGO_PROFDATA) $(call pgo_repro_file,$(1))

# Workloads: PGO_WORKLOADS, NAME[:WEIGHT] each, all trained by one `profopt train` (which runs
# a GCC workload of weight W W times, libgcov adding the counts into the same .gcda files:
# gcov-tool 12 cannot merge CPython's profiles, it dies with "internal compiler error: in
# __gcov_topn_counter_op" on the indirect-call counters; clang's workloads each write under
# RAW/NAME, merged by llvm-profdata with the weights).
PGO_WORKLOADS ?=
PGO_TRAIN_ARGS_main ?= $(PGO_TRAIN_ARGS)
pgo_workloads = $(strip $(PGO_WORKLOADS))
pgo_wname = $(word 1,$(subst :, ,$(1)))
pgo_wweight = $(or $(word 2,$(subst :, ,$(1))),1)
# A stage's tasks, $(1) the prefix of each workload's arguments' variable (PGO_TRAIN_ARGS_,
# PGO_BOLT_TRAIN_ARGS_) and $(2) the arguments of the one workload when there are none.
pgo_tasks = $(if $(pgo_workloads),$(foreach w,$(pgo_workloads),--workload=$(w) $($(1)$(call pgo_wname,$(w)))),$(2))
PGO_TRAIN_WRAPPER ?=
# The runner (Cross builds, above): every task's command starts through target-run; the
# timeout scaled by PGO_TRAIN_TIMEOUT_SCALE (at most profopt's limit, a week), and said
# before the training.
pgo_runner_on = $(strip $(PGO_RUNNER))
pgo_launcher = $(pgo_abs_dir)/target-run
pgo_runner_dep = $(if $(pgo_runner_on),| $(pgo_launcher) $(if $(pgo_exec_shim_on),$(pgo_exec_shim)))
# The exec shim of a qemu-user runner (Cross builds, above), built before any stage runs the
# target's programs; the runner said is the one configured.
pgo_exec_shim_src := $(dir $(pgo_mk_file))qemu-exec.c
pgo_exec_shim := $(pgo_abs_dir)/qemu-exec.so
# (without the preload: a PGO_RUNNER that holds it, e.g. from make's environment recorded by a
# configure --recheck that make ran, is the same runner)
pgo_runner_given := $(strip $(subst -E LD_PRELOAD=$(pgo_exec_shim),,$(PGO_RUNNER)))
pgo_exec_shim_on := $(and $(filter yes,$(PGO_RUNNER_EMULATED)),$(strip $(PGO_RUNNER)))
pgo_comma := ,
$(if $(and $(pgo_exec_shim_on),$(findstring $(pgo_comma),$(pgo_exec_shim))),$(error pgo.mk: PGO_DIR '$(PGO_DIR)' holds a comma, \
	which qemu's -E LD_PRELOAD=$(pgo_exec_shim) would split at: use a path without it))
$(if $(pgo_exec_shim_on),\
	$(eval override PGO_RUNNER := $$(pgo_runner_given) -E LD_PRELOAD=$$(pgo_exec_shim))$(eval export PROFOPT_QEMU_EXEC := $$(pgo_runner_given)))
$(call pgo_stamp,instrument): $(pgo_runner_dep)
$(pgo_exec_shim): $(wildcard $(pgo_exec_shim_src))
	@test -f $(pgo_exec_shim_src) || { echo "pgo.mk: $(pgo_exec_shim_src) is missing: it must sit beside pgo.mk (make install-profopt puts it there), \
		so that programs under qemu-user can start the target's programs" >&2; exit 1; }
	@mkdir -p $(pgo_abs_dir)/logs && $(CC) -shared -fPIC -O2 -o $@.tmp $(pgo_exec_shim_src) -ldl > $(call pgo_log,qemu-exec) 2>&1 || \
		{ cat $(call pgo_log,qemu-exec) >&2; echo "pgo.mk: $(CC) did not build the exec shim $@ from $(pgo_exec_shim_src) (above): \
		programs under qemu-user could not start the target's programs" >&2; exit 1; }
	@mv -f $@.tmp $@
pgo_timeout_scale = $(or $(strip $(PGO_TRAIN_TIMEOUT_SCALE)),1)
pgo_scaled = $(filter-out 1,$(pgo_timeout_scale))
pgo_train_timeout = $(if $(pgo_scaled),$(shell awk 'BEGIN { t = ($(PGO_TRAIN_TIMEOUT)) * ($(pgo_timeout_scale)); \
	if (t > 604800) t = 604800; printf "%.10g", t }'),$(PGO_TRAIN_TIMEOUT))
pgo_timeout_why = $(if $(pgo_scaled),(PGO_TRAIN_TIMEOUT $(PGO_TRAIN_TIMEOUT) s x PGO_TRAIN_TIMEOUT_SCALE $(pgo_timeout_scale): \
	emulated programs run slower),(not scaled: PGO_TRAIN_TIMEOUT_SCALE=N scales it for a slow runner))
pgo_runner_said = $(if $(or $(pgo_runner_on),$(pgo_scaled)),echo $(call pgo_quote,train: $(if $(pgo_runner_on),the target's \
	programs run through $(pgo_runner_given)$(if $(pgo_exec_shim_on), (following exec: $(PGO_DIR)/qemu-exec.so)); )timeout $(pgo_train_timeout) s per task $(pgo_timeout_why)) >&2 &&)
# --stop-with-parent: make, killed by SIGTERM, kills the recipe's shell, which does not pass it on.
PGO_TRAIN_CMD = $(PGO_TRAIN_WRAPPER) $(PROFOPT) train -j $(PGO_JOBS) --timeout=$(pgo_train_timeout) --min-ran=$(PGO_MIN_RAN) \
	--heartbeat=$(PGO_HEARTBEAT) --stop-with-parent $(if $(pgo_runner_on),--launcher=$(pgo_launcher)) \
	$(if $(strip $(PGO_TRAIN_WORK_DIR)),--work-dir=$(call pgo_quote,$(PGO_TRAIN_WORK_DIR)))
# target-run, the launcher (Cross builds, above), written from this text whenever pgo.mk changes.
define pgo_launcher_text
#!/bin/sh
# target-run, written by pgo.mk for a cross build's PGO pipeline: runs a program this machine
# cannot (any file but a script, #!, and an ELF program of /bin/sh's machine) through
# $$PGO_RUNNER, and any other program as it is.
#   target-run [NAME=VALUE...] PROGRAM [ARG...]
# (profopt train --launcher=target-run starts every task's command so; a task in shell syntax
# reaches it with its first word.)
sig() { od -An -tx1 -N20 "$$1" 2>/dev/null | tr -d ' \n' | cut -c1-12,37-40; }
while test $$# -gt 0; do
	case $${1%%=*} in "$$1"|''|[0-9]*|*[!A-Za-z0-9_]*) break ;; esac
	export "$$1"; shift
done
p=$${1-}
case $$p in */*) ;; *) p=$$(command -v "$$p" 2>/dev/null) || p= ;; esac
if test -n "$$p" && test -f "$$p"; then
	case $$(sig "$$p") in ''|2321*|"$$(sig /bin/sh)") ;; *) eval "exec $$PGO_RUNNER \"\$$@\"" ;; esac
fi
exec "$$@"
endef
define pgo_nl


endef
$(pgo_launcher): $(pgo_mk_file)
	@mkdir -p $(pgo_abs_dir) && printf '%s\n' '$(subst $(pgo_nl),' ',$(subst ','\'',$(pgo_launcher_text)))' > $@.tmp && \
		chmod +x $@.tmp && mv -f $@.tmp $@

# The training of stage $(1) (train or cs-train) into the run's fresh directory, which
# replaces $(2) only once the run succeeded, with the stage's stamp (written by profopt train
# as $$run.stamp).  Earlier runs' directories are removed first.  A stray process of an
# earlier run (a task left running by a kill -9 of make) writes into its own run's directory,
# never into the profile in use: training always starts from zero counts.  Such a process may
# be writing into its directory while it is removed (rm then fails, "Directory not empty"):
# the directory is left, said, and never read, since only this run's directory is merged.
pgo_train_cmds = $(pgo_runner_said) { rm -rf $(pgo_abs_dir)/run.* 2> /dev/null || echo "==> an earlier run's directory is still being written (a task of a killed run?), left as it is: $$(ls -d $(pgo_abs_dir)/run.*)" >&2; } && \
	run=$$(mktemp -d $(pgo_abs_dir)/run.XXXXXX) && echo "==> $(3)$(if $(pgo_workloads), (workloads $(pgo_workloads)))" >&2 && \
	$(PGO_TRAIN_CMD) --family=$(PGO_CC_FAMILY) --raw-dir=$$run --profile-pattern=$(call pgo_quote,$(PGO_LLVM_PROFILE_PATTERN)) \
		--log-dir=$(pgo_abs_dir)/logs/$(1) --results=$(pgo_abs_dir)/$(1)-results.json --stamp=$$run.stamp --stage=$(1) \
		$(call pgo_tasks,PGO_TRAIN_ARGS_,$(PGO_TRAIN_ARGS)) && \
	rm -rf $(2) && mv $$run $(2) && mv $$run.stamp $(call pgo_stamp,$(1))



# Distributed compiles: AX_PGO's --with-distcc[=HOSTS] or --with-icecc (PGO_LAUNCHER, the
# command before $(CC)), or a CC that starts with distcc.  distcc's trace of each compile stage
# goes to $(PGO_DIR)/distcc-STAGE.log (DISTCC_LOG, no longer to the stage's log), and when the
# stage succeeds one line says how many compiles ran on the workers and how many here, and why
# (distcc's own words: it keeps every -fprofile-generate and -fprofile-use compile here, falls
# back here when no worker answers or a compile failed on one), in distcc-STAGE.txt, printed
# after profile-opt's summary.  Clang's use stage names the merged profile by its content
# (PGO_USE_PROFDATA: merged-SHA256.profdata in PGO_PROFILE_STORE), because a worker's compiler
# reads it at that absolute path on the worker: a stale file can never sit under the name a
# compile asks for, and a worker without it fails the compile (clang stops on a missing profile).
PGO_LAUNCHER ?=
PGO_DISTCC_HOSTS ?=
PGO_PROFILE_STORE ?= $(pgo_abs_dir)
PGO_DISTRIBUTE_CMD ?=
# (no ifneq: automake reads this file too, and takes if/endif for its own conditionals)
$(if $(strip $(PGO_DISTCC_HOSTS)),$(eval export DISTCC_HOSTS := $(PGO_DISTCC_HOSTS)))
pgo_is_distcc = $(filter distcc %/distcc,$(firstword $(1)))
pgo_distcc_on = $(or $(call pgo_is_distcc,$(PGO_LAUNCHER)),$(call pgo_is_distcc,$(CC)))
pgo_profile_sha = $(firstword $(shell sha256sum $(call pgo_quote,$(PGO_PROFDATA)) 2>/dev/null))
PGO_USE_PROFDATA ?= $(PGO_PROFILE_STORE)/merged-$(pgo_profile_sha).profdata
# The merged profile under its content's name in the store and in the pipeline's own directory
# (copied once, replaced if damaged; earlier profiles so named there are removed): a later make
# without PGO_PROFILE_STORE (install-python, the test programs) names one that is there.  Then
# PGO_DISTRIBUTE_CMD, which gets the file's path as $$PGO_PROFILE_FILE (the same path on every
# worker) and copies it to each worker that does not share the store.
pgo_sha_named = $(pgo_abs_dir)/merged-$(subst x,?,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx).profdata
pgo_store_copy = { cmp -s $(PGO_PROFDATA) "$(1)" || { cp $(PGO_PROFDATA) "$(1).tmp" && mv -f "$(1).tmp" "$(1)"; }; }
pgo_distribute = f=$(call pgo_quote,$(PGO_USE_PROFDATA)) && here=$(pgo_abs_dir)/merged-$(pgo_profile_sha).profdata && \
	mkdir -p $(call pgo_quote,$(PGO_PROFILE_STORE)) && \
	for o in $(pgo_sha_named); do test "$$o" = "$$f" || test "$$o" = "$$here" || rm -f "$$o"; done && \
	$(call pgo_store_copy,$$f) && $(call pgo_store_copy,$$here) && \
	$(if $(strip $(PGO_DISTRIBUTE_CMD)),echo "==> the profile to the workers: $$f" >&2 && \
	PGO_PROFILE_FILE="$$f" PGO_PROFILE_STORE=$(call pgo_quote,$(PGO_PROFILE_STORE)) sh -c $(call pgo_quote,$(PGO_DISTRIBUTE_CMD)),true)
pgo_dist_file = $(pgo_abs_dir)/distcc-$(1)
pgo_dist_notes = $(if $(pgo_distcc_on),$(call pgo_dist_file,instrument).txt $(call pgo_dist_file,use).txt) $(pgo_icecc_notes) \
	$(if $(PGO_THIN_LAUNCHER),$(pgo_thin_dir)/use.txt)
pgo_dist_log = $(if $(pgo_distcc_on),rm -f $(call pgo_dist_file,$(1)).log $(call pgo_dist_file,$(1)).txt && DISTCC_LOG=$(call pgo_dist_file,$(1)).log)$(call pgo_icecc_log,$(1))
# Per distcc process: a compile (-c) and the host its "completed ok" names; why one ran here.
pgo_dist_awk = { if (!match($$0, /^distcc\[[0-9]+\] /)) next; p = substr($$0, 1, RLENGTH); m = substr($$0, RLENGTH + 1) } \
	m ~ /^exec on [^ ]*: / && m ~ / -c( |$$)/ { c[p] = 1 } \
	m ~ /must be local$$/ { sub(/^\([a-z_]*\) /, "", m); why[p] = m } \
	m ~ /no visible input file$$/ { why[p] = "no source distcc sends (an assembler .S file, say)" } \
	m ~ /failed to distribute.*running locally instead/ && !(p in why) { why[p] = "no worker took it (failed to distribute)" } \
	m ~ /retrying locally/ { why[p] = "it failed on the worker and ran again here" } \
	m ~ /^compile .* on [^ ]* completed ok$$/ { n = split(m, w, " "); host[p] = w[n - 2] } \
	END { for (p in host) if (c[p]) { if (host[p] == "localhost") { here++; r[(p in why) ? why[p] : "distcc chose this machine"]++ } else remote++ } \
		printf "distcc (%s): %d of %d compiles on the workers, %d here", stage, remote, remote + here, here; \
		for (x in r) printf "; %d here: %s", r[x], x; print "" }
pgo_dist_said = $(if $(pgo_distcc_on),&& { test ! -f $(call pgo_dist_file,$(1)).log || awk -v stage=$(1) $(call pgo_quote,$(pgo_dist_awk)) \
	$(call pgo_dist_file,$(1)).log | tee $(call pgo_dist_file,$(1)).txt >&2; })$(call pgo_icecc_said,$(1))
# icecream (PGO_LAUNCHER or CC starting with icecc): each stage's client trace (ICECC_DEBUG=debug)
# goes to $(PGO_DIR)/icecc-STAGE.log, and the stage's line, in icecc-STAGE.txt, counts the
# compiles a worker took and those built here, in icecc's words why (it keeps bare
# -fprofile-generate and -fprofile-use compiles here: gcc's both stages, clang's IR
# instrumentation).  Clang's use stage ships the content-named merged profile inside the
# compiler's environment (ICECC_EXTRAFILES: the local iceccd packs it with the compiler, and
# each worker's chroot holds it at the path the use flags name); a worker without it fails the
# compile.  A user's own ICECC_VERSION disables that packing: set no ICECC_VERSION for clang.
pgo_is_icecc = $(filter icecc %/icecc,$(firstword $(1)))
pgo_icecc_on = $(or $(call pgo_is_icecc,$(PGO_LAUNCHER)),$(call pgo_is_icecc,$(CC)))
pgo_icecc_file = $(pgo_abs_dir)/icecc-$(1)
pgo_icecc_notes = $(if $(pgo_icecc_on),$(call pgo_icecc_file,instrument).txt $(call pgo_icecc_file,use).txt)
pgo_icecc_ship = $(if $(and $(filter use,$(1)),$(filter merged,$(pgo_kind))),ICECC_EXTRAFILES=$(call pgo_quote,$(PGO_USE_PROFDATA)))
pgo_icecc_log = $(if $(pgo_icecc_on),rm -f $(call pgo_icecc_file,$(1)).log $(call pgo_icecc_file,$(1)).txt && \
	ICECC_DEBUG=debug ICECC_LOGFILE=$(call pgo_icecc_file,$(1)).log $(call pgo_icecc_ship,$(1)))
# Per icecc process (ICECC[pid]): a compile (-c), the worker the scheduler named, a build here.
pgo_icecc_awk = { if (!match($$0, /^ICECC\[[0-9]+\] /)) next; p = substr($$0, 1, RLENGTH); m = $$0; sub(/^[^:]*:[^:]*:[^:]*: /, "", m) } \
	m ~ /^invoked as: / && m ~ / -c( |$$)/ { c[p] = 1 } \
	m ~ /^Have to use host / { host[p] = $$0 } \
	m ~ /building locally$$/ && !(p in why) { sub(/[;,] building locally$$/, "", m); why[p] = m } \
	m ~ /^local build forced by remote exception: / { sub(/^[^:]*: /, "", m); why[p] = "it failed to reach a worker (" m ")" } \
	m ~ /^building myself/ { here_[p] = 1; if (!(p in why)) why[p] = "the scheduler gave it to this machine (no worker was free, or this one ranked first)" } \
	m ~ /^<building_local>/ { here_[p] = 1 } \
	END { for (p in c) { if (p in here_) { here++; r[(p in why) ? why[p] : "icecc built it here"]++ } else if (p in host) remote++ } \
		printf "icecc (%s): %d of %d compiles on the workers, %d here", stage, remote, remote + here, here; \
		for (x in r) printf "; %d here: %s", r[x], x; print "" }
pgo_icecc_said = $(if $(pgo_icecc_on),&& { test ! -f $(call pgo_icecc_file,$(1)).log || awk -v stage=$(1) $(call pgo_quote,$(pgo_icecc_awk)) \
	$(call pgo_icecc_file,$(1)).log | tee $(call pgo_icecc_file,$(1)).txt >&2; })
# ThinLTO's backends (PGO_THIN_LAUNCHER, --with-thinlto-workers): in the use stage each clang
# -flto=thin link goes through `profopt thin-link`: an index-only link, one backend compile per
# module as a job (on PGO_THINLTO_WORKERS, commands that each run a shell line on a worker, ';'
# between them; none: here), then the link of the native objects.  Each link's line ("N of M
# backends on the workers, K here (why)") goes to $(PGO_DIR)/thinlto/summary.txt.
PGO_THIN_LAUNCHER ?=
PGO_THINLTO_WORKERS ?=
pgo_thin_dir = $(pgo_abs_dir)/thinlto
pgo_thin_on = $(and $(PGO_THIN_LAUNCHER),$(filter use,$(1)))
pgo_thin_clear = $(if $(call pgo_thin_on,$(1)),rm -rf $(pgo_thin_dir) &&)
pgo_thin_env = $(if $(call pgo_thin_on,$(1)),PGO_THIN_LINK_DIR=$(pgo_thin_dir) PGO_PROFOPT=$(PROFOPT) \
	PGO_THINLTO_WORKERS=$(call pgo_quote,$(PGO_THINLTO_WORKERS)))
# The stage's line (profopt thin-link --stage-line sums up each link's record): how many links
# were split, their backends on the workers and here, and why; the links run in one process.
pgo_thin_said = $(if $(call pgo_thin_on,$(1)),&& { test ! -f $(pgo_thin_dir)/links.tsv || \
	$(PROFOPT) thin-link --dir=$(pgo_thin_dir) --stage-line=$(1) | tee $(pgo_thin_dir)/$(1).txt >&2; })

.PHONY: profile-opt profile-removal clean-retain-profile pgo-clean-build pgo-clean pgo-status pgo-summary profile-export pgo-repro-check pgo-workloads \
	pgo-profile-opt-locked pgo-clean-retain-profile-locked pgo-profile-removal-locked pgo-profile-export-locked \
	pgo-repro-check-locked pgo-sources-changed

# The pipeline runs in a second make that holds the lock and reads the stamps only once it
# holds it.  Recipes that reach a make through a variable (the lock's, PGO_BUILD_GEN, ...) say
# '+': make then hands them its jobserver, so `make -jN profile-opt` builds N at a time; but
# not under `make -n`, which runs a '+' line: a dry run prints the stages, it never runs one.
pgo_recurse = $(if $(findstring n,$(firstword -$(MAKEFLAGS))),,+)
# The builds the pipeline logs print their directories and commands, which verify reads: the
# lock's --no-print-directory is for the pipeline's own make, not theirs, and automake's silent
# rules print commands with V=1 (PGO_BUILD_VERBOSE: make variables those builds get).
PGO_BUILD_VERBOSE ?= V=1
# Their make (the level below, PROFOPT_GOALS_IN_ORDER) makes its goals in order: below.
pgo_logged_build = sh -c $(call pgo_quote,MAKEFLAGS="$$(printf %s "$$MAKEFLAGS" | sed -e 's/ --no-print-directory//' \
	-e 's/^ *\([A-Za-z]*\)/\1w /') $(PGO_BUILD_VERBOSE)" && PROFOPT_GOALS_IN_ORDER=$$MAKELEVEL && \
	export MAKEFLAGS PROFOPT_GOALS_IN_ORDER && $(1))
# `make -j2 all check` starts both goals at once, and both recurse into the same subdirectories,
# where two makes build one file together and collide.  A build the pipeline runs with two goals
# or more makes them one after the other: its own make runs one job at a time (GNU make before
# 4.4 orders goals no other way), while the makes it starts (subdirectories, automake's all-am)
# keep their jobs in parallel.
$(if $(and $(filter $(MAKELEVEL),$(PROFOPT_GOALS_IN_ORDER)),$(word 2,$(sort $(MAKECMDGOALS)))),$(eval .NOTPARALLEL:))
# (clean-retain-profile, profile-removal, profile-export, pgo-repro-check and pgo-bench, which
# train, build, clean or run the program, take the same lock.)
pgo_lock = $(pgo_abs_dir)/lock
pgo_locked = $(pgo_recurse)@$(pgo_check_paths)mkdir -p $(pgo_abs_dir) && \
	$(PROFOPT) lock --file=$(pgo_lock) --what="make $(1) in $(CURDIR)" -- $(MAKE) --no-print-directory pgo-$(patsubst pgo-%,%,$(1))-locked
# Goals that change the build directory refuse to start while a pipeline holds the lock (a
# clean would delete the program under a running training, whose tasks then fail as if
# trained).  Checked when make reads this file, before any recipe runs; the pipeline's own
# makes (its clean, its builds) run under the lock, which tells them by PROFOPT_LOCK_HELD.
PGO_LOCKED_GOALS ?= clean distclean mostlyclean maintainer-clean pgo-clean pgo-clean-build install install-% uninstall
pgo_lock_busy := $(if $(and $(filter $(PGO_LOCKED_GOALS),$(MAKECMDGOALS)),$(wildcard $(pgo_lock))),$(shell \
	$(PROFOPT) lock --file=$(pgo_lock) --free 2>&1 > /dev/null))
$(if $(pgo_lock_busy),$(error make $(filter $(PGO_LOCKED_GOALS),$(MAKECMDGOALS)): $(pgo_lock_busy)))
profile-opt:
	$(if $(pgo_enabled),$(call pgo_locked,profile-opt),@$(call pgo_not_enabled,profile-opt))

pgo-profile-opt-locked: $(call pgo_stamp,$(lastword $(pgo_stages)))
	@$(PROFOPT) summary $(PGO_STAMPS) >&2
	@$(if $(wildcard $(PGO_SUMMARY_NOTES) $(pgo_dist_notes) $(pgo_dispatch_note)),cat $(wildcard $(PGO_SUMMARY_NOTES) $(pgo_dist_notes) $(pgo_dispatch_note)) >&2)

pgo-sources-changed:
	@echo "==> sources changed since the profile-use build: rebuilding them with the kept profile" >&2

$(pgo_abs_dir)/.dir:
	@mkdir -p $(pgo_abs_dir)/logs $(PGO_RAW_DIR)
	@touch $@

$(call pgo_stamp,configure): | $(pgo_abs_dir)/.dir
	$(pgo_recurse)@$(call pgo_run,configure,configure) sh -c $(call pgo_quote,$(PGO_CONFIGURE))

# Clang: can LLVM_PROFDATA read the raw profiles this clang writes?  Asked before training, by
# profopt check-raw, whose test program runs here; a cross build's runs through the runner (the
# driver's check, on a raw profile written the same way, from a directory the runner can see).
pgo_check_raw_runner = d=$(pgo_abs_dir)/check-raw && rm -rf $$d && mkdir -p $$d && \
	printf 'int main(void) { return 0; }\n' > $$d/probe.c && $(CC) -fprofile-generate -o $$d/probe $$d/probe.c && \
	{ cd $$d && LLVM_PROFILE_FILE=$$d/probe.profraw $(PGO_RUNNER) ./probe; } && \
	$(PROFOPT) check-raw --tool=$(LLVM_PROFDATA) $$d/probe.profraw >&2 && rm -rf $$d
$(call pgo_stamp,instrument): $(call pgo_after,instrument)
	@$(call pgo_rm_later,instrument)
	$(pgo_recurse)@$(PROFOPT) run --label="clean before the instrumented build" --log=$(call pgo_log,preclean) -- sh -c $(call pgo_quote,$(PGO_CLEAN))
	@$(pgo_raw_check)
	$(pgo_recurse)@$(call pgo_dist_log,instrument) $(call pgo_run,instrumented build,instrument) $(call pgo_logged_build,$(PGO_BUILD_GEN)) $(call pgo_dist_said,instrument)

# With an imported profile no training ran in this tree: the first stage that runs the
# training's tasks on the optimized program (verify's run, BOLT) writes the task lists, once
# per profile-use build (the use stage removes the mark).
pgo_lists_written = $(pgo_abs_dir)/train-lists.written
pgo_list_if_imported = $(if $(strip $(PGO_PROFILE)),{ test -f $(pgo_lists_written) || { $(PROFOPT) run \
	--label="list training tasks (the optimized program must start)" --log=$(call pgo_log,train-list) \
	-- sh -c $(call pgo_quote,$(PGO_TRAIN_LIST)) && touch $(pgo_lists_written); }; },true)

# Without PGO_SOURCE_ROOT, the files the instrumented build compiled are fingerprinted: verify
# then tells clang's hash mismatch of a same-named function (main) from an edited source.
pgo_instrumented_files = --build-log=$(call pgo_log,instrument) --build-dir=$(PGO_BUILD_DIR) $(pgo_skip)
# Training starts from zero counts: each run writes into a fresh directory (pgo_train_cmds).
# The previous merged profile (clang) or archive (gcc) stays until a new one replaces it.
$(call pgo_stamp,train): $(call pgo_after,train) $(pgo_runner_dep)
	@$(call pgo_rm_later,train)
	@rm -f $(pgo_ir_profdata)
	@$(PROFOPT) run --label="list training tasks (the instrumented program must start)" --log=$(call pgo_log,train-list) -- sh -c $(call pgo_quote,$(PGO_TRAIN_LIST))
	@rm -f $(pgo_fingerprint)
	@$(if $(PGO_SOURCE_ROOT),$(PROFOPT) check --write-fingerprint=$(pgo_fingerprint) --source-dir=$(PGO_SOURCE_ROOT),\
		test ! -f $(call pgo_log,instrument) || $(PROFOPT) check --write-fingerprint=$(pgo_fingerprint) $(pgo_instrumented_files))
	@$(PROFOPT) clear --family=$(PGO_CC_FAMILY) --build-dir=$(PGO_BUILD_DIR) $(pgo_skip)
	@$(call pgo_train_cmds,train,$(PGO_RAW_DIR),training)

# Every raw profile is checked before anything is merged (a damaged one stops the build,
# named); GCC's run is installed beside the objects only then, and its previous archive
# removed only once the new profile is in place.
# A reused profile (PGO_PROFILE) stands in for instrument, train and merge.  The import checks
# the bundle in a private directory and replaces the profile in place only once it passed, so a
# refused bundle leaves the previous profile as it was.  PGO_PROFILE_SHA256 pins the bundle's
# SHA-256.  (PGO_RELOCATE_ROOT is double-quoted: it may be shell text printing a directory.)
# What training covered goes to report.txt (people) and report.json (machines): information only.
PGO_PROFILE_SHA256 ?=
# GCC: libtool compiles each library source twice (PIC under .libs/, and beside it for the
# static library) and training runs one copy: profopt merge gives the other the counts of the
# functions compiled alike in both (not of those a #ifdef PIC changes, which GCC would refuse).
pgo_merge_recipe = echo "==> merge profiles" >&2 && $(call pgo_rm_later,merge) && \
	rm -f $(pgo_ir_profdata) $(call pgo_stamp,merge).tmp && \
	$(PROFOPT) merge --family=$(PGO_CC_FAMILY) --stamp=$(call pgo_stamp,merge).tmp $(pgo_skip) \
		$(call pgo_merge_inputs,$(PGO_RAW_DIR)) --output=$(PGO_PROFDATA) && \
	rm -f $(pgo_stash) && mv $(call pgo_stamp,merge).tmp $(call pgo_stamp,merge) && \
	{ $(PROFOPT) report $(PGO_REPORT_ARGS) --json > $(pgo_abs_dir)/report.json 2>/dev/null || true; } && \
	{ $(PROFOPT) report $(PGO_REPORT_ARGS) > $(pgo_abs_dir)/report.txt 2>&1 && $(PROFOPT) report $(PGO_REPORT_ARGS) --brief >&2 || \
		echo "report: coverage report unavailable (see $(pgo_abs_dir)/report.txt)" >&2; }
pgo_import_target_note = import: a profile trained for $(PGO_PROFILE_TARGET), used for $(or $(PGO_TARGET),this machine) \
	(PGO_PROFILE_TARGET): verify says which units it covers
pgo_import_recipe = echo "==> import profile $(PGO_PROFILE)" >&2 && $(call pgo_rm_later,merge) && \
	$(if $(strip $(PGO_PROFILE_TARGET)),echo $(call pgo_quote,$(pgo_import_target_note)) >&2 &&) \
	rm -f $(call pgo_quote,$(pgo_seal)) && \
	{ $(PGO_MANIFEST_CMD); } > $(call pgo_quote,$(pgo_manifest)) && \
	$(PROFOPT) import --bundle=$(call pgo_quote,$(abspath $(PGO_PROFILE))) --dest=$(call pgo_quote,$(PGO_EXPORTED_PROFILE)) \
		--expect=$(call pgo_quote,$(pgo_manifest)) --manifest-out=$(call pgo_quote,$(pgo_abs_dir)/profile-manifest.json) \
		--stamp=$(call pgo_quote,$(call pgo_stamp,merge)) $(if $(PGO_PROFILE_FORCE),--force) \
		$(if $(strip $(PGO_PROFILE_TARGET)),target=$(call pgo_quote,$(PGO_PROFILE_TARGET))) \
		$(if $(PGO_PROFILE_SHA256),--sha256=$(call pgo_quote,$(PGO_PROFILE_SHA256))) \
		$(if $(PGO_RELOCATE_ROOT),--relocate-root="$(PGO_RELOCATE_ROOT)")
$(call pgo_stamp,merge): $(call pgo_after,merge)
	@$(if $(strip $(PGO_PROFILE)),$(pgo_import_recipe),$(pgo_merge_recipe))

# Context-sensitive PGO (clang): the program is built again with the first profile *and*
# -fcs-profile-generate, which counts after inlining, per calling context; that build is
# trained like the first, and both profiles are merged into PGO_PROFDATA.  The first profile
# is kept as $(pgo_ir_profdata) so that an interrupted merge starts again from it.
pgo_ir_profdata = $(pgo_abs_dir)/merged-ir.profdata
PGO_CS_RAW_DIR ?= $(pgo_abs_dir)/raw-cs
$(call pgo_stamp,cs-instrument): $(call pgo_after,cs-instrument)
	@$(call pgo_rm_later,cs-instrument)
	$(pgo_recurse)@$(PROFOPT) run --label="clean before the context-sensitive build" --log=$(call pgo_log,cs-preclean) -- sh -c $(call pgo_quote,$(PGO_CLEAN))
	$(pgo_recurse)@$(call pgo_run,context-sensitive instrumented build,cs-instrument) $(call pgo_logged_build,$(PGO_BUILD_CSGEN))

$(call pgo_stamp,cs-train): $(call pgo_after,cs-train) $(pgo_runner_dep)
	@$(call pgo_rm_later,cs-train)
	@$(call pgo_train_cmds,cs-train,$(PGO_CS_RAW_DIR),context-sensitive training)

$(call pgo_stamp,cs-merge): $(call pgo_after,cs-merge)
	@echo "==> merge context-sensitive profiles" >&2
	@$(call pgo_rm_later,cs-merge)
	@test -f $(pgo_ir_profdata) || cp -p $(PGO_PROFDATA) $(pgo_ir_profdata)
	@$(PROFOPT) merge --family=$(PGO_CC_FAMILY) $(call pgo_merge_inputs,$(PGO_CS_RAW_DIR)) --output=$(pgo_abs_dir)/merged-cs.profdata
	@rm -f $(pgo_seal)
	@$(call pgo_run,combine the two profiles,cs-merge) $(LLVM_PROFDATA) merge \
		--output=$(PGO_PROFDATA) $(pgo_ir_profdata) $(pgo_abs_dir)/merged-cs.profdata
	@$(PROFOPT) merge --family=$(PGO_CC_FAMILY) --seal --profdata=$(PGO_PROFDATA) --tool=$(LLVM_PROFDATA)

# One file with the merged profile and its manifest, for PGO_PROFILE= in another build.
PGO_EXPORT ?= $(pgo_abs_dir)/profile-export.tar.gz
profile-export:
	$(call pgo_locked,profile-export)
pgo-profile-export-locked: $(call pgo_stamp,verify)
	@$(pgo_check_paths){ $(PGO_MANIFEST_CMD); printf 'training_args=%s\n' $(call pgo_quote,$(call pgo_tasks,PGO_TRAIN_ARGS_,$(PGO_TRAIN_ARGS))); \
		$(if $(PGO_RELOCATE_ROOT),printf 'relocate_root=%s\n' "$(PGO_RELOCATE_ROOT)";) } > $(call pgo_quote,$(pgo_manifest))
	@$(PROFOPT) export --profile=$(call pgo_quote,$(PGO_EXPORTED_PROFILE)) --manifest=$(call pgo_quote,$(pgo_manifest)) \
		--output=$(call pgo_quote,$(PGO_EXPORT)) --write-manifest=$(call pgo_quote,$(pgo_abs_dir)/profile-manifest.json)

# GCC keeps its profiles next to the objects: they are archived before the clean (once: an
# interrupted clean finds the archive and does not archive the cleaned tree) and put back in
# the same step, so the stamp says "clean and profiles in place".
pgo_clean_keeping = sh -c $(call pgo_quote,$(PGO_CLEAN) && $(pgo_stash_restore))

$(call pgo_stamp,clean): $(call pgo_after,clean)
	@$(call pgo_rm_later,clean)
	@$(pgo_stash_save)
	$(pgo_recurse)@$(call pgo_run,clean keeping profiles,clean) $(pgo_clean_keeping)

# The profile is checked again just before the rebuild reads it (a damaged file stops the
# build, named), and the sources against training's fingerprint: with PGO_SOURCE_ROOT always,
# without it on the first rebuild after training (a source edited while training ran), not on
# the rebuild of sources edited after a finished build (use-sources.fp watches those).  A profile-use build that did not finish (use.started left behind: killed,
# failed) may have left half-written objects: the tree is cleaned again, keeping the profile,
# before building.
pgo_use_started = $(pgo_abs_dir)/use.started
pgo_check_profile = $(PROFOPT) merge --check-only --family=$(PGO_CC_FAMILY) $(pgo_profile_read)
$(call pgo_stamp,use): $(call pgo_after,use) $(if $(pgo_use_stale),pgo-sources-changed)
	@$(call pgo_rm_later,use)
	@rm -f $(call pgo_stamp,use) $(pgo_lists_written)
	@test ! -f $(pgo_use_fp) || mv -f $(pgo_use_fp) $(pgo_use_fp).before
	@$(if $(pgo_use_stale),test ! -f $(pgo_use_log) || mv -f $(pgo_use_log) $(pgo_use_log).before,rm -f $(pgo_use_log).before)
	@# The program as linked comes back (a rewritten one is never rewritten again); make relinks
	@# it when its objects change.
	@$(if $(pgo_bolt_on),test ! -f $(pgo_bolt_bin).prebolt || mv -f $(pgo_bolt_bin).prebolt $(pgo_bolt_bin))
	$(pgo_recurse)@if test -f $(pgo_use_started); then echo "==> the last profile-use build did not finish: cleaning its objects first" >&2 && \
		$(pgo_stash_save) && $(PROFOPT) run --label="clean keeping profiles" --log=$(call pgo_log,clean-again) -- $(pgo_clean_keeping); fi
	@$(pgo_check_profile)
	@$(pgo_place_profile)
	@$(if $(and $(or $(PGO_SOURCE_ROOT),$(if $(pgo_use_stale),,first)),$(wildcard $(pgo_fingerprint))),$(PROFOPT) check --against=$(pgo_fingerprint) --max-changed=$(PGO_MAX_CHANGED) --ignore-removed)
	@touch $(pgo_use_started)
	$(pgo_recurse)@$(call pgo_thin_clear,use) $(call pgo_dist_log,use) $(call pgo_thin_env,use) $(call pgo_run,rebuild with profile,use) $(call pgo_logged_build,$(PGO_BUILD_USE)) $(call pgo_dist_said,use) $(call pgo_thin_said,use)
	@test ! -f $(pgo_use_log).before || { cat $(pgo_use_log).before $(pgo_use_log) > $(pgo_use_log).both && \
		mv -f $(pgo_use_log).both $(pgo_use_log) && rm -f $(pgo_use_log).before; }
	@$(pgo_record_use_sources) > /dev/null
	@# libtool's link of a -module library removes the .gcda its compile read (.libs/NAME.*)
	@said=$$($(pgo_stash_restore) 2>&1) || { echo "$$said" >&2; exit 1; }
	@rm -f $(pgo_use_started) $(pgo_use_fp).before

$(call pgo_stamp,verify): $(call pgo_after,verify) $(pgo_runner_dep)
	@echo "==> verify" >&2
	@$(call pgo_rm_later,verify)
	@rm -f $(call pgo_stamp,verify) && touch $(pgo_abs_dir)/verify.started
	@# The optimized program runs PGO_VERIFY_RUN; then, per object, from the use build's log
	@# (commands, diagnostics), the profile and the object, whether it used the profile.  Its
	@# exit status is the stage's; the record's duration covers both.
	@$(if $(strip $(PGO_VERIFY_RUN)),$(pgo_list_if_imported) && $(PROFOPT) run --heartbeat=$(PGO_HEARTBEAT) \
		--label="verify: the optimized program runs the training's tasks" --log=$(call pgo_log,verify-run) \
		-- sh -c $(call pgo_quote,$(PGO_VERIFY_RUN)))
	@$(if $(pgo_dispatch_on),$(pgo_dispatch_check))
	@$(PROFOPT) verify --family=$(PGO_CC_FAMILY) --build-dir=$(PGO_BUILD_DIR) --build-log=$(call pgo_log,use) \
		--stamp=$(call pgo_stamp,verify) --since=$(pgo_abs_dir)/verify.started $(pgo_skip) \
		$(if $(wildcard $(pgo_fingerprint)),--fingerprint=$(pgo_fingerprint)) \
		$(pgo_merged_profile) \
		$(if $(PGO_NM),--nm=$(PGO_NM)) $(if $(PGO_READELF),--readelf=$(PGO_READELF)) $(foreach o,$(PGO_VERIFY_REQUIRE),--require=$(o))

# The dispatch check (PGO_DISPATCH_FUNCTION or PGO_DISPATCH_HANDLERS): the reference compile,
# logged, then the counts of both.
PGO_DISPATCH_FUNCTION ?=
PGO_DISPATCH_HANDLERS ?=
PGO_DISPATCH_BINARY ?=
PGO_DISPATCH_MIN ?= 90
PGO_OBJDUMP ?=
PGO_DISPATCH_REF = $(pgo_abs_dir)/dispatch-reference.o
pgo_dispatch_on = $(and $(strip $(PGO_DISPATCH_BINARY)),$(strip $(PGO_DISPATCH_REFERENCE)),$(strip $(PGO_DISPATCH_FUNCTION)$(PGO_DISPATCH_HANDLERS)))
pgo_dispatch_said = $(pgo_abs_dir)/dispatch.txt
pgo_dispatch_note = $(if $(pgo_dispatch_on),$(pgo_dispatch_said))
pgo_dispatch_check = rm -f $(PGO_DISPATCH_REF) $(pgo_dispatch_said) && $(PROFOPT) run --label="verify: the eval loop compiled for reference" \
	--log=$(call pgo_log,dispatch-reference) -- sh -c $(call pgo_quote,$(PGO_DISPATCH_REFERENCE)) && \
	$(call pgo_dispatch_count,$(abspath $(PGO_BUILD_DIR))/$(PGO_DISPATCH_BINARY))
# $(1): the program whose dispatch is counted (BOLT's rewrite of it too); its line is shown
# again after profile-opt's summary.
pgo_dispatch_count = $(PROFOPT) dispatch $(if $(strip $(PGO_DISPATCH_FUNCTION)),--function=$(call pgo_quote,$(strip $(PGO_DISPATCH_FUNCTION))),\
	--handlers=$(call pgo_quote,$(strip $(PGO_DISPATCH_HANDLERS)))) --reference=$(PGO_DISPATCH_REF) --min=$(PGO_DISPATCH_MIN) \
	$(if $(PGO_OBJDUMP),--objdump=$(PGO_OBJDUMP)) $(1) > $(pgo_dispatch_said).tmp && cat $(pgo_dispatch_said).tmp && \
	mv -f $(pgo_dispatch_said).tmp $(pgo_dispatch_said)

# BOLT: the linked program is instrumented by llvm-bolt, trained (each workload, unweighted:
# merge-fdata has no weights), and rewritten with the measured layout.  The program as the
# profile-use build linked it is kept as BINARY.prebolt, so an interrupted stage starts again
# from it, never from a half-rewritten one; the rewritten program must pass PGO_BOLT_CHECK
# before it replaces the original.  No -frame-opt=hot (CPython's own flags have it): it can
# drop a stack allocation whose slots are still written (llvm/llvm-project#211356), and with
# -indirect-call-promotion it made a 3.14 interpreter that crashes in its garbage collector.
# Indirect-call promotion on jump tables only: promoting calls puts a compare and a branch
# before each hot call: more instructions, and no time gained in measurement.
# Function folding only where it keeps every address-taken function distinct: CPython compares
# slot functions by address, and llvm-bolt's -icf=1 merged wrap_binaryfunc with wrap_binaryfunc_l
# (a wrong interpreter; t0190).  AX_PGO substitutes -icf=safe from LLVM 20, else -icf=0.
PGO_BOLT_ICF ?= -icf=0
PGO_BOLT_BINARY ?=
PGO_BOLT_SKIP ?=
PGO_BOLT_CHECK ?= $(PGO_BOLT_NEW) --version
PGO_BOLT_FLAGS ?= -reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions -split-eh \
	$(PGO_BOLT_ICF) -inline-all -peepholes=none \
	-indirect-call-promotion=jump-tables -use-gnu-stack -hot-text -dyno-stats
pgo_bolt_bin = $(abspath $(PGO_BUILD_DIR))/$(PGO_BOLT_BINARY)
pgo_bolt_dir = $(pgo_abs_dir)/bolt
PGO_BOLT_INST = $(pgo_bolt_bin).bolt_inst
PGO_BOLT_NEW = $(pgo_bolt_bin).bolt
# Merge, rewrite, check, and only then replace: one shell command (PGO_BOLT_CHECK may quote).
pgo_bolt_apply = $(MERGE_FDATA) $(pgo_bolt_dir)/prof.*.fdata > $(pgo_bolt_dir)/merged.fdata && \
	$(LLVM_BOLT) $(pgo_bolt_bin).prebolt -o $(PGO_BOLT_NEW) -data=$(pgo_bolt_dir)/merged.fdata $(PGO_BOLT_FLAGS) \
		$(if $(PGO_BOLT_SKIP),"-skip-funcs=$(PGO_BOLT_SKIP)") && \
	$(PGO_BOLT_CHECK) && $(if $(and $(pgo_dispatch_on),$(filter $(PGO_BOLT_BINARY),$(PGO_DISPATCH_BINARY))),$(call pgo_dispatch_count,$(PGO_BOLT_NEW)) &&) \
	mv -f $(PGO_BOLT_NEW) $(pgo_bolt_bin) && rm -f $(PGO_BOLT_INST) $(pgo_bolt_dir)/prof.*.fdata
$(call pgo_stamp,bolt): $(call pgo_after,bolt)
	@test -n "$(PGO_BOLT_BINARY)" || { echo "pgo.mk: PGO_BOLT=yes needs PGO_BOLT_BINARY" >&2; exit 1; }
	@rm -rf $(pgo_bolt_dir) && mkdir -p $(pgo_bolt_dir) && touch $(pgo_bolt_dir)/started
	@test -f $(pgo_bolt_bin).prebolt || cp -p $(pgo_bolt_bin) $(pgo_bolt_bin).prebolt
	@$(pgo_list_if_imported)
	@$(call pgo_run,BOLT: instrument $(PGO_BOLT_BINARY),bolt-instrument) $(LLVM_BOLT) $(pgo_bolt_bin).prebolt \
		-instrument -instrumentation-file=$(pgo_bolt_dir)/prof -instrumentation-file-append-pid -o $(PGO_BOLT_INST) \
		$(if $(PGO_BOLT_SKIP),"-skip-funcs=$(PGO_BOLT_SKIP)")
	@echo "==> BOLT training" >&2 && $(PGO_TRAIN_CMD) --log-dir=$(pgo_abs_dir)/logs/bolt-train \
		--results=$(pgo_abs_dir)/bolt-train-results.json $(call pgo_tasks,PGO_BOLT_TRAIN_ARGS_,$(PGO_BOLT_TRAIN_ARGS_main))
	@$(call pgo_run,BOLT: optimize the layout,bolt,--since=$(pgo_bolt_dir)/started) sh -c $(call pgo_quote,$(pgo_bolt_apply))
	@sed -n 's/^BOLT-INFO: \(.*have non-empty execution profile\)/bolt: \1/p' $(call pgo_log,bolt) >&2

# The project's `make clean` removes the build that the clean, use and verify stamps describe:
# hooked to it, pgo-clean-build drops those stamps, so the next profile-opt restores the kept profile
# and rebuilds with it instead of saying "ok" over a missing build.  pgo-clean (for
# distclean) drops the pipeline's whole directory, profiles included.
pgo-clean-build:
	@$(pgo_check_paths)rm -f $(foreach s,clean use verify bolt,$(call pgo_stamp,$(s))) $(pgo_abs_dir)/use.started
pgo-clean:
	$(pgo_check_paths)rm -rf $(pgo_abs_dir)
	$(if $(wildcard $(PGO_BUILD_DIR)),$(PROFOPT) clear --family=$(PGO_CC_FAMILY) --build-dir=$(PGO_BUILD_DIR) --notes $(pgo_skip))

# Drops the build but keeps the profile: the next profile-opt only rebuilds with it.
clean-retain-profile:
	$(call pgo_locked,clean-retain-profile)
pgo-clean-retain-profile-locked:
	$(pgo_recurse)@if test -f $(call pgo_stamp,merge); then \
		$(pgo_stash_save) && \
		$(call pgo_run,clean keeping profiles,clean) $(pgo_clean_keeping) && \
		$(call pgo_rm_later,clean); \
	else \
		$(PROFOPT) run --label="clean (no merged profile to keep)" --log=$(call pgo_log,clean) -- sh -c $(call pgo_quote,$(PGO_CLEAN)) && \
		$(call pgo_rm_later,configure); \
	fi

# Drops only the profiles (and the stages that depend on them).
profile-removal:
	$(call pgo_locked,profile-removal)
pgo-profile-removal-locked:
	rm -rf $(PGO_RAW_DIR) $(PGO_CS_RAW_DIR) $(pgo_abs_dir)/run.* $(PGO_PROFDATA) $(pgo_sha_named) $(pgo_seal) $(pgo_ir_profdata) $(pgo_use_fp) $(pgo_abs_dir)/merged-cs.profdata $(pgo_bolt_dir) $(pgo_stash) $(pgo_abs_dir)/logs/train \
		$(pgo_abs_dir)/logs/cs-train $(pgo_abs_dir)/logs/bolt-train $(pgo_abs_dir)/*train-results.json $(pgo_fingerprint) $(pgo_abs_dir)/report.*
	$(PROFOPT) clear --family=$(PGO_CC_FAMILY) --build-dir=$(PGO_BUILD_DIR) --notes $(pgo_skip)
	$(call pgo_rm_later,configure)

# What training will run: each workload, its weight and its `profopt train` arguments.
pgo-workloads:
	@$(foreach w,$(or $(pgo_workloads),main),printf '%s weight %s: profopt train %s\n' \
		$(call pgo_wname,$(w)) $(call pgo_wweight,$(w)) $(call pgo_quote,$(PGO_TRAIN_ARGS_$(call pgo_wname,$(w))));)

# Reproducibility: trains the same instrumented build twice and compares the merged profiles
# (profopt diff: similarity, and whether identical; exit 1 when they differ).  Needs the
# instrumented build: once the pipeline has cleaned it, it is built again.  Leaves the
# pipeline after merge, with the second profile, so `make profile-opt` goes on from there.
pgo_repro_dir = $(pgo_abs_dir)/repro
pgo-repro-check:
	@$(if $(pgo_enabled),,$(call pgo_not_enabled,pgo-repro-check))
	@$(pgo_check_paths)$(if $(strip $(PGO_PROFILE)),echo "pgo-repro-check trains: it cannot work on an imported profile (PGO_PROFILE)" >&2; exit 2)
	$(call pgo_locked,pgo-repro-check)
pgo-repro-check-locked:
	@if test -f $(call pgo_stamp,clean); then echo "==> the instrumented build was cleaned: building it again" >&2; $(call pgo_rm_later,configure); fi
	@mkdir -p $(pgo_repro_dir)
	@$(call pgo_rm_later,instrument) && $(MAKE) --no-print-directory $(call pgo_stamp,merge)
	@$(call pgo_repro_save,first)
	@$(call pgo_rm_later,instrument) && $(MAKE) --no-print-directory $(call pgo_stamp,merge)
	@$(call pgo_repro_save,second)
	@echo "==> two trainings compared" >&2
	@$(PROFOPT) diff $(if $(LLVM_PROFDATA),--tool=$(LLVM_PROFDATA)) $(call pgo_repro_file,first) $(call pgo_repro_file,second) \
		> $(pgo_repro_dir)/diff.txt; rc=$$?; cat $(pgo_repro_dir)/diff.txt; exit $$rc

# An unfinished pipeline is an answer (exit 1); a damaged or foreign stamp (exit 3) is an error.
pgo-status:
	@$(pgo_check_paths)$(PROFOPT) summary $(PGO_STAMPS); test $$? -le 1

pgo-summary:
	@$(pgo_check_paths)$(PROFOPT) summary --json $(PGO_STAMPS)

# pgo-bench: is the PGO program faster than a plain one on what its users run?  Training on a
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
