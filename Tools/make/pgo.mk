# pgo.mk - the profile-guided optimization pipeline as make targets: the stage graph.
#
# With AX_PGO (m4/ax_pgo.m4), whose settings config.status writes to pgo-config.mk, read here,
# any GNU make project includes it (`include $(srcdir)/pgo.mk`; from a Makefile.am `include
# $(abs_top_srcdir)/pgo.mk`, which automake leaves to make) and `make profile-opt` runs
#   configure -> instrument -> train -> merge [-> cs-instrument -> cs-train -> cs-merge]
#     -> clean keeping profiles -> use -> verify [-> bolt]
# (with PGO_CS=yes, PGO_BOLT=yes).  Each stage's work is a command of the profopt driver, which
# owns every file of profile data and writes the stage's stamp in $(PGO_DIR): an interrupted
# pipeline resumes at the stage that did not finish, and a second `make profile-opt` with
# nothing changed does nothing (edited sources make the use stage run again).  With
# PGO_ENABLED=yes a plain `make` is `make profile-opt`.  Hook pgo-clean-build into the
# project's clean, pgo-clean into its distclean.
#
# man profopt (IN YOUR PROJECT) describes every variable; those set here for the project:
#   PGO_TRAIN_CMD        `profopt train` as the training runs it (jobs, timeout, runner)
#   PGO_STAMP            $(call PGO_STAMP,STAGE): the stamp file of a stage
#   PGO_STAMPS           the stamps of the stages this configuration runs, in order
#   PGO_REPORT_ARGS      the options by which `profopt report` reads the profile
#   PGO_EXPORTED_PROFILE the file that carries the profile: what profile-export bundles
#   PGO_CHECK_PATH       $(call PGO_CHECK_PATH,VAR): a make error if the path in VAR holds syntax
#   PGO_WORKLOADS        (the project's) "NAME[:WEIGHT] ...", tasks in PGO_TRAIN_ARGS_NAME
#   PGO_CRASHED_IN_TRAINING, PGO_FAILED_IN_TRAINING, PGO_BOLT_INST, PGO_BOLT_NEW, PGO_DISPATCH_REF
#
# A stage: its name in pgo_all_stages (and pgo_stages when this configuration runs it), its
# rule on $(call pgo_stamp,STAGE), pgo_out_STAGE (the files it writes besides the build, which
# profile-removal removes) and pgo_undo_STAGE (a command putting back what it changed in the
# build before the use stage builds again; '-' in STAGE as '_').

pgo_mk_file := $(lastword $(MAKEFILE_LIST))
# AX_PGO's settings, written by config.status beside the Makefile (top_builddir's, with automake).
-include $(or $(top_builddir),.)/pgo-config.mk
# Cross builds: `profopt target-run` hands a program of the target to $PGO_RUNNER; under qemu-user
# (PGO_RUNNER_EMULATED=yes) qemu-exec.so is preloaded, so that its exec goes through qemu again.
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
# For PGO_VERIFY_RUN's --no-crash and --all-pass: the training's results (a task that crashed there too is excused).
PGO_CRASHED_IN_TRAINING = $(foreach f,$(wildcard $(pgo_abs_dir)/train-results*.json),--crashed-before=$(f))
PGO_FAILED_IN_TRAINING = $(foreach f,$(wildcard $(pgo_abs_dir)/train-results*.json),--failed-before=$(f))

pgo_abs_dir := $(abspath $(PGO_DIR))
# automake moves ':=' assignments above the '?=' defaults when it reads a fragment itself.
pgo_misread = $(if $(pgo_abs_dir),,$(error pgo.mk: PGO_DIR is empty (was pgo.mk read by automake? include it as $$(abs_top_srcdir)/pgo.mk, which automake leaves to make)))
# A path (or workload name) holding make or shell syntax is refused, naming the character, before
# any pipeline target runs.  pgo_quote: $(1) as one single-quoted shell word, whatever it holds.
pgo_quote = '$(subst ','\'',$(1))'
pgo_lp := (
pgo_rp := )
pgo_hash := \#
pgo_syntax_chars = ' " ` ; & | < > $(pgo_lp) $(pgo_rp) * ? [ ] \ % : $(pgo_hash)
pgo_syntax_in = $(firstword $(findstring $$,$(1)) $(foreach c,$(pgo_syntax_chars),$(if $(findstring $(c),$(1)),$(c))))
PGO_CHECK_PATH = $(if $(call pgo_syntax_in,$($(1))),$(error pgo.mk: $(1) '$($(1))' contains \
	'$(call pgo_syntax_in,$($(1)))', which make or the shell running its recipes reads as syntax: \
	use a path of letters, digits, / . _ - + = @ ~ ^ ! { })) \
	$(if $(word 2,x$($(1))x),$(error pgo.mk: $(1) '$($(1))' contains white space, which make splits file names at: \
	use a path without it))
# What make itself cannot parse in a target's name is refused as soon as pgo.mk is read.
pgo_parse_chars = ; : % $(pgo_hash)
$(foreach v,PGO_DIR PGO_BUILD_DIR PGO_RAW_DIR PGO_PROFDATA,$(foreach c,$(pgo_parse_chars),$(if $(findstring $(c),$($(v))),\
	$(error pgo.mk: $(v) '$($(v))' contains '$(c)', which make reads as syntax in a file name: use a path of letters, digits, / . _ - + = @ ~ ^ ! { }))))
# Every variable that names a file, a directory or a tool, and those that list files.
pgo_path_vars = PGO_DIR PGO_BUILD_DIR PGO_RAW_DIR PGO_PROFDATA PGO_PROFILE PGO_EXPORT PGO_CS_RAW_DIR \
	PGO_PROFILE_STORE PGO_USE_PROFDATA PGO_SOURCE_ROOT PGO_BOLT_BINARY PGO_BENCH_SRCDIR \
	PROFOPT PGO_NM PGO_READELF LLVM_PROFDATA LLVM_BOLT MERGE_FDATA
pgo_path_list_vars = PGO_VERIFY_REQUIRE PGO_SUMMARY_NOTES PGO_BOLT_LINKS
pgo_check_list = $(foreach w,$($(1)),$(if $(call pgo_syntax_in,$(w)),$(error pgo.mk: $(1) holds \
	'$(w)', with '$(call pgo_syntax_in,$(w))', which make or the shell running its recipes reads as syntax: \
	use names of letters, digits, / . _ - + = @ ~ ^ ! { })))
pgo_check_paths = $(pgo_misread)$(foreach v,$(pgo_path_vars),$(call PGO_CHECK_PATH,$(v)))\
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
# The stages, in order; those this configuration runs.
pgo_all_stages := configure instrument train merge cs-instrument cs-train cs-merge clean use verify bolt
pgo_stages := configure $(if $(strip $(PGO_PROFILE)),,instrument train) merge \
	$(if $(pgo_cs_on),cs-instrument cs-train cs-merge) clean use verify $(if $(pgo_bolt_on),bolt)
pgo_stamp = $(pgo_abs_dir)/$(1).stamp
pgo_log = $(pgo_abs_dir)/logs/$(1).log
# The stages listed in $(2) before / after stage $(1).
pgo_before = $(if $(2),$(if $(filter $(1),$(firstword $(2))),,$(firstword $(2)) $(call pgo_before,$(1),$(wordlist 2,$(words $(2)),$(2)))))
pgo_rest = $(if $(2),$(if $(filter $(1),$(firstword $(2))),$(wordlist 2,$(words $(2)),$(2)),$(call pgo_rest,$(1),$(wordlist 2,$(words $(2)),$(2)))))
# The stages whose stamps describe the build (make clean drops them), and every stage's outputs.
pgo_build_stages = clean $(call pgo_rest,clean,$(pgo_all_stages))
pgo_outputs = $(foreach s,$(pgo_all_stages),$(pgo_out_$(subst -,_,$(s))))
# A stage's predecessor is a prerequisite only while its own stamp is missing or it must run again.
pgo_after = $(if $(and $(wildcard $(call pgo_stamp,$(1))),$(if $(filter $(1),$(pgo_redo)),,x)),,$(call pgo_stamp,$(lastword $(call pgo_before,$(1),$(pgo_stages)))))
# The use stage records the sources it built: if they differ now, it and every later stage run again.
pgo_use_fp = $(pgo_abs_dir)/use-sources.fp
pgo_use_stale := $(if $(wildcard $(pgo_abs_dir)/use.stamp),$(shell test -f $(pgo_use_fp) && \
	$(PROFOPT) check --against=$(pgo_use_fp) --max-changed=0 >/dev/null 2>&1 || echo stale))
pgo_redo = $(if $(pgo_use_stale),use $(call pgo_rest,use,$(pgo_stages)))
# (A rebuild of edited sources appends its log to the earlier one: verify reads every compile.)
pgo_use_log = $(call pgo_log,use)
# What the use stage compiled: the PGO_SOURCE_ROOT tree, or the sources and headers of its log's compiles.
pgo_record_use_sources = $(PROFOPT) check --write-fingerprint=$(pgo_use_fp) $(if $(PGO_SOURCE_ROOT),--source-dir=$(PGO_SOURCE_ROOT), \
	--build-log=$(pgo_use_log) --build-dir=$(PGO_BUILD_DIR) $(pgo_skip) $$(test ! -f $(pgo_use_fp).before || echo --add-files-of=$(pgo_use_fp).before))
# Starting a stage invalidates every later one.
pgo_rm_later = rm -f $(foreach s,$(call pgo_rest,$(1),$(pgo_all_stages)),$(call pgo_stamp,$(s)))
# $(1): banner label, $(2): stage (log and stamp name), $(3): more options of profopt run.
pgo_run = $(PROFOPT) run --heartbeat=$(PGO_HEARTBEAT) --label="$(1)" --log=$(call pgo_log,$(2)) --stamp=$(call pgo_stamp,$(2)) --units=$(PGO_DIR)/units.count $(3) --
# Clang's raw profiles: {} is the task's name (files per task, named the same in every
# training, so two trainings give identical profiles), %m one file per instrumented binary.
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
# The pipeline's own directory may sit inside the build directory: its raw profiles are not the build's.
pgo_skip = --skip=$(notdir $(pgo_abs_dir))
PGO_STAMP = $(call pgo_stamp,$(1))
PGO_STAMPS = $(foreach s,$(pgo_stages),$(call pgo_stamp,$(s)))

# The compiler family's differences, chosen once by pgo_kind: where its profile is.  GCC keeps it
# in the build tree (.gcda files, archived around a clean), clang in one merged file.
pgo_kind = $(if $(filter gcc,$(PGO_CC_FAMILY)),intree,merged)
PGO_EXPORTED_PROFILE = $(PGO_EXPORTED_PROFILE_$(pgo_kind))
PGO_EXPORTED_PROFILE_intree = $(pgo_stash)
PGO_EXPORTED_PROFILE_merged = $(PGO_PROFDATA)
pgo_profile_read_intree = --profile-dir=$(PGO_BUILD_DIR) $(pgo_skip)
pgo_profile_read_merged = $(pgo_merged_profile)
# Each of these is its _intree or _merged variant (with the same arguments); a command the other has, true.
$(foreach v,profile_read merged_profile merge_inputs repro_save,$(eval pgo_$(v) = $$(call pgo_$(v)_$$(pgo_kind),$$(1))))
$(foreach v,stash_save stash_restore raw_check place_profile,$(eval pgo_$(v) = $$(or $$(pgo_$(v)_$$(pgo_kind)),true)))
PGO_REPORT_ARGS = --family=$(PGO_CC_FAMILY) $(pgo_profile_read) $(pgo_report_nm_$(pgo_kind))
pgo_report_nm_intree = $(if $(PGO_NM),--nm=$(PGO_NM))
pgo_merged_profile_merged = --profdata=$(PGO_PROFDATA) --tool=$(LLVM_PROFDATA)
pgo_merge_inputs_intree = --profile-dir=$(PGO_BUILD_DIR) --from=$(1)
pgo_merge_inputs_merged = --profile-dir=$(1) --tool=$(LLVM_PROFDATA) \
	$(foreach w,$(pgo_workloads),--weighted=$(1)/$(call pgo_wname,$(w)):$(call pgo_wweight,$(w)))
pgo_stash_save_intree = test -f $(pgo_stash) || $(PROFOPT) stash save $(pgo_skip) --build-dir=$(PGO_BUILD_DIR) --archive=$(pgo_stash)
pgo_stash_restore_intree = $(PROFOPT) stash restore $(pgo_skip) --build-dir=$(PGO_BUILD_DIR) --archive=$(pgo_stash)
# Before training: can the tools read what the runtime writes (its test program through the runner)?
pgo_raw_check_merged = $(PROFOPT) check-raw --cc="$(CC)" --tool=$(LLVM_PROFDATA) $(if $(pgo_runner_on),--runner=$(call pgo_quote,$(PGO_RUNNER))) >&2
pgo_place_profile_merged = $(pgo_distribute)
pgo_repro_file = $(pgo_repro_dir)/$(1).$(pgo_repro_ext_$(pgo_kind))
pgo_repro_ext_intree = tar
pgo_repro_ext_merged = profdata
pgo_repro_save_intree = $(PROFOPT) clear $(call pgo_repro_file,$(1)) && $(PROFOPT) stash save $(pgo_skip) --build-dir=$(PGO_BUILD_DIR) --archive=$(call pgo_repro_file,$(1))
pgo_repro_save_merged = cp $(PGO_PROFDATA) $(call pgo_repro_file,$(1))

# Workloads, NAME[:WEIGHT] each, all trained by one `profopt train` (gcc: a workload of weight W runs
# W times, libgcov adding the counts; clang: each under RAW/NAME, merged with the weights).
PGO_WORKLOADS ?=
PGO_TRAIN_ARGS_main ?= $(PGO_TRAIN_ARGS)
pgo_workloads = $(strip $(PGO_WORKLOADS))
pgo_wname = $(word 1,$(subst :, ,$(1)))
pgo_wweight = $(or $(word 2,$(subst :, ,$(1))),1)
# A stage's tasks: $(1) the prefix of each workload's variable, $(2) the one workload's arguments;
# pgo_tasks_of with $(3) the workloads (BOLT's may be fewer than the training's).
pgo_tasks = $(call pgo_tasks_of,$(1),$(2),$(pgo_workloads))
pgo_tasks_of = $(if $(strip $(3)),$(foreach w,$(3),--workload=$(w) $($(1)$(call pgo_wname,$(w)))),$(2))
PGO_TRAIN_WRAPPER ?=
pgo_runner_on = $(strip $(PGO_RUNNER))
pgo_runner_dep = $(if $(pgo_exec_shim_on),| $(pgo_exec_shim))
pgo_exec_shim_src := $(dir $(pgo_mk_file))qemu-exec.c
pgo_exec_shim := $(pgo_abs_dir)/qemu-exec.so
# (a PGO_RUNNER holding the preload, from a configure --recheck that make ran, is the same runner)
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
pgo_runner_said = $(if $(pgo_runner_on),echo $(call pgo_quote,train: the target's programs run through $(pgo_runner_given)$(if \
	$(pgo_exec_shim_on), (following exec: $(PGO_DIR)/qemu-exec.so))$(if $(pgo_scaled),,; timeout $(PGO_TRAIN_TIMEOUT) s per task \
	(not scaled: PGO_TRAIN_TIMEOUT_SCALE=N scales it for a slow runner))) >&2 &&)
# --stop-with-parent: make, killed by SIGTERM, kills the recipe's shell, which does not pass it on.
PGO_TRAIN_CMD = $(PGO_TRAIN_WRAPPER) $(PROFOPT) train -j $(PGO_JOBS) --timeout=$(PGO_TRAIN_TIMEOUT) --min-ran=$(PGO_MIN_RAN) \
	--heartbeat=$(PGO_HEARTBEAT) --stop-with-parent $(if $(pgo_scaled),--timeout-scale=$(pgo_timeout_scale)) \
	$(if $(pgo_runner_on),--launcher=$(call pgo_quote,$(PROFOPT) target-run)) \
	$(if $(strip $(PGO_TRAIN_WORK_DIR)),--work-dir=$(call pgo_quote,$(PGO_TRAIN_WORK_DIR)))
# The training of stage $(1) into raw directory $(2), in a fresh run directory that replaces it only
# once the training succeeded: it starts from zero counts, whatever an earlier run left running.
pgo_train_cmds = $(pgo_runner_said) echo "==> $(3)$(if $(pgo_workloads), (workloads $(pgo_workloads)))" >&2 && \
	$(PGO_TRAIN_CMD) --family=$(PGO_CC_FAMILY) --raw-dir=$(2) --runs-in=$(pgo_abs_dir) --stamp=$(call pgo_stamp,$(1)) --stage=$(1) \
		--profile-pattern=$(call pgo_quote,$(PGO_LLVM_PROFILE_PATTERN)) --log-dir=$(pgo_abs_dir)/logs/$(1) \
		--results=$(pgo_abs_dir)/$(1)-results.json $(call pgo_tasks,PGO_TRAIN_ARGS_,$(PGO_TRAIN_ARGS))

# Distributed compiles (PGO_LAUNCHER, or a CC starting with distcc or icecc; Misc/DISTRIBUTED.md):
# a stage's trace in $(PGO_DIR)/TOOL-STAGE.log, what ran where in TOOL-STAGE.txt.  Clang's profile
# is named by its content (`profopt store`), so that no worker compiles with a stale one.
PGO_LAUNCHER ?=
PGO_DISTCC_HOSTS ?=
PGO_PROFILE_STORE ?= $(pgo_abs_dir)
PGO_DISTRIBUTE_CMD ?=
# (no ifneq: automake reads this file too, and takes if/endif for its own conditionals)
$(if $(strip $(PGO_DISTCC_HOSTS)),$(eval export DISTCC_HOSTS := $(PGO_DISTCC_HOSTS)))
pgo_is = $(filter $(1) %/$(1),$(firstword $(2)))
pgo_dist_tools = $(foreach t,distcc icecc,$(if $(or $(call pgo_is,$(t),$(PGO_LAUNCHER)),$(call pgo_is,$(t),$(CC))),$(t)))
pgo_profile_sha = $(shell $(PROFOPT) store --sha256 --profile=$(call pgo_quote,$(PGO_PROFDATA)) 2>/dev/null)
PGO_USE_PROFDATA ?= $(PGO_PROFILE_STORE)/merged-$(pgo_profile_sha).profdata
pgo_distribute = $(PROFOPT) store --profile=$(PGO_PROFDATA) --output=$(call pgo_quote,$(PGO_USE_PROFDATA)) --keep=$(pgo_abs_dir) && \
	$(if $(strip $(PGO_DISTRIBUTE_CMD)),echo "==> the profile to the workers: $(PGO_USE_PROFDATA)" >&2 && PGO_PROFILE_FILE=$(call \
	pgo_quote,$(PGO_USE_PROFDATA)) PGO_PROFILE_STORE=$(call pgo_quote,$(PGO_PROFILE_STORE)) sh -c $(call pgo_quote,$(PGO_DISTRIBUTE_CMD)),true)
pgo_dist_file = $(pgo_abs_dir)/$(1)-$(2)
pgo_dist_notes = $(foreach t,$(pgo_dist_tools),$(call pgo_dist_file,$(t),instrument).txt $(call pgo_dist_file,$(t),use).txt) \
	$(if $(PGO_THIN_LAUNCHER),$(pgo_thin_dir)/use.txt)
pgo_dist_env_distcc = DISTCC_LOG=$(1)
pgo_dist_env_icecc = ICECC_DEBUG=debug ICECC_LOGFILE=$(1) \
	$(if $(and $(filter use,$(2)),$(filter merged,$(pgo_kind))),ICECC_EXTRAFILES=$(call pgo_quote,$(PGO_USE_PROFDATA)))
pgo_dist_log = $(foreach t,$(pgo_dist_tools),rm -f $(call pgo_dist_file,$(t),$(1)).log $(call pgo_dist_file,$(t),$(1)).txt && \
	$(call pgo_dist_env_$(t),$(call pgo_dist_file,$(t),$(1)).log,$(1)))
pgo_dist_said = $(foreach t,$(pgo_dist_tools),&& { test ! -f $(call pgo_dist_file,$(t),$(1)).log || $(PROFOPT) dist-log --launcher=$(t) \
	--stage=$(1) $(call pgo_dist_file,$(t),$(1)).log | tee $(call pgo_dist_file,$(t),$(1)).txt >&2; })
# ThinLTO's backends (PGO_THIN_LAUNCHER): the use stage's -flto=thin links go through `profopt
# thin-link`, the backends as jobs on PGO_THINLTO_WORKERS; its line goes to thinlto/use.txt.
PGO_THIN_LAUNCHER ?=
PGO_THINLTO_WORKERS ?=
pgo_thin_dir = $(pgo_abs_dir)/thinlto
pgo_thin_on = $(and $(PGO_THIN_LAUNCHER),$(filter use,$(1)))
pgo_thin_clear = $(if $(call pgo_thin_on,$(1)),$(PROFOPT) clear $(pgo_thin_dir) &&)
pgo_thin_env = $(if $(call pgo_thin_on,$(1)),PGO_THIN_LINK_DIR=$(pgo_thin_dir) PGO_PROFOPT=$(PROFOPT) \
	PGO_THINLTO_WORKERS=$(call pgo_quote,$(PGO_THINLTO_WORKERS)))
pgo_thin_said = $(if $(call pgo_thin_on,$(1)),&& { test ! -f $(pgo_thin_dir)/links.tsv || \
	$(PROFOPT) thin-link --dir=$(pgo_thin_dir) --stage-line=$(1) | tee $(pgo_thin_dir)/$(1).txt >&2; })

.PHONY: profile-opt profile-removal clean-retain-profile pgo-clean-build pgo-clean pgo-status pgo-summary profile-export pgo-repro-check pgo-workloads \
	pgo-profile-opt-locked pgo-clean-retain-profile-locked pgo-profile-removal-locked pgo-profile-export-locked \
	pgo-repro-check-locked pgo-sources-changed

# The pipeline runs in a second make that holds the lock.  Recipes that reach a make through a
# variable say '+' (the jobserver: make -jN), but not under `make -n`, which runs a '+' line.
pgo_recurse = $(if $(findstring n,$(firstword -$(MAKEFLAGS))),,+)
# The logged builds print their directories and commands (PGO_BUILD_VERBOSE), which verify reads.
PGO_BUILD_VERBOSE ?= V=1
# Their make (the level below, PROFOPT_GOALS_IN_ORDER) makes its goals in order: below.
pgo_logged_build = sh -c $(call pgo_quote,MAKEFLAGS="$$(printf %s "$$MAKEFLAGS" | sed -e 's/ --no-print-directory//' \
	-e 's/^ *\([A-Za-z]*\)/\1w /') $(PGO_BUILD_VERBOSE)" && PROFOPT_GOALS_IN_ORDER=$$MAKELEVEL && \
	export MAKEFLAGS PROFOPT_GOALS_IN_ORDER && $(1))
# A logged build of two goals or more (`all check`) makes them one after the other, else both
# recurse into the same subdirectories at once; the makes it starts keep their jobs.
$(if $(and $(filter $(MAKELEVEL),$(PROFOPT_GOALS_IN_ORDER)),$(word 2,$(sort $(MAKECMDGOALS)))),$(eval .NOTPARALLEL:))
pgo_lock = $(pgo_abs_dir)/lock
pgo_locked = $(pgo_recurse)@$(pgo_check_paths)mkdir -p $(pgo_abs_dir) && \
	$(PROFOPT) lock --file=$(pgo_lock) --what="make $(1) in $(CURDIR)" -- $(MAKE) --no-print-directory pgo-$(patsubst pgo-%,%,$(1))-locked
# Each of these goals is its pgo-GOAL-locked under the lock (as are profile-opt and pgo-repro-check, below).
$(foreach g,profile-export clean-retain-profile profile-removal,$(eval $(g): ; $$(call pgo_locked,$(g))))
# Goals that change the build directory refuse to start while a pipeline holds the lock (its own
# makes run under it, told by PROFOPT_LOCK_HELD).
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

$(call pgo_stamp,instrument): $(call pgo_after,instrument)
	@$(call pgo_rm_later,instrument)
	$(pgo_recurse)@$(PROFOPT) run --label="clean before the instrumented build" --log=$(call pgo_log,preclean) -- sh -c $(call pgo_quote,$(PGO_CLEAN))
	@$(pgo_raw_check)
	$(pgo_recurse)@$(call pgo_dist_log,instrument) $(call pgo_run,instrumented build,instrument) $(call pgo_logged_build,$(PGO_BUILD_GEN)) $(call pgo_dist_said,instrument)

# With an imported profile, the first stage that runs the training's tasks writes their lists.
pgo_lists_written = $(pgo_abs_dir)/train-lists.written
pgo_list_if_imported = $(if $(strip $(PGO_PROFILE)),{ test -f $(pgo_lists_written) || { $(PROFOPT) run \
	--label="list training tasks (the optimized program must start)" --log=$(call pgo_log,train-list) \
	-- sh -c $(call pgo_quote,$(PGO_TRAIN_LIST)) && touch $(pgo_lists_written); }; },true)

# Without PGO_SOURCE_ROOT, the files the instrumented build compiled are fingerprinted.
pgo_instrumented_files = --build-log=$(call pgo_log,instrument) --build-dir=$(PGO_BUILD_DIR) $(pgo_skip)
pgo_out_train = $(PGO_RAW_DIR) $(wildcard $(pgo_abs_dir)/run.*) $(pgo_abs_dir)/logs/train $(pgo_abs_dir)/train-results.json $(pgo_fingerprint)
$(call pgo_stamp,train): $(call pgo_after,train) $(pgo_runner_dep)
	@$(call pgo_rm_later,train)
	@$(PROFOPT) run --label="list training tasks (the instrumented program must start)" --log=$(call pgo_log,train-list) -- sh -c $(call pgo_quote,$(PGO_TRAIN_LIST))
	@rm -f $(pgo_fingerprint)
	@$(if $(PGO_SOURCE_ROOT),$(PROFOPT) check --write-fingerprint=$(pgo_fingerprint) --source-dir=$(PGO_SOURCE_ROOT),\
		test ! -f $(call pgo_log,instrument) || $(PROFOPT) check --write-fingerprint=$(pgo_fingerprint) $(pgo_instrumented_files))
	@$(PROFOPT) clear --family=$(PGO_CC_FAMILY) --build-dir=$(PGO_BUILD_DIR) $(pgo_skip) $(pgo_ir_profdata)
	@$(call pgo_train_cmds,train,$(PGO_RAW_DIR),training)

# GCC's previous archive goes only once the new profile is in place.  An imported profile
# (PGO_PROFILE) stands in for instrument, train and merge.  Training's coverage: report.txt, .json.
PGO_PROFILE_SHA256 ?=
pgo_out_merge = $(PGO_PROFDATA) $(pgo_seal) $(wildcard $(pgo_abs_dir)/merged-*.profdata) $(pgo_stash) \
	$(wildcard $(pgo_abs_dir)/report.*)
pgo_merge_recipe = echo "==> merge profiles" >&2 && $(call pgo_rm_later,merge) && \
	$(PROFOPT) clear $(pgo_ir_profdata) && rm -f $(call pgo_stamp,merge).tmp && \
	$(PROFOPT) merge --family=$(PGO_CC_FAMILY) --stamp=$(call pgo_stamp,merge).tmp $(pgo_skip) \
		$(call pgo_merge_inputs,$(PGO_RAW_DIR)) --output=$(PGO_PROFDATA) && \
	$(PROFOPT) clear $(pgo_stash) && mv $(call pgo_stamp,merge).tmp $(call pgo_stamp,merge) && \
	{ $(PROFOPT) report $(PGO_REPORT_ARGS) --json > $(pgo_abs_dir)/report.json 2>/dev/null || true; } && \
	{ $(PROFOPT) report $(PGO_REPORT_ARGS) > $(pgo_abs_dir)/report.txt 2>&1 && $(PROFOPT) report $(PGO_REPORT_ARGS) --brief >&2 || \
		echo "report: coverage report unavailable (see $(pgo_abs_dir)/report.txt)" >&2; }
pgo_import_target_note = import: a profile trained for $(PGO_PROFILE_TARGET), used for $(or $(PGO_TARGET),this machine) \
	(PGO_PROFILE_TARGET): verify says which units it covers
pgo_import_recipe = echo "==> import profile $(PGO_PROFILE)" >&2 && $(call pgo_rm_later,merge) && \
	$(if $(strip $(PGO_PROFILE_TARGET)),echo $(call pgo_quote,$(pgo_import_target_note)) >&2 &&) \
	$(PROFOPT) clear $(call pgo_quote,$(pgo_seal)) && \
	{ $(PGO_MANIFEST_CMD); } > $(call pgo_quote,$(pgo_manifest)) && \
	$(PROFOPT) import --bundle=$(call pgo_quote,$(abspath $(PGO_PROFILE))) --dest=$(call pgo_quote,$(PGO_EXPORTED_PROFILE)) \
		--expect=$(call pgo_quote,$(pgo_manifest)) --manifest-out=$(call pgo_quote,$(pgo_abs_dir)/profile-manifest.json) \
		--stamp=$(call pgo_quote,$(call pgo_stamp,merge)) $(if $(PGO_PROFILE_FORCE),--force) \
		$(if $(strip $(PGO_PROFILE_TARGET)),target=$(call pgo_quote,$(PGO_PROFILE_TARGET))) \
		$(if $(PGO_PROFILE_SHA256),--sha256=$(call pgo_quote,$(PGO_PROFILE_SHA256))) \
		$(if $(PGO_RELOCATE_ROOT),--relocate-root="$(PGO_RELOCATE_ROOT)")
$(call pgo_stamp,merge): $(call pgo_after,merge)
	@$(if $(strip $(PGO_PROFILE)),$(pgo_import_recipe),$(pgo_merge_recipe))

# Context-sensitive PGO (clang): a build with the first profile and -fcs-profile-generate, trained
# like the first; both merged into PGO_PROFDATA, the first kept as $(pgo_ir_profdata).
pgo_ir_profdata = $(pgo_abs_dir)/merged-ir.profdata
PGO_CS_RAW_DIR ?= $(pgo_abs_dir)/raw-cs
pgo_out_cs_train = $(PGO_CS_RAW_DIR) $(pgo_abs_dir)/logs/cs-train $(pgo_abs_dir)/cs-train-results.json
pgo_out_cs_merge = $(pgo_ir_profdata) $(pgo_abs_dir)/merged-cs.profdata
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
	@$(PROFOPT) clear $(pgo_seal)
	@$(call pgo_run,combine the two profiles,cs-merge) $(LLVM_PROFDATA) merge \
		--output=$(PGO_PROFDATA) $(pgo_ir_profdata) $(pgo_abs_dir)/merged-cs.profdata
	@$(PROFOPT) merge --family=$(PGO_CC_FAMILY) --seal --profdata=$(PGO_PROFDATA) --tool=$(LLVM_PROFDATA)

# One file with the merged profile and its manifest, for PGO_PROFILE= in another build.
PGO_EXPORT ?= $(pgo_abs_dir)/profile-export.tar.gz
pgo-profile-export-locked: $(call pgo_stamp,verify)
	@$(pgo_check_paths){ $(PGO_MANIFEST_CMD); printf 'training_args=%s\n' $(call pgo_quote,$(call pgo_tasks,PGO_TRAIN_ARGS_,$(PGO_TRAIN_ARGS))); \
		$(if $(PGO_RELOCATE_ROOT),printf 'relocate_root=%s\n' "$(PGO_RELOCATE_ROOT)";) } > $(call pgo_quote,$(pgo_manifest))
	@$(PROFOPT) export --profile=$(call pgo_quote,$(PGO_EXPORTED_PROFILE)) --manifest=$(call pgo_quote,$(pgo_manifest)) \
		--output=$(call pgo_quote,$(PGO_EXPORT)) --write-manifest=$(call pgo_quote,$(pgo_abs_dir)/profile-manifest.json)

# GCC's profiles are archived before the clean (once) and put back in the same step.
pgo_clean_keeping = sh -c $(call pgo_quote,$(PGO_CLEAN) && $(pgo_stash_restore))

$(call pgo_stamp,clean): $(call pgo_after,clean)
	@$(call pgo_rm_later,clean)
	@$(pgo_stash_save)
	$(pgo_recurse)@$(call pgo_run,clean keeping profiles,clean) $(pgo_clean_keeping)

# Before the rebuild: what the later stages changed comes back (pgo_undo_STAGE), an unfinished one
# is cleaned again, the profile is checked, and the sources against training's fingerprint.
pgo_use_started = $(pgo_abs_dir)/use.started
pgo_out_use = $(pgo_use_fp)
pgo_check_profile = $(PROFOPT) merge --check-only --family=$(PGO_CC_FAMILY) $(pgo_profile_read)
pgo_undo_later = $(foreach s,$(subst -,_,$(call pgo_rest,use,$(pgo_stages))),$(if $(pgo_undo_$(s)),$(pgo_undo_$(s)) &&)) true
$(call pgo_stamp,use): $(call pgo_after,use) $(if $(pgo_use_stale),pgo-sources-changed)
	@$(call pgo_rm_later,use)
	@rm -f $(call pgo_stamp,use) $(pgo_lists_written)
	@test ! -f $(pgo_use_fp) || mv -f $(pgo_use_fp) $(pgo_use_fp).before
	@$(if $(pgo_use_stale),test ! -f $(pgo_use_log) || mv -f $(pgo_use_log) $(pgo_use_log).before,rm -f $(pgo_use_log).before)
	@$(pgo_undo_later)
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

# The optimized program runs PGO_VERIFY_RUN and the dispatch check; then, per object, whether it
# used the profile (from the use build's log, the profile and the object).
PGO_VERIFY_REQUIRE ?=
$(call pgo_stamp,verify): $(call pgo_after,verify) $(pgo_runner_dep)
	@echo "==> verify" >&2
	@$(call pgo_rm_later,verify)
	@rm -f $(call pgo_stamp,verify) && touch $(pgo_abs_dir)/verify.started
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
# logged, then the counts of both; the line is shown again after profile-opt's summary.
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
# $(1): the program whose dispatch is counted (BOLT's rewrite of it too).
pgo_dispatch_count = $(PROFOPT) dispatch $(if $(strip $(PGO_DISPATCH_FUNCTION)),--function=$(call pgo_quote,$(strip $(PGO_DISPATCH_FUNCTION))),\
	--handlers=$(call pgo_quote,$(strip $(PGO_DISPATCH_HANDLERS)))) --reference=$(PGO_DISPATCH_REF) --min=$(PGO_DISPATCH_MIN) \
	$(if $(PGO_OBJDUMP),--objdump=$(PGO_OBJDUMP)) $(1) > $(pgo_dispatch_said).tmp && cat $(pgo_dispatch_said).tmp && \
	mv -f $(pgo_dispatch_said).tmp $(pgo_dispatch_said)

# BOLT: the linked program, kept as BINARY.prebolt, is instrumented, trained (unweighted, on
# PGO_BOLT_WORKLOADS) and rewritten; the rewrite must pass PGO_BOLT_CHECK to replace it.  No
# -frame-opt=hot (llvm/llvm-project#211356); call promotion on jump tables only (all of it crashed
# a 3.14 interpreter); no folding of functions compared by address (-icf=1 broke t0190).
PGO_BOLT_ICF ?= -icf=0
PGO_BOLT_WORKLOADS ?= $(PGO_WORKLOADS)
PGO_BOLT_BINARY ?=
PGO_BOLT_SKIP ?=
# Names in PGO_BUILD_DIR hard-linked to the program (a library's libNAME.so beside its soname,
# as CPython's make links them): linked again to the rewrite, or they keep the old code.
PGO_BOLT_LINKS ?=
PGO_BOLT_CHECK ?= $(PGO_BOLT_NEW) --version
PGO_BOLT_FLAGS ?= -reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions -split-eh \
	$(PGO_BOLT_ICF) -inline-all -peepholes=none \
	-indirect-call-promotion=jump-tables -use-gnu-stack -hot-text -dyno-stats
pgo_bolt_bin = $(abspath $(PGO_BUILD_DIR))/$(PGO_BOLT_BINARY)
pgo_bolt_dir = $(pgo_abs_dir)/bolt
PGO_BOLT_INST = $(pgo_bolt_bin).bolt_inst
PGO_BOLT_NEW = $(pgo_bolt_bin).bolt
pgo_out_bolt = $(pgo_bolt_dir) $(pgo_abs_dir)/logs/bolt-train $(pgo_abs_dir)/bolt-train-results.json
pgo_bolt_relink = $(foreach l,$(PGO_BOLT_LINKS),ln -f $(pgo_bolt_bin) $(abspath $(PGO_BUILD_DIR))/$(l) &&) true
pgo_undo_bolt = { test ! -f $(pgo_bolt_bin).prebolt || { mv -f $(pgo_bolt_bin).prebolt $(pgo_bolt_bin) && $(pgo_bolt_relink); }; }
# Merge, rewrite, check, and only then replace: one shell command (PGO_BOLT_CHECK may quote).
pgo_bolt_apply = $(MERGE_FDATA) $(pgo_bolt_dir)/prof.*.fdata > $(pgo_bolt_dir)/merged.fdata && \
	$(LLVM_BOLT) $(pgo_bolt_bin).prebolt -o $(PGO_BOLT_NEW) -data=$(pgo_bolt_dir)/merged.fdata $(PGO_BOLT_FLAGS) \
		$(if $(PGO_BOLT_SKIP),"-skip-funcs=$(PGO_BOLT_SKIP)") && \
	$(PGO_BOLT_CHECK) && $(if $(and $(pgo_dispatch_on),$(filter $(PGO_BOLT_BINARY),$(PGO_DISPATCH_BINARY))),$(call pgo_dispatch_count,$(PGO_BOLT_NEW)) &&) \
	mv -f $(PGO_BOLT_NEW) $(pgo_bolt_bin) && $(pgo_bolt_relink) && $(PROFOPT) clear $(PGO_BOLT_INST) $(pgo_bolt_dir)/prof.*.fdata
$(call pgo_stamp,bolt): $(call pgo_after,bolt)
	@test -n "$(PGO_BOLT_BINARY)" || { echo "pgo.mk: PGO_BOLT=yes needs PGO_BOLT_BINARY" >&2; exit 1; }
	@$(PROFOPT) clear $(pgo_bolt_dir) && mkdir -p $(pgo_bolt_dir) && touch $(pgo_bolt_dir)/started
	@test -f $(pgo_bolt_bin).prebolt || cp -p $(pgo_bolt_bin) $(pgo_bolt_bin).prebolt
	@$(pgo_list_if_imported)
	@$(call pgo_run,BOLT: instrument $(PGO_BOLT_BINARY),bolt-instrument) $(LLVM_BOLT) $(pgo_bolt_bin).prebolt \
		-instrument -instrumentation-file=$(pgo_bolt_dir)/prof -instrumentation-file-append-pid -o $(PGO_BOLT_INST) \
		$(if $(PGO_BOLT_SKIP),"-skip-funcs=$(PGO_BOLT_SKIP)")
	@echo "==> BOLT training" >&2 && $(PGO_TRAIN_CMD) --log-dir=$(pgo_abs_dir)/logs/bolt-train \
		--results=$(pgo_abs_dir)/bolt-train-results.json $(call pgo_tasks_of,PGO_BOLT_TRAIN_ARGS_,$(PGO_BOLT_TRAIN_ARGS_main),$(PGO_BOLT_WORKLOADS))
	@$(call pgo_run,BOLT: optimize the layout,bolt,--since=$(pgo_bolt_dir)/started) sh -c $(call pgo_quote,$(pgo_bolt_apply))
	@sed -n 's/^BOLT-INFO: \(.*have non-empty execution profile\)/bolt: \1/p' $(call pgo_log,bolt) >&2

# pgo-clean-build (make clean): the build's stamps go, the profile stays.  pgo-clean (distclean):
# the pipeline's directory goes.
pgo-clean-build:
	@$(pgo_check_paths)rm -f $(foreach s,$(pgo_build_stages),$(call pgo_stamp,$(s))) $(pgo_use_started)
pgo-clean:
	$(pgo_check_paths)$(if $(wildcard $(pgo_abs_dir)),$(PROFOPT) clear $(pgo_abs_dir),true)
	$(if $(wildcard $(PGO_BUILD_DIR)),$(PROFOPT) clear --family=$(PGO_CC_FAMILY) --build-dir=$(PGO_BUILD_DIR) --notes $(pgo_skip))

# Drops the build but keeps the profile: the next profile-opt only rebuilds with it.
pgo-clean-retain-profile-locked:
	$(pgo_recurse)@if test -f $(call pgo_stamp,merge); then \
		$(pgo_stash_save) && \
		$(call pgo_run,clean keeping profiles,clean) $(pgo_clean_keeping) && \
		$(call pgo_rm_later,clean); \
	else \
		$(PROFOPT) run --label="clean (no merged profile to keep)" --log=$(call pgo_log,clean) -- sh -c $(call pgo_quote,$(PGO_CLEAN)) && \
		$(call pgo_rm_later,configure); \
	fi

# Drops only the profiles, every stage's outputs (and the stamps of the stages after configure).
pgo-profile-removal-locked:
	$(PROFOPT) clear --family=$(PGO_CC_FAMILY) --build-dir=$(PGO_BUILD_DIR) --notes $(pgo_skip) $(pgo_outputs)
	$(call pgo_rm_later,configure)

# What training will run: each workload, its weight and its `profopt train` arguments.
pgo-workloads:
	@$(foreach w,$(or $(pgo_workloads),main),printf '%s weight %s: profopt train %s\n' \
		$(call pgo_wname,$(w)) $(call pgo_wweight,$(w)) $(call pgo_quote,$(PGO_TRAIN_ARGS_$(call pgo_wname,$(w))));)

# Reproducibility: the same instrumented build trained twice, the profiles compared (exit 1 when
# they differ); the pipeline is left after merge, with the second profile.
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

# make pgo-bench: the PGO program against a plain one on a command (pgo-bench.mk, beside pgo.mk).
-include $(dir $(pgo_mk_file))pgo-bench.mk
