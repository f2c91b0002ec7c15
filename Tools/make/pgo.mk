# pgo.mk - the profile-guided optimization pipeline as make targets.
#
# Pairs with the AX_PGO autoconf macro (m4/ax_pgo.m4).  Any GNU make project can include it:
# set the variables below, then `include pgo.mk`, and `make profile-opt` runs
#
#   instrument -> train -> merge -> clean keeping profiles -> use -> verify
#
# Every stage leaves a stamp in $(PGO_DIR) (a one-line JSON record written atomically by
# profopt), so an interrupted pipeline resumes at the stage that did not finish, and a second
# `make profile-opt` with nothing changed does nothing.  A stage only looks at its predecessor
# while its own stamp is missing: `make clean-retain-profile` can therefore drop the build and
# keep the profile, and the next `make profile-opt` only rebuilds with it.  (The stamps of
# finished stages stay as the record of the run, even once the instrumented build is cleaned.)
#
# Set before including (those marked * are required):
#   PROFOPT *            the profopt driver
#   PGO_CC_FAMILY *      gcc|clang|apple-clang, and from AX_PGO: PGO_CC_VERSION, PGO_GEN_CFLAGS, PGO_GEN_LDFLAGS,
#                        PGO_USE_CFLAGS, PGO_USE_LDFLAGS, LLVM_PROFDATA
#   PGO_BUILD_DIR *      where objects (and GCC's .gcda files) of the program live
#   PGO_BUILD_GEN *      command: build instrumented (use $(PGO_GEN_CFLAGS)/$(PGO_GEN_LDFLAGS))
#   PGO_BUILD_USE *      command: build with the profile (use $(PGO_USE_CFLAGS)/$(PGO_USE_LDFLAGS))
#   PGO_CLEAN *          command: remove build products (profiles are stashed around it)
#   PGO_TRAIN_ARGS *     what `profopt train` runs: --tasks=FILE [--each=TEMPLATE] or commands
#   PGO_DIR              stamps, logs and profiles (default: pgo)
#   PGO_CONFIGURE        command run once before the first stage (default: none)
#   PGO_TRAIN_LIST       command run before training, e.g. to write the task file; it also
#                        proves that the instrumented program starts (default: none)
#   PGO_JOBS             parallel training tasks (default: number of CPUs)
#   PGO_TRAIN_TIMEOUT    seconds per training task (default 1200)
#   PGO_MIN_RAN          share of training tasks that must run to the end (default 90%)
#   PGO_VERIFY_REQUIRE   objects (relative to PGO_BUILD_DIR) that must get profile data
#   PGO_HEARTBEAT        seconds between progress lines off a terminal (default 30)
#   PGO_WORKLOADS        more training workloads, merged with weights: "NAME:WEIGHT ..."; the
#                        tasks of workload NAME are PGO_TRAIN_ARGS_NAME (train arguments, like
#                        PGO_TRAIN_ARGS, which is the workload "main" of weight PGO_MAIN_WEIGHT)
#   PGO_SOURCE_ROOT      source tree fingerprinted at training; the profile-use build stops if
#                        more than PGO_MAX_CHANGED files (N or P%, default 0) changed since
#   PGO_MANIFEST_CMD     command printing KEY=VALUE lines that identify what a profile fits
#                        (sources, compiler, flags): recorded by profile-export, compared on import
#   PGO_PROFILE          a bundle written by `make profile-export`: skip the instrumented build,
#                        training and merge, and rebuild with it (refused if the manifest differs
#                        from this build's, unless PGO_PROFILE_FORCE=1)

PGO_DIR ?= pgo
PGO_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PGO_TRAIN_TIMEOUT ?= 1200
PGO_MIN_RAN ?= 90%
PGO_HEARTBEAT ?= 30
PGO_CONFIGURE ?= true
PGO_TRAIN_LIST ?= true

pgo_abs_dir := $(abspath $(PGO_DIR))
PGO_PROFDATA ?= $(pgo_abs_dir)/merged.profdata
PGO_RAW_DIR ?= $(pgo_abs_dir)/raw
pgo_stash := $(pgo_abs_dir)/profiles.tar
pgo_stages := configure $(if $(strip $(PGO_PROFILE)),,instrument train) merge clean use verify
pgo_stamp = $(pgo_abs_dir)/$(1).stamp
pgo_log = $(pgo_abs_dir)/logs/$(1).log
# The predecessor of stage $(1) is $(2); it is a prerequisite only while $(1)'s stamp is missing.
pgo_after = $(if $(wildcard $(call pgo_stamp,$(1))),,$(call pgo_stamp,$(2)))
pgo_run = $(PROFOPT) run --heartbeat=$(PGO_HEARTBEAT) --label="$(1)" --log=$(call pgo_log,$(2)) --stamp=$(call pgo_stamp,$(2)) --
pgo_is_gcc = $(filter gcc,$(PGO_CC_FAMILY))
# Clang's runtime writes raw profiles where LLVM_PROFILE_FILE says; %4m keeps a pool of four
# files per binary that parallel processes merge into under a lock.
pgo_llvm_profile_file = $(PGO_RAW_DIR)/profopt-%4m.profraw
# What a profile is, for export and import: the merged file (clang) or the .gcda archive (gcc).
pgo_profile_file = $(if $(pgo_is_gcc),$(pgo_stash),$(PGO_PROFDATA))
pgo_report_input = $(if $(pgo_is_gcc),--family=gcc --profile-dir=$(PGO_BUILD_DIR) $(pgo_skip),--family=clang --profdata=$(PGO_PROFDATA) --tool=$(LLVM_PROFDATA))
pgo_manifest = $(pgo_abs_dir)/manifest.kv
PGO_MANIFEST_CMD ?= echo compiler=$(PGO_CC_FAMILY) $(PGO_CC_VERSION); echo generate_flags=$(PGO_GEN_CFLAGS)
PGO_PROFILE ?=
PGO_PROFILE_FORCE ?=
PGO_SOURCE_ROOT ?=
PGO_MAX_CHANGED ?= 0
pgo_fingerprint = $(pgo_abs_dir)/sources.fp
# The pipeline's own directory may sit inside the build directory: its raw profiles are not
# the build's.
pgo_skip = --skip=$(notdir $(pgo_abs_dir))
PGO_WORKLOADS ?=
PGO_MAIN_WEIGHT ?= 1
PGO_TRAIN_ARGS_main = $(PGO_TRAIN_ARGS)
pgo_workloads = $(if $(strip $(PGO_WORKLOADS)),main:$(PGO_MAIN_WEIGHT) $(PGO_WORKLOADS))
pgo_wname = $(word 1,$(subst :, ,$(1)))
pgo_wweight = $(word 2,$(subst :, ,$(1)))
# Where workload NAME's raw profiles go.  GCC: GCOV_PREFIX puts the .gcda files under
# RAW/NAME followed by the build directory's absolute path.
pgo_wdir = $(PGO_RAW_DIR)/$(1)$(if $(pgo_is_gcc),$(abspath $(PGO_BUILD_DIR)))
pgo_wenv = $(if $(pgo_is_gcc),--setenv=GCOV_PREFIX=$(PGO_RAW_DIR)/$(1),--setenv=LLVM_PROFILE_FILE=$(PGO_RAW_DIR)/$(1)/profopt-%4m.profraw)
pgo_train_common = $(PROFOPT) train -j $(PGO_JOBS) --timeout=$(PGO_TRAIN_TIMEOUT) --min-ran=$(PGO_MIN_RAN) --heartbeat=$(PGO_HEARTBEAT)

.PHONY: profile-opt profile-removal clean-retain-profile pgo-clean pgo-status pgo-summary profile-export

profile-opt: $(call pgo_stamp,verify)
	@$(PROFOPT) summary $(foreach s,$(pgo_stages),$(call pgo_stamp,$(s))) >&2

$(pgo_abs_dir)/.dir:
	@mkdir -p $(pgo_abs_dir)/logs $(PGO_RAW_DIR)
	@touch $@

$(call pgo_stamp,configure): | $(pgo_abs_dir)/.dir
	@$(call pgo_run,configure,configure) sh -c '$(PGO_CONFIGURE)'

$(call pgo_stamp,instrument): $(call pgo_after,instrument,configure)
	@rm -f $(call pgo_stamp,train) $(call pgo_stamp,merge) $(call pgo_stamp,clean) $(call pgo_stamp,use) $(call pgo_stamp,verify)
	@$(PROFOPT) run --label="clean before the instrumented build" --log=$(call pgo_log,preclean) -- sh -c '$(PGO_CLEAN)'
	@$(if $(pgo_is_gcc),,$(PROFOPT) check-raw --cc="$(CC)" --tool=$(LLVM_PROFDATA) >&2)
	@$(call pgo_run,instrumented build,instrument) sh -c '$(PGO_BUILD_GEN)'

# Training starts from zero counts: whatever an earlier, interrupted run or the build itself
# wrote is removed first, so a half-written profile is never used.
$(call pgo_stamp,train): $(call pgo_after,train,instrument)
	@rm -f $(call pgo_stamp,merge) $(call pgo_stamp,clean) $(call pgo_stamp,use) $(call pgo_stamp,verify) $(pgo_stash) $(PGO_PROFDATA)
	@$(PROFOPT) run --label="list training tasks (the instrumented program must start)" --log=$(call pgo_log,train-list) -- sh -c '$(PGO_TRAIN_LIST)'
	@rm -rf $(PGO_RAW_DIR) $(pgo_fingerprint) && mkdir -p $(PGO_RAW_DIR)
	@$(if $(PGO_SOURCE_ROOT),$(PROFOPT) check --record=$(pgo_fingerprint) --root=$(PGO_SOURCE_ROOT))
	@$(if $(pgo_is_gcc),find $(PGO_BUILD_DIR) -name '*.gcda' -exec rm -f {} +)
ifeq ($(strip $(PGO_WORKLOADS)),)
	@echo "==> training" >&2
	@$(pgo_train_common) --log-dir=$(pgo_abs_dir)/logs/train \
		--results=$(pgo_abs_dir)/train-results.json --stamp=$(call pgo_stamp,train) \
		--setenv=LLVM_PROFILE_FILE=$(pgo_llvm_profile_file) $(PGO_TRAIN_ARGS)
else
	@$(foreach w,$(pgo_workloads),echo "==> training: workload $(call pgo_wname,$(w)), weight $(call pgo_wweight,$(w))" >&2 && \
		$(pgo_train_common) --log-dir=$(pgo_abs_dir)/logs/train-$(call pgo_wname,$(w)) \
		--results=$(pgo_abs_dir)/train-results-$(call pgo_wname,$(w)).json \
		--stamp=$(pgo_abs_dir)/train-$(call pgo_wname,$(w)).stamp \
		$(call pgo_wenv,$(call pgo_wname,$(w))) $(PGO_TRAIN_ARGS_$(call pgo_wname,$(w))) && ) \
	printf '{"stage": "train", "status": "ok", "workloads": "%s"}\n' "$(pgo_workloads)" > $(call pgo_stamp,train).tmp && \
	mv $(call pgo_stamp,train).tmp $(call pgo_stamp,train)
endif

ifeq ($(strip $(PGO_PROFILE)),)
$(call pgo_stamp,merge): $(call pgo_after,merge,train)
	@echo "==> merge profiles" >&2
	@$(PROFOPT) merge --family=$(PGO_CC_FAMILY) --stamp=$(call pgo_stamp,merge) $(pgo_skip) \
		$(if $(pgo_is_gcc),--profile-dir=$(PGO_BUILD_DIR) $(if $(pgo_workloads),--tool=$(GCOV_TOOL)),--profile-dir=$(PGO_RAW_DIR) --tool=$(LLVM_PROFDATA) --output=$(PGO_PROFDATA)) \
		$(foreach w,$(pgo_workloads),--weighted=$(call pgo_wdir,$(call pgo_wname,$(w))):$(call pgo_wweight,$(w)))
	@# What training covered, for people (report.txt) and machines (report.json): information only.
	@$(PROFOPT) report $(pgo_report_input) --json > $(pgo_abs_dir)/report.json 2>/dev/null || true
	@$(PROFOPT) report $(pgo_report_input) > $(pgo_abs_dir)/report.txt 2>&1 && sed -n '2,3p' $(pgo_abs_dir)/report.txt >&2 || \
		echo "report: coverage report unavailable (see $(pgo_abs_dir)/report.txt)" >&2
else
# A reused profile stands in for instrument, train and merge.
$(call pgo_stamp,merge): $(call pgo_after,merge,configure)
	@echo "==> import profile $(PGO_PROFILE)" >&2
	@rm -f $(call pgo_stamp,clean) $(call pgo_stamp,use) $(call pgo_stamp,verify) $(pgo_stash)
	@{ $(PGO_MANIFEST_CMD); } > $(pgo_manifest)
	@$(PROFOPT) import --bundle=$(abspath $(PGO_PROFILE)) --dest=$(pgo_profile_file) --expect=$(pgo_manifest) \
		--manifest-out=$(pgo_abs_dir)/profile-manifest.json --stamp=$(call pgo_stamp,merge) $(if $(PGO_PROFILE_FORCE),--force)
endif

# One file with the merged profile and its manifest, for PGO_PROFILE= in another build.
PGO_EXPORT ?= $(pgo_abs_dir)/profile-export.tar.gz
profile-export: $(call pgo_stamp,verify)
	@{ $(PGO_MANIFEST_CMD); echo training_args=$(PGO_TRAIN_ARGS); } > $(pgo_manifest)
	@$(PROFOPT) export --profile=$(pgo_profile_file) --manifest=$(pgo_manifest) --output=$(PGO_EXPORT) \
		--record=$(pgo_abs_dir)/profile-manifest.json

# GCC keeps its profiles next to the objects: they are archived before the clean (once: an
# interrupted clean finds the archive and does not archive the cleaned tree) and put back in
# the same step, so the stamp says "clean and profiles in place".
pgo_stash_save = $(if $(pgo_is_gcc),test -f $(pgo_stash) || $(PROFOPT) stash save $(pgo_skip) --dir=$(PGO_BUILD_DIR) --archive=$(pgo_stash),true)
pgo_clean_keeping = sh -c '$(PGO_CLEAN) $(if $(pgo_is_gcc),&& $(PROFOPT) stash restore --dir=$(PGO_BUILD_DIR) --archive=$(pgo_stash))'

$(call pgo_stamp,clean): $(call pgo_after,clean,merge)
	@rm -f $(call pgo_stamp,use) $(call pgo_stamp,verify)
	@$(pgo_stash_save)
	@$(call pgo_run,clean keeping profiles,clean) $(pgo_clean_keeping)

$(call pgo_stamp,use): $(call pgo_after,use,clean)
	@$(if $(and $(PGO_SOURCE_ROOT),$(wildcard $(pgo_fingerprint))),$(PROFOPT) check --against=$(pgo_fingerprint) --max-changed=$(PGO_MAX_CHANGED))
	@$(call pgo_run,rebuild with profile,use) sh -c '$(PGO_BUILD_USE)'

$(call pgo_stamp,verify): $(call pgo_after,verify,use)
	@echo "==> verify" >&2
	@$(PROFOPT) check --build-log=$(call pgo_log,use) --max-changed=999999 | sed -n '1,6p' >&2
	@$(PROFOPT) verify --family=$(PGO_CC_FAMILY) --objdir=$(PGO_BUILD_DIR) --stamp=$(call pgo_stamp,verify) \
		$(if $(pgo_is_gcc),,--profdata=$(PGO_PROFDATA) --tool=$(LLVM_PROFDATA)) \
		$(foreach o,$(PGO_VERIFY_REQUIRE),--require=$(o))

# Drops the build but keeps the profile: the next profile-opt only rebuilds with it.
clean-retain-profile:
	@if test -f $(call pgo_stamp,merge); then \
		$(pgo_stash_save) && \
		$(call pgo_run,clean keeping profiles,clean) $(pgo_clean_keeping) && \
		rm -f $(call pgo_stamp,use) $(call pgo_stamp,verify); \
	else \
		$(PROFOPT) run --label="clean (no merged profile to keep)" --log=$(call pgo_log,clean) -- sh -c '$(PGO_CLEAN)' && \
		rm -f $(foreach s,instrument train merge clean use verify,$(call pgo_stamp,$(s))); \
	fi

# Drops only the profiles (and the stages that depend on them).
profile-removal:
	rm -rf $(PGO_RAW_DIR) $(PGO_PROFDATA) $(pgo_stash) $(pgo_abs_dir)/logs/train $(pgo_abs_dir)/logs/train-* \
		$(pgo_abs_dir)/train-results*.json $(pgo_abs_dir)/train-*.stamp $(pgo_fingerprint) $(pgo_abs_dir)/report.*
	$(if $(pgo_is_gcc),find $(PGO_BUILD_DIR) -name '*.gcda' -exec rm -f {} + 2>/dev/null || true)
	rm -f $(foreach s,instrument train merge clean use verify,$(call pgo_stamp,$(s)))

pgo-clean:
	rm -rf $(pgo_abs_dir)

pgo-status:
	@$(PROFOPT) summary $(foreach s,$(pgo_stages),$(call pgo_stamp,$(s))) || true

pgo-summary:
	@$(PROFOPT) summary --json $(foreach s,$(pgo_stages),$(call pgo_stamp,$(s)))
