# ===========================================================================
#                    ax_pgo.m4 (part of profopt)
# ===========================================================================
#
# SYNOPSIS
#
#   AX_PGO([ACTION-IF-ENABLED], [ACTION-IF-DISABLED])
#
# DESCRIPTION
#
#   Adds --enable-optimizations (profile-guided optimization, PGO) to a
#   configure script and sets up everything a PGO build needs, so that a
#   missing or mismatched tool is a configure error, never a failure half-way
#   through a build.  Its options (configure --help) are described in
#   profopt(1), CONFIGURE OPTIONS.
#
#   The C compiler is identified by what it predefines, not by its name: a
#   "gcc" that is really clang is clang.  Families: gcc, clang, apple-clang.
#   For clang, llvm-profdata must have the compiler's major version (the raw
#   profile format changes between LLVM releases): LLVM_PROFDATA= (used or
#   refused), else beside the real clang ("$CC -###", symlinks resolved), else
#   llvm-profdata-N, llvm-profdata, xcrun -find llvm-profdata.  GCC needs no
#   tool of its own: libgcov adds the counts, and profopt reads the .gcda files.
#
#   A cross build (--host=TRIPLE, or CC="clang --target=TRIPLE") trains by
#   running the target's programs: AX_PGO finds how (a given runner, directly,
#   or the target's qemu-user with -L of its C library), proves it on a test
#   program, or stops saying what to install or pass.  It has no BOLT stage.
#   A build or source directory whose path holds white space or a character
#   GNU make or the shell reads as syntax is refused, naming the character.
#   The convention is CPython's: after --enable-optimizations a plain "make"
#   runs "make profile-opt" (pgo.mk reads PGO_ENABLED).
#
#   Substituted (AC_SUBST), and written by config.status as NAME = VALUE lines to
#   pgo-config.mk beside the Makefile, which pgo.mk includes (a configure script adds
#   its own settings by naming them in ax_pgo_config_vars after AX_PGO):
#
#     PGO_ENABLED               yes or no
#     PROFOPT                   the profopt driver (with --enable-optimizations)
#     PGO_CC_FAMILY             gcc, clang, apple-clang or unknown
#     PGO_CC_VERSION, PGO_CC_MAJOR   e.g. 14.0.6 and 14
#     LLVM_PROFDATA, PGO_PROFILE_TOOL, PGO_PROFILE_TOOL_VERSION   clang's llvm-profdata
#     PGO_GEN_CFLAGS, PGO_GEN_LDFLAGS   the instrumented build
#     PGO_USE_CFLAGS, PGO_USE_LDFLAGS   the profile-use build (clang's name $(PGO_USE_PROFDATA))
#     PGO_CS, PGO_CSGEN_CFLAGS, PGO_CSGEN_LDFLAGS   --enable-pgo-cs: yes, the second build's flags
#     PGO_BOLT, LLVM_BOLT, MERGE_FDATA   --enable-bolt: yes, and its tools
#     PGO_BOLT_LDFLAGS, PGO_BOLT_CFLAGS, PGO_BOLT_ICF   its flags (-Wl,--emit-relocs: the use link)
#     PGO_TARGET                the machine the compiler builds for ($CC -dumpmachine)
#     PGO_RUNNER                what runs the target's programs for training (empty: directly)
#     PGO_RUNNER_EMULATED       yes under qemu-user (pgo.mk makes its programs follow exec)
#     PGO_TRAIN_TIMEOUT_SCALE   factor of the training's timeouts (10 emulated, else 1)
#     PGO_NM, PGO_READELF, PGO_OBJDUMP   a cross build's tools for verify (else empty)
#     PGO_DISPATCH_CFLAGS, PGO_DISPATCH_LDFLAGS   the flags that keep an interpreter's computed
#                               gotos apart where the compiler merges them (the first already in
#                               the generate, use and cs flags; the second for an LTO link)
#     PGO_DISPATCH_REF_CFLAGS   those flags for verify's reference compile of an eval loop
#     PGO_LAUNCHER, PGO_DISTCC_HOSTS   distcc or icecc, and --with-distcc's HOSTS
#     PGO_THIN_LAUNCHER, PGO_THINLTO_WORKERS   --with-thinlto-workers: pgo-launch/thin-link, CMDS
#
#   A configure script may set before AX_PGO: ax_pgo_update_default (the
#   counter update mode), ax_pgo_instr_default (ir or frontend), and
#   ax_pgo_bolt_default=auto (a PGO build has the BOLT stage when its tools are
#   found, and says why not otherwise; m4_define([AX_PGO_BOLT_DEFAULT_HELP],
#   [TEXT]) puts that default in --help); ax_pgo_compose_cc=no (it puts
#   PGO_LAUNCHER and PGO_THIN_LAUNCHER before $CC itself, e.g. after a
#   compiler cache); ax_pgo_find_profopt=no (it builds its own driver; else
#   PROFOPT=PATH or profopt in PATH must run).
#
#   ACTION-IF-ENABLED runs when --enable-optimizations was given and all
#   checks passed; ACTION-IF-DISABLED otherwise.
#
# LICENSE
#
#   Copyright (c) 2026 The profopt authors
#
#   Copying and distribution of this file, with or without modification, are
#   permitted in any medium without royalty provided the copyright notice
#   and this notice are preserved.  This file is offered as-is, without any
#   warranty.

#serial 11

# _AX_PGO_ARG(enable|with, NAME, OPTION, HELP, VAR, [DEFAULT]): the option's value in VAR, else
# DEFAULT (none: VAR unchanged).
AC_DEFUN([_AX_PGO_ARG], [m4_if([$1], [enable], [AC_ARG_ENABLE], [AC_ARG_WITH])([$2],
  [AS_HELP_STRING([$3], [$4])], [$5=$$1val], m4_ifval([$6], [[$5=$6]]))])

AC_DEFUN([AX_PGO], [
AC_REQUIRE([AC_PROG_CC])
AC_REQUIRE([AC_PROG_SED])
_AX_PGO_ARG([enable], [optimizations], [--enable-optimizations],
  [build with profile-guided optimization (instrument, train, rebuild)], [ax_pgo_enabled], [no])
_AX_PGO_ARG([with], [llvm-profdata], [--with-llvm-profdata=PATH],
  [llvm-profdata to merge clang profiles (default: the one matching clang)], [LLVM_PROFDATA], [])
_AX_PGO_ARG([with], [pgo-profile-update], [--with-pgo-profile-update=MODE],
  [counter updates in the instrumented build: atomic (clang's default), prefer-atomic or single (gcc's default)], [ax_pgo_update], [${ax_pgo_update_default:-auto}])
_AX_PGO_ARG([with], [pgo-instrumentation], [--with-pgo-instrumentation=KIND],
  [Clang: ir (counts in LLVM IR) or frontend (counts in clang's front end, as stock CPython does); default: ir, unless the configure script chooses (profopt's: by CPython version)], [ax_pgo_instr], [${ax_pgo_instr_default-ir}])
_AX_PGO_ARG([enable], [pgo-partial-training], [--enable-pgo-partial-training],
  [GCC: compile code the training never ran as without a profile, not for size], [ax_pgo_partial], [no])
_AX_PGO_ARG([enable], [pgo-dispatch-fix], [--disable-pgo-dispatch-fix],
  [compile as the compiler does by default even where it merges every computed goto of an interpreter's dispatch into one indirect jump (clang 19); default: where configure finds it does, with the flags that undo it (--enable-pgo-dispatch-fix: their absence is an error)], [ax_pgo_dispatch], [auto])
_AX_PGO_ARG([enable], [pgo-cs], [--enable-pgo-cs],
  [Clang: context-sensitive PGO (a second instrumented build and training)], [ax_pgo_cs], [no])
dnl Context-sensitive PGO builds on IR instrumentation: it wins over a default of frontend.
AS_IF([test "x$ax_pgo_cs" != xno && test "x$with_pgo_instrumentation" = x], [ax_pgo_instr=ir])
_AX_PGO_ARG([enable], [bolt], [--enable-bolt],
  [optimize the linked program's layout with LLVM BOLT after the PGO build (default: ]m4_ifdef([AX_PGO_BOLT_DEFAULT_HELP], [AX_PGO_BOLT_DEFAULT_HELP], [no])[)], [ax_pgo_bolt], [${ax_pgo_bolt_default:-no}])
_AX_PGO_ARG([with], [llvm-bolt], [--with-llvm-bolt=PATH],
  [llvm-bolt for --enable-bolt (merge-fdata is looked for beside it)], [LLVM_BOLT], [])
AC_ARG_VAR([LLVM_BOLT], [llvm-bolt for --enable-bolt])
AC_ARG_VAR([MERGE_FDATA], [merge-fdata of the same LLVM version as llvm-bolt])
AC_ARG_VAR([LLVM_PROFDATA], [llvm-profdata of the same LLVM version as clang])
AC_ARG_VAR([PROFOPT], [the profopt driver pgo.mk runs (default: profopt in PATH)])
_AX_PGO_ARG([with], [pgo-runner], [--with-pgo-runner=CMD],
  [run the target's programs (training, the checks of the pipeline) through CMD, e.g. 'qemu-aarch64 -L /usr/aarch64-linux-gnu', an ssh command or a script (default, when this machine cannot run them itself: the qemu-user emulator of the target, with its C library); --without-pgo-runner runs them directly, unchecked], [ax_pgo_runner], [auto])
AC_ARG_VAR([PGO_RUNNER], [command that runs the target's programs for training (as --with-pgo-runner)])
AC_ARG_VAR([PGO_TRAIN_TIMEOUT_SCALE], [factor of the training's timeouts (default: 10 where the target's programs are emulated, else 1)])
_AX_PGO_ARG([with], [distcc], [--with-distcc@<:@=HOSTS@:>@],
  [compile through distcc, the profile compiles of both PGO stages on its workers where the compiler allows it (HOSTS: a DISTCC_HOSTS list; default: distcc's own, DISTCC_HOSTS or its hosts file)], [ax_pgo_distcc], [no])
_AX_PGO_ARG([with], [icecc], [--with-icecc@<:@=PATH@:>@],
  [compile through icecream (icecc), its scheduler choosing the workers as its users set it up], [ax_pgo_icecc], [no])
_AX_PGO_ARG([with], [thinlto-workers], [--with-thinlto-workers@<:@=CMDS@:>@],
  [clang: run a -flto=thin link's backend compiles as jobs of their own in the profile-use stage, on workers (CMDS: commands that each run a shell line on a worker, as 'ssh HOST' does, separated by ';'; without CMDS: here, in parallel)], [ax_pgo_thin], [no])

_AX_PGO_COMPILER_ID
dnl The machine the compiler builds for (clang --target=T says T): the emulator to look for.
PGO_TARGET=`$CC $CFLAGS -dumpmachine 2>/dev/null`
test -n "$PGO_TARGET" || PGO_TARGET=${host_alias:-unknown}
ax_pgo_tool_error= PGO_PROFILE_TOOL= PGO_PROFILE_TOOL_VERSION=
AS_CASE([$ax_cv_pgo_cc_family],
  [clang|apple-clang], [_AX_PGO_FIND_TOOL([llvm-profdata], [LLVM_PROFDATA], [merge --version])])
_AX_PGO_FLAGS
_AX_PGO_LAUNCHER
_AX_PGO_THIN_LAUNCHER

PGO_ENABLED=no PGO_BOLT=no PGO_BOLT_LDFLAGS= PGO_BOLT_CFLAGS= PGO_BOLT_ICF=
PGO_NM= PGO_READELF= PGO_OBJDUMP= ax_pgo_foreign=no
AS_IF([test "x$ax_pgo_enabled" != xno], [
  _AX_PGO_CHECK_PATH([build directory], [`pwd`])
  _AX_PGO_CHECK_PATH([source directory], [`cd "$srcdir" && pwd`])
  AS_IF([test "x$ax_cv_pgo_cc_family" = xunknown],
    [AC_MSG_ERROR([--enable-optimizations needs GCC or Clang, but $CC predefines neither __GNUC__ nor __clang__])])
  AS_IF([test "x$ax_pgo_tool_error" != x], [AC_MSG_ERROR([$ax_pgo_tool_error])])
  _AX_PGO_CHECK_RUNTIME
  _AX_PGO_RUNNER
  AS_IF([test "x$ax_pgo_find_profopt" != xno], [_AX_PGO_FIND_PROFOPT])
  dnl BOLT instruments and runs the linked program on this machine, with its own runtime.
  AS_IF([test "x$ax_pgo_bolt" != xno], [
    AS_IF([test $ax_pgo_foreign = yes || test -n "$PGO_RUNNER"],
      [ax_pgo_bolt_error="the BOLT stage runs the linked program on this machine, not $PGO_TARGET's (a cross build has no BOLT stage)"],
      [_AX_PGO_FIND_BOLT])
    AS_IF([test "x$ax_pgo_bolt_error" = x], [],
      [test "x$ax_pgo_bolt" = xauto], [AC_MSG_NOTICE([no BOLT stage: $ax_pgo_bolt_error])],
      [AC_MSG_ERROR([--enable-bolt: $ax_pgo_bolt_error])])])
  PGO_ENABLED=yes
  $1
], [$2])
_AX_PGO_CONFIG_MK
])

# _AX_PGO_CONFIG_MK: AX_PGO's settings (_AX_PGO_VARS) are substituted, and config.status
# writes them (and PROFOPT, when AX_PGO looked for it) to pgo-config.mk as AC_OUTPUT has them.
m4_define([_AX_PGO_VARS], [[PGO_ENABLED PGO_CC_FAMILY PGO_CC_VERSION PGO_CC_MAJOR PGO_TARGET LLVM_PROFDATA
  PGO_PROFILE_TOOL PGO_PROFILE_TOOL_VERSION PGO_GEN_CFLAGS PGO_GEN_LDFLAGS PGO_USE_CFLAGS PGO_USE_LDFLAGS
  PGO_CS PGO_CSGEN_CFLAGS PGO_CSGEN_LDFLAGS PGO_BOLT LLVM_BOLT MERGE_FDATA PGO_BOLT_LDFLAGS PGO_BOLT_CFLAGS
  PGO_BOLT_ICF PGO_RUNNER PGO_RUNNER_EMULATED PGO_TRAIN_TIMEOUT_SCALE PGO_NM PGO_READELF PGO_OBJDUMP
  PGO_LAUNCHER PGO_DISTCC_HOSTS PGO_THIN_LAUNCHER PGO_THINLTO_WORKERS PGO_DISPATCH_CFLAGS
  PGO_DISPATCH_LDFLAGS PGO_DISPATCH_REF_CFLAGS]])
AC_DEFUN([_AX_PGO_CONFIG_MK], [
m4_foreach_w([ax_pgo_var], _AX_PGO_VARS, [AC_SUBST(ax_pgo_var)])
ax_pgo_config_vars="_AX_PGO_VARS"
AS_IF([test "x$ax_pgo_find_profopt" != xno], [ax_pgo_config_vars="PROFOPT $ax_pgo_config_vars"])
AC_CONFIG_COMMANDS_PRE([
ax_pgo_config_q="# pgo-config.mk - written by config.status (AX_PGO): the settings pgo.mk reads"
for ax_pgo_v in $ax_pgo_config_vars; do
  AS_VAR_COPY([ax_pgo_val], [$ax_pgo_v])
  ax_pgo_config_q="$ax_pgo_config_q
$ax_pgo_v = $ax_pgo_val"
done
ax_pgo_config_q=`printf '%s\n' "$ax_pgo_config_q" | $SED 's/'"'"'/&"&"&/g'`
])
AC_CONFIG_COMMANDS([pgo-config.mk],
  [printf '%s\n' "$ax_pgo_config_text" > pgo-config.mk.tmp && mv -f pgo-config.mk.tmp pgo-config.mk],
  [ax_pgo_config_text='$ax_pgo_config_q'])
])

# _AX_PGO_DISTCC_NAMES: clang names a static function's profile after the file it compiles
# ("file.c:f"), and a distcc worker compiles a temporary file: PGO_LAUNCHER becomes a script,
# pgo-launch/distcc, that names each compile's source (-Xclang=ARG: distcc passes it on).
AC_DEFUN([_AX_PGO_DISTCC_NAMES], [
AC_MSG_CHECKING([whether $CC names a compile's source for its profile (-Xclang=-main-file-name)])
ax_pgo_save_CFLAGS=$CFLAGS
CFLAGS="$CFLAGS -Werror=unused-command-line-argument -Xclang=-main-file-name -Xclang=conftest.c"
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[static int f(void) { return 0; }]], [[return f();]])],
  [ax_pgo_names=yes], [ax_pgo_names=no])
CFLAGS=$ax_pgo_save_CFLAGS
AC_MSG_RESULT([$ax_pgo_names])
AS_IF([test $ax_pgo_names = no],
  [AC_MSG_ERROR([--with-distcc: a distcc worker compiles a temporary file, and clang names each static function's profile after the file it compiles, so the profile of every static function would be found by no later compile; $CC cannot be told the source's name in a form distcc passes on (-Xclang=ARG; Debian's clang-19 can). Use that clang, or --with-pgo-instrumentation=ir (whose compiles distcc keeps here), or build without distcc])])
mkdir -p pgo-launch
dnl (a here-document in quotes: the script's own $ signs reach it as they are; then its exec)
cat > pgo-launch/distcc <<'AX_PGO_EOF'
#!/bin/sh
# Written by configure (AX_PGO --with-distcc, clang): distcc, each compile's source named for
# clang's profile (a worker compiles a temporary file).
src= n=0 compile=no
for a
do
	case $a in
	-c) compile=yes ;;
	-*) ;;
	*.c|*.cc|*.cp|*.cpp|*.cxx|*.c++|*.C|*.m|*.mm) src=$a n=`expr $n + 1` ;;
	esac
done
test $compile = yes && test $n = 1 && set -- "$[@]" "-Xclang=-main-file-name" "-Xclang=`basename "$src"`"
AX_PGO_EOF
ax_pgo_launch=`pwd`/pgo-launch/distcc
printf 'exec %s "$[@]"\n' "$ax_pgo_distcc_path" >> pgo-launch/distcc && chmod +x pgo-launch/distcc ||
  AC_MSG_ERROR([cannot write $ax_pgo_launch])
PGO_LAUNCHER=$ax_pgo_launch
])

# _AX_PGO_LAUNCHER: --with-distcc[=HOSTS] and --with-icecc, PGO_LAUNCHER put before $CC
# (unless ax_pgo_compose_cc=no); what stays local, and why, is said here and after each build.
AC_DEFUN([_AX_PGO_LAUNCHER], [
PGO_LAUNCHER= PGO_DISTCC_HOSTS=
AS_IF([test "x$ax_pgo_distcc" != xno && test "x$ax_pgo_icecc" != xno],
  [AC_MSG_ERROR([--with-distcc and --with-icecc: choose one distributed compiler])])
AS_IF([test "x$ax_pgo_distcc" != xno], [
  AC_PATH_PROG([ax_pgo_distcc_path], [distcc])
  AS_IF([test -z "$ax_pgo_distcc_path"], [AC_MSG_ERROR([--with-distcc: no distcc in PATH (Debian: apt-get install distcc)])])
  AS_IF([test "x$ax_pgo_distcc" != xyes], [PGO_DISTCC_HOSTS=$ax_pgo_distcc])
  AC_MSG_CHECKING([for distcc's workers])
  ax_pgo_hosts=`DISTCC_HOSTS=${PGO_DISTCC_HOSTS:-$DISTCC_HOSTS} && export DISTCC_HOSTS && test -n "$DISTCC_HOSTS" || unset DISTCC_HOSTS; "$ax_pgo_distcc_path" --show-hosts 2>/dev/null | grep -v '^localhost' | tr '\n' ' '`
  AC_MSG_RESULT([${ax_pgo_hosts:-none}])
  AS_IF([test -z "$ax_pgo_hosts"],
    [AC_MSG_ERROR([--with-distcc: distcc has no worker but this machine, so every compile would run here: pass --with-distcc=HOSTS, or set DISTCC_HOSTS or distcc's hosts file])])
  PGO_LAUNCHER=$ax_pgo_distcc_path
  AS_IF([test "$ax_cv_pgo_cc_family/$ax_pgo_instr" = clang/frontend], [_AX_PGO_DISTCC_NAMES])
  AS_CASE([$ax_cv_pgo_cc_family/$ax_pgo_instr],
    [gcc/*], [AC_MSG_NOTICE([distcc keeps gcc's -fprofile-generate and -fprofile-use compiles on this machine (the object names where its counts go): both PGO stages compile here])],
    [*/ir], [AC_MSG_NOTICE([distcc keeps clang's IR -fprofile-generate and -fprofile-use compiles on this machine: both PGO stages compile here (--with-pgo-instrumentation=frontend sends them to the workers)])])])
AS_IF([test "x$ax_pgo_icecc" != xno], [
  AS_IF([test "x$ax_pgo_icecc" = xyes], [AC_PATH_PROG([ax_pgo_icecc_path], [icecc])], [ax_pgo_icecc_path=$ax_pgo_icecc])
  AS_IF([test -n "$ax_pgo_icecc_path" && test -x "$ax_pgo_icecc_path"], [],
    [AC_MSG_ERROR([--with-icecc: no icecc${ax_pgo_icecc_path:+ at $ax_pgo_icecc_path} (Debian: apt-get install icecc)])])
  PGO_LAUNCHER=$ax_pgo_icecc_path
  AS_CASE([$ax_cv_pgo_cc_family/$ax_pgo_instr],
    [gcc/*], [AC_MSG_NOTICE([icecc keeps gcc's -fprofile-generate and -fprofile-use compiles on this machine: both PGO stages compile here])],
    [*/ir], [AC_MSG_NOTICE([icecc keeps clang's IR -fprofile-generate compiles on this machine: the instrumented stage compiles here, the use stage on the workers (--with-pgo-instrumentation=frontend sends both)])])])
AS_IF([test -n "$PGO_LAUNCHER"], [
  _AX_PGO_CHECK_PATH([distributed compiler], [$PGO_LAUNCHER])
  AS_IF([test "x$ax_pgo_compose_cc" != xno], [CC="$PGO_LAUNCHER $CC"])])
])

# _AX_PGO_THIN_LAUNCHER: --with-thinlto-workers[=CMDS], pgo-launch/thin-link before $CC (after
# distcc or icecc).
AC_DEFUN([_AX_PGO_THIN_LAUNCHER], [
PGO_THIN_LAUNCHER= PGO_THINLTO_WORKERS=
AS_IF([test "x$ax_pgo_thin" != xno], [
  AS_CASE([$ax_cv_pgo_cc_family], [clang], [],
    [AC_MSG_ERROR([--with-thinlto-workers: ThinLTO's backends are clang's; $CC is $ax_cv_pgo_cc_family])])
  AS_IF([test "x$ax_pgo_thin" != xyes], [PGO_THINLTO_WORKERS=$ax_pgo_thin])
  mkdir -p pgo-launch
  cat > pgo-launch/thin-link <<'AX_PGO_EOF'
#!/bin/sh
# Written by configure (AX_PGO --with-thinlto-workers): in the use stage (pgo.mk sets
# PGO_THIN_LINK_DIR) a link runs through profopt thin-link; everything else as it is.
case " $[*] " in *" -c "*) exec "$[@]" ;; esac
test -n "$PGO_THIN_LINK_DIR" || exec "$[@]"
exec "$PGO_PROFOPT" thin-link --dir="$PGO_THIN_LINK_DIR" --summary="$PGO_THIN_LINK_DIR/summary.txt" \
	--worker="$PGO_THINLTO_WORKERS" -- "$[@]"
AX_PGO_EOF
  chmod +x pgo-launch/thin-link || AC_MSG_ERROR([cannot write pgo-launch/thin-link])
  PGO_THIN_LAUNCHER=`pwd`/pgo-launch/thin-link
  dnl the workers as thin-link takes them: split at ';', blank ones dropped (none: all here)
  ax_pgo_thin_list=`printf '%s' "$PGO_THINLTO_WORKERS" | awk -v RS=';' '{ gsub(/^@<:@ \t\n@:>@+|@<:@ \t\n@:>@+$/, "") } NF { printf "%s%s", (n++ ? "; " : ""), $[0] }'`
  AS_IF([test -n "$ax_pgo_thin_list"], [ax_pgo_thin_where="on: $ax_pgo_thin_list"],
    [test -n "$PGO_THINLTO_WORKERS"], [ax_pgo_thin_where="here (the worker list names no command)"],
    [ax_pgo_thin_where=here])
  AC_MSG_NOTICE([ThinLTO links of the use stage run their backends through profopt thin-link, $ax_pgo_thin_where])
  AS_IF([test "x$ax_pgo_compose_cc" != xno], [CC="$PGO_THIN_LAUNCHER $CC"])])
])

# _AX_PGO_FIND_PROFOPT: the profopt driver (PROFOPT=, or profopt in PATH), checked by running it.
AC_DEFUN([_AX_PGO_FIND_PROFOPT], [
AC_PATH_PROG([PROFOPT], [profopt])
AS_IF([test -z "$PROFOPT"],
  [AC_MSG_ERROR([--enable-optimizations needs profopt, which runs the PGO pipeline, and none is in PATH: install it (in profopt's source tree: ./configure && make && make install-profopt) or pass PROFOPT=/path/to/profopt])])
AC_MSG_CHECKING([whether $PROFOPT runs])
AS_IF([test -x "$PROFOPT" && ax_pgo_profopt_version=`"$PROFOPT" --version 2>/dev/null`],
  [AC_MSG_RESULT([yes: $ax_pgo_profopt_version])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([PROFOPT=$PROFOPT is not a working profopt (it does not run '$PROFOPT --version'): pass the path of an installed profopt])])
])

# _AX_PGO_CHECK_PATH(WHAT, PATH): stops configure when PATH holds a character the pipeline
# cannot carry, naming it: white space, : % [ ] * ? # for make; & | ; < > ( ) $ \ ` and quotes
# for the shell of its recipes ('&' for config.status too).
AC_DEFUN([_AX_PGO_CHECK_PATH], [
ax_pgo_path="$2"
AS_CASE([$ax_pgo_path], [*" "*|*"	"*|*"
"*], [AC_MSG_ERROR([the $1 '$ax_pgo_path' contains white space (a space, tab or newline): GNU make splits file names there, so the PGO pipeline cannot name its files under it. Use a directory whose path has no white space (move or rename it; a symbolic link does not help, as make sees the real path)])])
for ax_pgo_c in '&' '|' ';' '<' '>' '(' ')' '*' '?' '@<:@' '@:>@' ':' '%' '$' '\' "'" '"' '`' '@%:@'; do
  AS_CASE([$ax_pgo_path], [*"$ax_pgo_c"*],
    [AC_MSG_ERROR([the $1 '$ax_pgo_path' contains '$ax_pgo_c', which GNU make or the shell running its recipes would read as syntax or a pattern, not as part of a file name. Use a directory whose path holds only letters (non-ASCII too), digits, / and . , _ - + = @ ~ ^ ! { } (move or rename it; a symbolic link does not help, as make sees the real path)])])
done
])

# _AX_PGO_COMPILER_ID: sets ax_cv_pgo_cc_family, PGO_CC_VERSION, PGO_CC_MAJOR.
AC_DEFUN([_AX_PGO_COMPILER_ID], [
AC_CACHE_CHECK([which compiler family $CC is], [ax_cv_pgo_cc_family], [
  ax_cv_pgo_cc_family=unknown
  for ax_pgo_f in 'apple-clang:defined __clang__ && defined __apple_build_version__' \
      'clang:defined __clang__' 'gcc:defined __GNUC__'; do
    test $ax_cv_pgo_cc_family = unknown || break
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#if !(${ax_pgo_f@%:@*:})
#error not ${ax_pgo_f%%:*}
#endif]])], [ax_cv_pgo_cc_family=${ax_pgo_f%%:*}])
  done
])
AS_CASE([$ax_cv_pgo_cc_family],
  [gcc], [ax_pgo_macros="__GNUC__ __GNUC_MINOR__ __GNUC_PATCHLEVEL__"],
  [clang|apple-clang], [ax_pgo_macros="__clang_major__ __clang_minor__ __clang_patchlevel__"],
  [ax_pgo_macros=""])
AC_CACHE_CHECK([the version of $CC], [ax_cv_pgo_cc_version], [
  ax_cv_pgo_cc_version=
  for ax_pgo_macro in $ax_pgo_macros; do
    AC_COMPUTE_INT([ax_pgo_part], [$ax_pgo_macro], [], [ax_pgo_part=0])
    ax_cv_pgo_cc_version="$ax_cv_pgo_cc_version${ax_cv_pgo_cc_version:+.}$ax_pgo_part"
  done
  test -n "$ax_cv_pgo_cc_version" || ax_cv_pgo_cc_version=unknown
])
PGO_CC_FAMILY=$ax_cv_pgo_cc_family
PGO_CC_VERSION=$ax_cv_pgo_cc_version
PGO_CC_MAJOR=${ax_cv_pgo_cc_version%%.*}
])

# _AX_PGO_TOOL_VERSION(PATH, VERSION-ARGS): prints the tool's version (X.Y.Z).
AC_DEFUN([_AX_PGO_TOOL_VERSION], [`"$1" $2 2>&1 | $SED -n -e '/LLVM version/{s/.*LLVM version \([[0-9]][[0-9.]]*\).*/\1/p;q;}' -e '1s/.* \([[0-9]][[0-9.]]*\)$/\1/p' | head -n 1`])

# _AX_PGO_SEARCH(CANDIDATES, [VERSION-ARGS], [MATCH]): ax_pgo_hit, the first executable of
# CANDIDATES (paths, or names in PATH), with VERSION-ARGS the first whose version ax_pgo_ver
# passes the test MATCH (else empty); ax_pgo_found, each one tried and its version.
AC_DEFUN([_AX_PGO_SEARCH], [
ax_pgo_hit= ax_pgo_found=
for ax_pgo_cand in $1; do
  AS_CASE([$ax_pgo_cand], [*/*], [ax_pgo_path=$ax_pgo_cand], [ax_pgo_path=`command -v $ax_pgo_cand 2>/dev/null`])
  AS_IF([test -n "$ax_pgo_path" && test -x "$ax_pgo_path"], [], [continue])
  m4_ifval([$2], [ax_pgo_ver=_AX_PGO_TOOL_VERSION([$ax_pgo_path], [$2])
  ax_pgo_found="$ax_pgo_found${ax_pgo_found:+, }$ax_pgo_path (version ${ax_pgo_ver:-unknown})"
  AS_IF([$3], [ax_pgo_hit=$ax_pgo_path; break])], [ax_pgo_hit=$ax_pgo_path; break])
done
])

# _AX_PGO_CLANG_DIR: ax_pgo_clang_dir, the directory of the real clang that $CC runs (its -cc1
# through symlinks: Debian's /usr/lib/llvm-N/bin), or empty.
AC_DEFUN([_AX_PGO_CLANG_DIR], [
ax_pgo_real=`$CC -### -c -x c /dev/null -o /dev/null 2>&1 | $SED -n 's/^ *"\(@<:@^"@:>@*\)" "-cc1".*/\1/p' | head -n 1`
ax_pgo_clang_dir=
AS_IF([test -n "$ax_pgo_real"], [
  ax_pgo_real=`readlink -f "$ax_pgo_real" 2>/dev/null || echo "$ax_pgo_real"`
  ax_pgo_clang_dir=`dirname "$ax_pgo_real"`])
])

# _AX_PGO_FIND_TOOL(NAME, VAR, VERSION-ARGS): finds NAME of the compiler's major version.
# Sets VAR, PGO_PROFILE_TOOL(_VERSION), and ax_pgo_tool_error when none fits.
AC_DEFUN([_AX_PGO_FIND_TOOL], [
ax_pgo_tool_error=
AC_CACHE_CHECK([for $1 matching $ax_cv_pgo_cc_family $ax_cv_pgo_cc_version], [ax_cv_pgo_tool], [
  dnl An explicit choice is used or refused, never replaced by a search result.
  AS_IF([test -n "$$2"], [ax_pgo_cands=$$2], [
    _AX_PGO_CLANG_DIR
    dnl (macOS keeps it inside the Xcode toolchain)
    ax_pgo_cands="${ax_pgo_clang_dir:+$ax_pgo_clang_dir/$1} $1-$PGO_CC_MAJOR $1"
    command -v xcrun >/dev/null 2>&1 && ax_pgo_cands="$ax_pgo_cands `xcrun -find $1 2>/dev/null`"])
  _AX_PGO_SEARCH([$ax_pgo_cands], [$3], [test "${ax_pgo_ver%%.*}" = "$PGO_CC_MAJOR"])
  ax_cv_pgo_tool=${ax_pgo_hit:-no}
  ax_cv_pgo_tool_found=$ax_pgo_found
])
AS_IF([test "$ax_cv_pgo_tool" = no], [
  ax_pgo_pkg="llvm-$PGO_CC_MAJOR"
  AS_IF([test -n "$$2"],
    [ax_pgo_tool_error="$2=$$2 is not usable with $CC ($ax_cv_pgo_cc_family $ax_cv_pgo_cc_version): found ${ax_cv_pgo_tool_found:-nothing executable}, but $1 $PGO_CC_MAJOR is needed. Set $2 to $1 $PGO_CC_MAJOR (Debian: apt-get install $ax_pgo_pkg)"],
    [test -n "$ax_cv_pgo_tool_found"],
    [ax_pgo_tool_error="no $1 of version $PGO_CC_MAJOR for $CC ($ax_cv_pgo_cc_family $ax_cv_pgo_cc_version): found $ax_cv_pgo_tool_found. Install $1 $PGO_CC_MAJOR (Debian: apt-get install $ax_pgo_pkg) or pass $2=PATH"],
    [ax_pgo_tool_error="$1 not found for $CC ($ax_cv_pgo_cc_family $ax_cv_pgo_cc_version). Install $1 $PGO_CC_MAJOR (Debian: apt-get install $ax_pgo_pkg) or pass $2=PATH"])
  $2= PGO_PROFILE_TOOL= PGO_PROFILE_TOOL_VERSION=
], [
  $2=$ax_cv_pgo_tool
  PGO_PROFILE_TOOL=$ax_cv_pgo_tool
  PGO_PROFILE_TOOL_VERSION=_AX_PGO_TOOL_VERSION([$ax_cv_pgo_tool], [$3])
])
])

# _AX_PGO_CHECK_FLAG(FLAG, ACTION-IF-OK, [ACTION-IF-NOT]): whether $CC accepts FLAG (-Werror).
AC_DEFUN([_AX_PGO_CHECK_FLAG], [
AS_VAR_PUSHDEF([ax_pgo_cv], [ax_cv_pgo_flag_$1])
AC_CACHE_CHECK([whether $CC accepts $1], [ax_pgo_cv], [
  ax_pgo_save_CFLAGS=$CFLAGS
  CFLAGS="$CFLAGS -Werror $1"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [AS_VAR_SET([ax_pgo_cv], [yes])], [AS_VAR_SET([ax_pgo_cv], [no])])
  CFLAGS=$ax_pgo_save_CFLAGS
])
AS_VAR_IF([ax_pgo_cv], [yes], [$2], [$3])
AS_VAR_POPDEF([ax_pgo_cv])
])

# _AX_PGO_CHECK_RUNTIME: an instrumented program must link (clang's profile runtime is a
# separate package on Debian), rather than fail in the middle of the instrumented build.
AC_DEFUN([_AX_PGO_CHECK_RUNTIME], [
AC_CACHE_CHECK([whether $CC links instrumented programs], [ax_cv_pgo_links], [
  ax_pgo_save_CFLAGS=$CFLAGS ax_pgo_save_LDFLAGS=$LDFLAGS
  CFLAGS="$CFLAGS $PGO_GEN_CFLAGS" LDFLAGS="$LDFLAGS $PGO_GEN_LDFLAGS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [ax_cv_pgo_links=yes], [ax_cv_pgo_links=no])
  CFLAGS=$ax_pgo_save_CFLAGS LDFLAGS=$ax_pgo_save_LDFLAGS
])
AS_IF([test "$ax_cv_pgo_links" = no], [
  AS_CASE([$ax_cv_pgo_cc_family],
    [gcc], [ax_pgo_hint="libgcov comes with gcc: is gcc-$PGO_CC_MAJOR complete?"],
    [AS_IF([test "$cross_compiling" = yes], [
      _AX_PGO_DEBARCH
      ax_pgo_hint="clang's profile runtime for $PGO_TARGET is missing (Debian: dpkg --add-architecture $ax_pgo_debarch && apt-get update && apt-get install libclang-rt-$PGO_CC_MAJOR-dev:$ax_pgo_debarch)"],
      [ax_pgo_hint="clang's profile runtime is missing (Debian: apt-get install libclang-rt-$PGO_CC_MAJOR-dev)"])])
  AC_MSG_ERROR([$CC cannot link a program built with $PGO_GEN_CFLAGS: $ax_pgo_hint; see config.log])
])
])

# _AX_PGO_DEBARCH: ax_pgo_debarch, Debian's name of the architecture of $PGO_TARGET (for hints).
AC_DEFUN([_AX_PGO_DEBARCH], [
AS_CASE([$PGO_TARGET],
  [aarch64-*], [ax_pgo_debarch=arm64], [x86_64-*], [ax_pgo_debarch=amd64], [i?86-*], [ax_pgo_debarch=i386],
  [arm*hf], [ax_pgo_debarch=armhf], [arm*], [ax_pgo_debarch=armel], [powerpc64le-*], [ax_pgo_debarch=ppc64el],
  [loongarch64-*], [ax_pgo_debarch=loong64], [ax_pgo_debarch=${PGO_TARGET%%-*}])
])

# _AX_PGO_ELF_SIG(FILE): FILE's ELF identity as hex (magic, class, byte order, machine), empty
# for a file that is not ELF: the programs of one machine have the same.
AC_DEFUN([_AX_PGO_ELF_SIG], [`od -An -tx1 -N20 "$1" 2>/dev/null | tr -d ' \n' | cut -c1-12,37-40 | $SED -n '/^7f454c46/p'`])

# _AX_PGO_RUNS(RUNNER, IF-RUNS, IF-NOT): whether RUNNER (shell text; empty: none) runs
# ./conftest, which prints profopt-runner-ok, within 120 seconds (a hang would hang training).
AC_DEFUN([_AX_PGO_RUNS], [
echo "$as_me:$LINENO: running: $1 ./conftest$ac_exeext" >&AS_MESSAGE_LOG_FD
ax_pgo_out=`eval "$ax_pgo_bound $1 ./conftest$ac_exeext" 2>&AS_MESSAGE_LOG_FD </dev/null`
echo "$as_me:$LINENO: it printed: $ax_pgo_out" >&AS_MESSAGE_LOG_FD
AS_CASE([$ax_pgo_out], [*profopt-runner-ok*], [$2], [$3])
])

# _AX_PGO_RUNNER_PROGRAM(INCLUDES, BODY): the runner's test program; BODY may start a thread
# running ax_pgo_thread.
AC_DEFUN([_AX_PGO_RUNNER_PROGRAM], [AC_LANG_PROGRAM([[#include <stdio.h>
$1
static void *ax_pgo_thread(void *arg) { return arg; }]], [[$2
  (void)ax_pgo_thread;
  puts("profopt-runner-ok");]])])

# _AX_PGO_RUNNER_CHOOSE: with ./conftest linked, whether the target's programs are this
# machine's (ax_pgo_foreign) and which runner runs them.
AC_DEFUN([_AX_PGO_RUNNER_CHOOSE], [
  ax_pgo_build_sig=_AX_PGO_ELF_SIG([/bin/sh])
  ax_pgo_target_sig=_AX_PGO_ELF_SIG([conftest$ac_exeext])
  AS_IF([test "$cross_compiling" = yes || test "x$ax_pgo_build_sig" != "x$ax_pgo_target_sig"], [ax_pgo_foreign=yes])
  AS_CASE([$ax_pgo_runner],
    [no], [PGO_RUNNER= ax_pgo_how="directly (--without-pgo-runner)"],
    [auto|yes], [AS_IF([test -n "$PGO_RUNNER"], [_AX_PGO_RUNNER_GIVEN], [_AX_PGO_RUNNER_FIND])],
    [PGO_RUNNER=$ax_pgo_runner
     _AX_PGO_RUNNER_GIVEN])
])

# _AX_PGO_RUNNER: how training runs the target's programs (PGO_RUNNER, proven on a test
# program), PGO_TRAIN_TIMEOUT_SCALE, the target's tools for verify, and ax_pgo_foreign.
AC_DEFUN([_AX_PGO_RUNNER], [
ax_pgo_runner_error= ax_pgo_runner_warn= ax_pgo_emulated=no ax_pgo_how=
ax_pgo_cpu=${PGO_TARGET%%-*}
ax_pgo_triple=`echo "$PGO_TARGET" | $SED 's/-unknown-/-/; s/-pc-/-/'`
AC_MSG_CHECKING([how training runs the programs built for $PGO_TARGET])
ax_pgo_bound=
AS_IF([command -v timeout >/dev/null 2>&1], [ax_pgo_bound="timeout 120"])
dnl A thread, where the target has them: an emulator whose dynamic loader and C library come
dnl from two builds of glibc runs single-threaded programs and hangs in pthread_create.
ax_pgo_save_CFLAGS=$CFLAGS
CFLAGS="$CFLAGS -pthread"
AC_LINK_IFELSE([_AX_PGO_RUNNER_PROGRAM([#include <pthread.h>], [pthread_t t;
  if (pthread_create(&t, 0, ax_pgo_thread, 0) != 0 || pthread_join(t, 0) != 0) return 1;])],
  [CFLAGS=$ax_pgo_save_CFLAGS ax_pgo_threads=yes
   _AX_PGO_RUNNER_CHOOSE],
  [CFLAGS=$ax_pgo_save_CFLAGS ax_pgo_threads=no
   AC_LINK_IFELSE([_AX_PGO_RUNNER_PROGRAM([], [])], [_AX_PGO_RUNNER_CHOOSE],
     [ax_pgo_runner_error="$CC cannot link a test program (see config.log)"])])
AS_IF([test $ax_pgo_threads = no && test -n "$PGO_RUNNER"],
  [AC_MSG_NOTICE([the runner was proven on a program without threads ($CC -pthread links none)])])
AC_MSG_RESULT([${ax_pgo_how:-no way}])
dnl pgo.mk makes the programs a qemu runner emulates follow exec (qemu-exec.c).
AS_IF([test $ax_pgo_emulated = yes && test -n "$PGO_RUNNER"], [PGO_RUNNER_EMULATED=yes], [PGO_RUNNER_EMULATED=no])
AS_IF([test -n "$ax_pgo_runner_error"], [AC_MSG_ERROR([$ax_pgo_runner_error])])
AS_IF([test -n "$ax_pgo_runner_warn"], [AC_MSG_WARN([$ax_pgo_runner_warn])])
dnl Emulated tasks are only slow (qemu-user: 3 to 5 times): 10 leaves room.
AC_MSG_CHECKING([the factor of the training's timeouts])
AS_IF([test -n "$PGO_TRAIN_TIMEOUT_SCALE"], [
  AS_CASE([$PGO_TRAIN_TIMEOUT_SCALE], [*@<:@!0-9.@:>@*|.*|*.|*.*.*],
    [AC_MSG_ERROR([PGO_TRAIN_TIMEOUT_SCALE wants a positive number, not '$PGO_TRAIN_TIMEOUT_SCALE'])])
  AC_MSG_RESULT([$PGO_TRAIN_TIMEOUT_SCALE (PGO_TRAIN_TIMEOUT_SCALE)])],
  [test $ax_pgo_emulated = yes], [PGO_TRAIN_TIMEOUT_SCALE=10
  AC_MSG_RESULT([10: the target's programs are emulated, several times slower (PGO_TRAIN_TIMEOUT_SCALE=N sets another)])],
  [PGO_TRAIN_TIMEOUT_SCALE=1
  AC_MSG_RESULT([1])])
dnl verify reads the objects' symbols: GCC's LTO objects need the nm of the target's GCC.
AS_IF([test $ax_pgo_foreign = yes && test "$ax_cv_pgo_cc_family" = gcc], [
  ax_pgo_ccbase=`basename "${CC%% *}"`
  for ax_pgo_cand in `echo "$ax_pgo_ccbase" | $SED -n 's/gcc/gcc-nm/p'` ${host_alias:+$host_alias-nm}; do
    AS_IF([command -v "$ax_pgo_cand" >/dev/null 2>&1], [PGO_NM=$ax_pgo_cand; break])
  done
  AS_IF([test -n "$host_alias" && command -v "$host_alias-readelf" >/dev/null 2>&1], [PGO_READELF=$host_alias-readelf])
  AS_IF([test -n "$PGO_NM$PGO_READELF"], [AC_MSG_NOTICE([verify reads the objects with ${PGO_NM:-nm} and ${PGO_READELF:-readelf}])])
])
dnl The dispatch check disassembles the target's program: the target's objdump, or clang's
dnl llvm-objdump, which reads every target's.
AS_IF([test $ax_pgo_foreign = yes], [
  for ax_pgo_cand in ${host_alias:+$host_alias-objdump} $ax_pgo_triple-objdump ${LLVM_PROFDATA:+`dirname "$LLVM_PROFDATA"`/llvm-objdump} llvm-objdump-$PGO_CC_MAJOR; do
    AS_IF([command -v "$ax_pgo_cand" >/dev/null 2>&1], [PGO_OBJDUMP=$ax_pgo_cand; break])
  done
  AC_MSG_NOTICE([the dispatch check disassembles with ${PGO_OBJDUMP:-objdump}])
])
])

# _AX_PGO_RUNNER_GIVEN: the runner PGO_RUNNER (given) must run the test program.
AC_DEFUN([_AX_PGO_RUNNER_GIVEN], [
AS_CASE([$PGO_RUNNER],
  [*'$'*|*'@%:@'*|*"
"*], [ax_pgo_runner_error="the PGO runner '$PGO_RUNNER' holds \$, @%:@ or a newline, which make reads as its own syntax: put the command in a script and pass the script"],
  [_AX_PGO_RUNS([$PGO_RUNNER],
    [ax_pgo_how="through $PGO_RUNNER"
     AS_CASE([`basename "${PGO_RUNNER%% *}"`], [qemu-*], [ax_pgo_emulated=yes])
     dnl pgo.mk's launcher hands the runner the ELF programs this machine cannot run.
     AS_IF([test "x$ax_pgo_build_sig" = "x$ax_pgo_target_sig"],
       [ax_pgo_runner_warn="$CC builds programs of this machine's kind: the training's tasks run them directly, not through the runner '$PGO_RUNNER', which only the Makefile's own commands use; a wrapper of every task, e.g. setarch -R, is PGO_TRAIN_WRAPPER"])],
    [ax_pgo_runner_error="the PGO runner '$PGO_RUNNER' did not run a test program built by $CC (it should have printed profopt-runner-ok; config.log has what it did): a runner is a command that runs a program of the target, given after it with its arguments, in the current directory and with its environment"])])
])

# _AX_PGO_RUNNER_FIND: this machine itself (natively, or by binfmt_misc emulation), else the
# qemu-user emulator of the target, else an error that says how to give a runner.
AC_DEFUN([_AX_PGO_RUNNER_FIND], [
AS_CASE([$ax_pgo_cpu],
  [arm*eb], [ax_pgo_qcpu=armeb], [arm*|thumb*], [ax_pgo_qcpu=arm], [i?86], [ax_pgo_qcpu=i386],
  [powerpc64le|ppc64le], [ax_pgo_qcpu=ppc64le], [powerpc64|ppc64], [ax_pgo_qcpu=ppc64], [powerpc|ppc], [ax_pgo_qcpu=ppc],
  [ax_pgo_qcpu=$ax_pgo_cpu])
_AX_PGO_RUNS([], [
  PGO_RUNNER= ax_pgo_how=directly
  AS_IF([test "x$ax_pgo_build_sig" != "x$ax_pgo_target_sig"], [
    dnl Another machine's programs that run here: a CPU that runs them (i686 on x86-64, 32-bit
    dnl Arm on AArch64), or the kernel hands them to an emulator (binfmt_misc), used as it is.
    ax_pgo_binfmt=
    for ax_pgo_f in /proc/sys/fs/binfmt_misc/*; do
      ax_pgo_name=`basename "$ax_pgo_f"`
      AS_CASE([$ax_pgo_name], [*"$ax_pgo_qcpu"*], [], [continue])
      AS_IF([test "`head -n 1 "$ax_pgo_f" 2>/dev/null`" = enabled], [ax_pgo_binfmt=$ax_pgo_name; break])
    done
    AS_CASE([`uname -m 2>/dev/null`/$ax_pgo_qcpu], [x86_64/i386|aarch64/arm|aarch64/armeb], [ax_pgo_how="directly: this machine runs them"], [
      ax_pgo_emulated=yes
      ax_pgo_how="directly: this machine emulates them${ax_pgo_binfmt:+ (binfmt_misc: $ax_pgo_binfmt)}"])])
], [_AX_PGO_FIND_QEMU])
])

# _AX_PGO_FIND_QEMU: qemu-CPU (or qemu-CPU-static) with -L of the sysroot that holds the test
# program's dynamic loader (Debian's cross libc: /usr/TRIPLE), else none, each proven.
AC_DEFUN([_AX_PGO_FIND_QEMU], [
_AX_PGO_SEARCH([qemu-$ax_pgo_qcpu qemu-$ax_pgo_qcpu-static])
ax_pgo_qemu=$ax_pgo_hit
_AX_PGO_DEBARCH
AS_IF([test -z "$ax_pgo_qemu"], [
  ax_pgo_runner_error="cross compiling for $PGO_TARGET: this machine cannot run its programs, and PGO trains by running them (the instrumented program, on the training's tasks). Install the qemu-user emulator (Debian: apt-get install qemu-user libc6-dev-$ax_pgo_debarch-cross; qemu-$ax_pgo_qcpu is looked for in PATH, run with the target's C library), let the kernel run them by emulation (binfmt_misc: Debian's qemu-user-binfmt), or pass --with-pgo-runner=CMD: a command that runs a program of the target, given after it with its arguments, in the current directory and with its environment (e.g. a script that runs it on a board by ssh, the build directory shared at the same path)"
], [
  ax_pgo_interp=
  for ax_pgo_cand in ${host_alias:+$host_alias-readelf} readelf llvm-readelf; do
    AS_IF([command -v "$ax_pgo_cand" >/dev/null 2>&1], [
      ax_pgo_interp=`$ax_pgo_cand -l conftest$ac_exeext 2>/dev/null | $SED -n 's/.*program interpreter: \(@<:@^@:>@@:>@*\)@:>@.*/\1/p'`
      break])
  done
  ax_pgo_cands="${host_alias:+/usr/$host_alias} /usr/$ax_pgo_triple"
  ax_pgo_libc=`$CC $CFLAGS -print-file-name=libc.so.6 2>/dev/null`
  AS_CASE([$ax_pgo_libc], [/*], [
    ax_pgo_d=`readlink -f "$ax_pgo_libc" 2>/dev/null || echo "$ax_pgo_libc"`
    ax_pgo_d=`dirname "$ax_pgo_d"`; ax_pgo_d=`dirname "$ax_pgo_d"`
    ax_pgo_cands="$ax_pgo_cands $ax_pgo_d `dirname "$ax_pgo_d"`"])
  AS_IF([test "$ax_cv_pgo_cc_family" = gcc], [ax_pgo_cands="$ax_pgo_cands `$CC $CFLAGS -print-sysroot 2>/dev/null`"])
  ax_pgo_tried=
  dnl Multiarch libraries (Debian's libc6:arm64) hold the loader at its own path: qemu without
  dnl -L then pairs it with its own library, where -L of a cross sysroot would mix two glibcs.
  ax_pgo_interp_sig=
  AS_IF([test -n "$ax_pgo_interp"], [ax_pgo_interp_sig=_AX_PGO_ELF_SIG([$ax_pgo_interp])])
  AS_IF([test -n "$ax_pgo_interp_sig" && test "x$ax_pgo_interp_sig" = "x$ax_pgo_target_sig"],
    [_AX_PGO_RUNS([$ax_pgo_qemu], [PGO_RUNNER=$ax_pgo_qemu; ax_pgo_cands=])])
  for ax_pgo_d in $ax_pgo_cands; do
    AS_IF([test "$ax_pgo_d" != / && test -d "$ax_pgo_d" && { test -z "$ax_pgo_interp" || test -e "$ax_pgo_d$ax_pgo_interp"; }], [], [continue])
    AS_CASE([" $ax_pgo_tried "], [*" $ax_pgo_d "*], [continue])
    ax_pgo_tried="$ax_pgo_tried${ax_pgo_tried:+ }$ax_pgo_d"
    _AX_PGO_RUNS([$ax_pgo_qemu -L $ax_pgo_d], [PGO_RUNNER="$ax_pgo_qemu -L $ax_pgo_d"; break])
  done
  AS_IF([test -z "$PGO_RUNNER" && test -n "$ax_pgo_cands"], [_AX_PGO_RUNS([$ax_pgo_qemu], [PGO_RUNNER=$ax_pgo_qemu])])
  AS_IF([test -n "$PGO_RUNNER"], [ax_pgo_emulated=yes ax_pgo_how="through qemu-user: $PGO_RUNNER"],
    [ax_pgo_runner_error="cross compiling for $PGO_TARGET: $ax_pgo_qemu ran no test program, with -L of ${ax_pgo_tried:-no directory holding its dynamic loader ${ax_pgo_interp:-(unknown)}} nor without (config.log has what it said): install the target's C library (Debian: libc6-dev-$ax_pgo_debarch-cross) or pass --with-pgo-runner='$ax_pgo_qemu -L SYSROOT'"])
])
])

# _AX_PGO_FLAGS: the generate/use flags and the merge command for the family.
AC_DEFUN([_AX_PGO_FLAGS], [
ax_pgo_update_flag=
dnl Atomic counters are a locked add on every update for GCC and clang's front end (clang's IR
dnl counters live in registers); single mode loses only racing increments between threads,
dnl which -fprofile-correction absorbs, as stock CPython relies on.
AS_CASE([$ax_pgo_update],
  [auto], [AS_CASE([$ax_cv_pgo_cc_family/$ax_pgo_instr], [gcc/*|*/frontend], [],
    [_AX_PGO_CHECK_FLAG([-fprofile-update=atomic], [ax_pgo_update_flag=-fprofile-update=atomic])])],
  [single|atomic|prefer-atomic], [ax_pgo_update_flag=-fprofile-update=$ax_pgo_update],
  [AC_MSG_ERROR([--with-pgo-profile-update wants atomic, prefer-atomic or single, not '$ax_pgo_update'])])
AS_CASE([$ax_cv_pgo_cc_family],
  [gcc], [
    AS_IF([test "x$with_pgo_instrumentation" != x],
      [AC_MSG_WARN([--with-pgo-instrumentation is a Clang option; ignored for gcc])])
    dnl Static functions found by number, not by their file's path: a profile fits objects
    dnl compiled from another directory.
    _AX_PGO_CHECK_FLAG([--param=profile-func-internal-id=1],
      [ax_pgo_ids=--param=profile-func-internal-id=1], [ax_pgo_ids=])
    dnl libtool's PIC and non-PIC copies of an object then have one control flow, so the merge
    dnl can give the untrained copy the same counts.
    _AX_PGO_CHECK_FLAG([-fno-semantic-interposition],
      [ax_pgo_nosi=-fno-semantic-interposition], [ax_pgo_nosi=])
    dnl The notes (.gcno) let the merge copy only functions alike in both (not #ifdef PIC's).
    PGO_GEN_CFLAGS="-fprofile-generate -ftest-coverage $ax_pgo_update_flag $ax_pgo_ids $ax_pgo_nosi"
    PGO_GEN_LDFLAGS=$PGO_GEN_CFLAGS
    PGO_USE_CFLAGS="-fprofile-use -fprofile-correction $ax_pgo_ids $ax_pgo_nosi"],
  [clang|apple-clang], [
    dnl Value profiling out of counters warns on every process's stderr (failing tests that
    dnl compare it): 8 per site, where clang takes the option twice (LLVM 15 and later; build
    dnl systems repeat CFLAGS, and clang 14 refuses a repeated -mllvm option).
    _AX_PGO_CHECK_FLAG([-mllvm -vp-counters-per-site=8 -mllvm -vp-counters-per-site=8],
      [ax_pgo_vp="-mllvm -vp-counters-per-site=8"], [ax_pgo_vp=])
    AS_CASE([$ax_pgo_instr],
      [ir], [ax_pgo_gen=-fprofile-generate ax_pgo_use=-fprofile-use],
      [frontend], [ax_pgo_gen=-fprofile-instr-generate ax_pgo_use=-fprofile-instr-use],
      [AC_MSG_ERROR([--with-pgo-instrumentation wants ir or frontend, not '$ax_pgo_instr'])])
    AC_MSG_CHECKING([where $CC counts for PGO])
    AC_MSG_RESULT([$ax_pgo_instr ($ax_pgo_gen)])
    PGO_GEN_CFLAGS="$ax_pgo_gen $ax_pgo_update_flag $ax_pgo_vp"
    dnl The -mllvm option is for the compiler only: given twice (CFLAGS and LDFLAGS on one
    dnl link line) clang refuses it.
    PGO_GEN_LDFLAGS="$ax_pgo_gen $ax_pgo_update_flag"
    dnl The profile named by its content (pgo.mk's PGO_USE_PROFDATA): never a stale file.
    PGO_USE_CFLAGS="$ax_pgo_use="'$(PGO_USE_PROFDATA)'],
  [PGO_GEN_CFLAGS= PGO_GEN_LDFLAGS= PGO_USE_CFLAGS=])
dnl Partial training: GCC only (clang already compiles functions without counts normally).
AS_IF([test "x$ax_pgo_partial" != xno], [
  AS_IF([test "$ax_cv_pgo_cc_family" = gcc], [
    _AX_PGO_CHECK_FLAG([-fprofile-partial-training],
      [PGO_USE_CFLAGS="$PGO_USE_CFLAGS -fprofile-partial-training"],
      [AC_MSG_ERROR([--enable-pgo-partial-training: $CC does not accept -fprofile-partial-training (GCC 10 or newer does)])])],
    [AC_MSG_WARN([--enable-pgo-partial-training is a GCC option; ignored for $ax_cv_pgo_cc_family])])
])
PGO_USE_LDFLAGS=$PGO_USE_CFLAGS
dnl DWARF 4 for valgrind 3.19 (make pgo-bench), which cannot read clang's DWARF 5; compiles only.
AS_IF([test -n "$PGO_USE_CFLAGS"], [AS_CASE([$ax_cv_pgo_cc_family], [clang|apple-clang], [
  _AX_PGO_CHECK_FLAG([-fdebug-default-version=4], [
    PGO_GEN_CFLAGS="$PGO_GEN_CFLAGS -fdebug-default-version=4"
    PGO_USE_CFLAGS="$PGO_USE_CFLAGS -fdebug-default-version=4"])])])
_AX_PGO_DISPATCH
dnl Context-sensitive PGO: clang only; the second instrumented build uses the first profile.
PGO_CS=no PGO_CSGEN_CFLAGS= PGO_CSGEN_LDFLAGS=
AS_IF([test "x$ax_pgo_cs" != xno], [
  AS_CASE([$ax_cv_pgo_cc_family],
    [clang|apple-clang], [
      AS_IF([test "x$ax_pgo_instr" != xir],
        [AC_MSG_ERROR([--enable-pgo-cs builds on IR instrumentation, not --with-pgo-instrumentation=$ax_pgo_instr])])
      _AX_PGO_CHECK_FLAG([-fcs-profile-generate], [PGO_CS=yes],
        [AC_MSG_ERROR([--enable-pgo-cs: $CC does not accept -fcs-profile-generate (clang 11 or newer does)])])
      dnl (The first profile as merged: these compiles stay local, as every IR profile compile.)
      ax_pgo_cs_use="$ax_pgo_use="'$(PGO_PROFDATA)'
      PGO_CSGEN_CFLAGS="$ax_pgo_cs_use -fcs-profile-generate $ax_pgo_update_flag $ax_pgo_vp${PGO_DISPATCH_CFLAGS:+ $PGO_DISPATCH_CFLAGS}"
      PGO_CSGEN_LDFLAGS="$ax_pgo_cs_use -fcs-profile-generate $ax_pgo_update_flag"],
    [AC_MSG_WARN([--enable-pgo-cs is a Clang option; ignored for $ax_cv_pgo_cc_family])])
])
])

# _AX_PGO_DISPATCH: whether $CC merges the computed gotos of an interpreter's dispatch into one
# indirect jump (LLVM 19: llvm/llvm-project#106846), on a small computed-goto loop; if so, the
# flags that undo it (PGO_DISPATCH_CFLAGS, PGO_DISPATCH_LDFLAGS for an LTO link; REF_CFLAGS).
AC_DEFUN([_AX_PGO_DISPATCH], [
PGO_DISPATCH_CFLAGS= PGO_DISPATCH_LDFLAGS= PGO_DISPATCH_REF_CFLAGS=
dnl Distinct handlers, so that no compiler merges them for being alike: one goto each, and one
dnl before the first.
ax_pgo_sites=1 ax_pgo_labels= ax_pgo_ops=
for ax_pgo_op in + - '*' '^' '|' '&' + - '*' '^' '|' '&' + - '*' '^' '|' '&' + - '*' '^' '|' '&'; do
  ax_pgo_labels="$ax_pgo_labels&&op$ax_pgo_sites, "
  ax_pgo_ops="$ax_pgo_ops
op$ax_pgo_sites: acc = (acc $ax_pgo_op sp@<:@$ax_pgo_sites % 4@:>@) + $ax_pgo_sites; NEXT;"
  ax_pgo_sites=`expr $ax_pgo_sites + 1`
done
AC_CACHE_CHECK([how many of $ax_pgo_sites computed gotos $CC keeps apart], [ax_cv_pgo_dispatch_jumps], [
  _AX_PGO_DISPATCH_JUMPS([], [ax_pgo_n])
  ax_cv_pgo_dispatch_jumps=${ax_pgo_n:-unknown (it does not compile the loop)}])
ax_pgo_fix="-mllvm -tail-dup-pred-size=5000 -mllvm -tail-dup-succ-size=5000"
dnl The flags are found even under --disable-pgo-dispatch-fix: verify's reference compile of
dnl the eval loop (PGO_DISPATCH_REF_CFLAGS) shows what the compiler can keep apart.
AS_IF([test "$ax_cv_pgo_dispatch_jumps" -lt `expr $ax_pgo_sites / 2` 2>/dev/null],
  [AC_CACHE_CHECK([whether $ax_pgo_fix keeps them apart], [ax_cv_pgo_dispatch_fixed], [
    dnl (given twice: a build system that repeats its flags must not fail on them)
    _AX_PGO_DISPATCH_JUMPS([$ax_pgo_fix $ax_pgo_fix], [ax_pgo_n])
    ax_cv_pgo_dispatch_fixed="no ($ax_pgo_n)"
    AS_IF([test "$ax_pgo_n" -ge `expr $ax_pgo_sites / 2` 2>/dev/null], [ax_cv_pgo_dispatch_fixed="yes ($ax_pgo_n)"])])
  AS_CASE([$ax_cv_pgo_dispatch_fixed], [yes*], [PGO_DISPATCH_REF_CFLAGS=$ax_pgo_fix])
  AS_IF([test -n "$PGO_DISPATCH_REF_CFLAGS" && test "x$ax_pgo_dispatch" != xno], [PGO_DISPATCH_CFLAGS=$ax_pgo_fix _AX_PGO_DISPATCH_LTO])
  AS_IF([test -z "$PGO_DISPATCH_REF_CFLAGS" && test "x$ax_pgo_dispatch" = xyes],
    [AC_MSG_ERROR([--enable-pgo-dispatch-fix: $CC merges the computed gotos of an interpreter's dispatch ($ax_cv_pgo_dispatch_jumps indirect jumps for $ax_pgo_sites gotos), and $ax_pgo_fix does not undo it])])])
AS_IF([test "$ax_cv_pgo_cc_family" = gcc && test "x$ax_pgo_dispatch" != xno && test "$cross_compiling" != yes],
  [_AX_PGO_DISPATCH_PARTITION])
AC_MSG_CHECKING([how PGO builds compile an interpreter's dispatch])
AS_IF([test -n "$PGO_DISPATCH_CFLAGS"], [AC_MSG_RESULT([with $PGO_DISPATCH_CFLAGS${PGO_DISPATCH_LDFLAGS:+ (the LTO link: $PGO_DISPATCH_LDFLAGS)}])],
  [test "x$ax_pgo_dispatch" = xno], [AC_MSG_RESULT([as $CC does by default (--disable-pgo-dispatch-fix)])],
  [AC_MSG_RESULT([as $CC does by default])])
PGO_GEN_CFLAGS="$PGO_GEN_CFLAGS${PGO_DISPATCH_CFLAGS:+ $PGO_DISPATCH_CFLAGS}"
PGO_USE_CFLAGS="$PGO_USE_CFLAGS${PGO_DISPATCH_CFLAGS:+ $PGO_DISPATCH_CFLAGS}"
])

# _AX_PGO_DISPATCH_PARTITION: with a profile, GCC moves untrained handlers to the cold part,
# where they share one indirect jump (it does not duplicate across sections); a loop trained on
# half its handlers shows it, -fno-reorder-blocks-and-partition undoes it.  Natively only.
AC_DEFUN([_AX_PGO_DISPATCH_PARTITION], [
AC_CACHE_CHECK([how many of $ax_pgo_sites computed gotos $CC keeps apart when training ran half the handlers],
  [ax_cv_pgo_dispatch_trained], [
  ax_cv_pgo_dispatch_trained=unknown ax_cv_pgo_dispatch_partition=no
  _AX_PGO_DISPATCH_SOURCE([int main(int argc, char **argv)
{
	static const unsigned char p@<:@@:>@ = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 24};
	long s@<:@4@:>@ = {argc}, r = 0;
	(void)argv;
	for (long i = 0; i < 10000; i++)
		r += conftest_eval(p, s);
	return (int)(r & 1);
}])
  rm -f conftest.gcda
  AS_IF([$CC $CFLAGS -O3 -fno-lto -fprofile-generate -c conftest.$ac_ext -o conftest.$ac_objext >&AS_MESSAGE_LOG_FD 2>&1 &&
         $CC $CFLAGS -fno-lto -fprofile-generate conftest.$ac_objext -o conftest$ac_exeext >&AS_MESSAGE_LOG_FD 2>&1 &&
         ./conftest$ac_exeext && test -f conftest.gcda &&
         $CC $CFLAGS -O3 -fno-lto -fprofile-use -S conftest.$ac_ext -o conftest.s >&AS_MESSAGE_LOG_FD 2>&1], [
    ax_cv_pgo_dispatch_trained=`grep -c -E "$ax_pgo_ijmp" conftest.s`
    AS_IF([$CC $CFLAGS -O3 -fno-lto -fprofile-use -fno-reorder-blocks-and-partition -S conftest.$ac_ext -o conftest.s >&AS_MESSAGE_LOG_FD 2>&1],
      [ax_cv_pgo_dispatch_partition=`grep -c -E "$ax_pgo_ijmp" conftest.s`])])
  rm -f conftest.s conftest.gcda conftest.$ac_objext conftest$ac_exeext conftest.$ac_ext])
dnl (the untrained half merged: fewer than 90% of the gotos)
ax_pgo_most=`expr $ax_pgo_sites \* 9 / 10`
AS_IF([test "$ax_cv_pgo_dispatch_trained" -lt $ax_pgo_most 2>/dev/null], [
  AC_MSG_CHECKING([whether -fno-reorder-blocks-and-partition keeps them apart])
  AS_IF([test "$ax_cv_pgo_dispatch_partition" -ge $ax_pgo_most 2>/dev/null], [
    AC_MSG_RESULT([yes ($ax_cv_pgo_dispatch_partition)])
    PGO_DISPATCH_CFLAGS=-fno-reorder-blocks-and-partition
    PGO_USE_LDFLAGS="$PGO_USE_LDFLAGS -fno-reorder-blocks-and-partition"],
    [AC_MSG_RESULT([no ($ax_cv_pgo_dispatch_partition)])])])
])

# _AX_PGO_DISPATCH_LTO: PGO_DISPATCH_LDFLAGS, the same options for the linker's LLVM (bfd and
# gold with LLVM's plugin, lld: clang passes no -mllvm on to them), when a ThinLTO link with
# them keeps the gotos apart; without a ThinLTO link here, unchecked.
AC_DEFUN([_AX_PGO_DISPATCH_LTO], [
ax_pgo_ld="-Wl,-plugin-opt=-tail-dup-pred-size=5000 -Wl,-plugin-opt=-tail-dup-succ-size=5000"
dnl (clang's llvm-objdump reads a cross build's program too)
ax_pgo_objdump=objdump
AS_IF([test -n "$LLVM_PROFDATA" && test -x "`dirname "$LLVM_PROFDATA"`/llvm-objdump"],
  [ax_pgo_objdump="`dirname "$LLVM_PROFDATA"`/llvm-objdump"])
AC_CACHE_CHECK([whether a ThinLTO link keeps them apart with $ax_pgo_ld], [ax_cv_pgo_dispatch_lto], [
  _AX_PGO_DISPATCH_JUMPS([], [ax_pgo_n], [ ])
  AS_IF([test -z "$ax_pgo_n"], [ax_cv_pgo_dispatch_lto="unchecked (no ThinLTO link here)"], [
    _AX_PGO_DISPATCH_JUMPS([], [ax_pgo_n], [$ax_pgo_ld])
    ax_cv_pgo_dispatch_lto="no (${ax_pgo_n:-the link fails})"
    AS_IF([test "${ax_pgo_n:-0}" -ge `expr $ax_pgo_sites / 2`], [ax_cv_pgo_dispatch_lto="yes ($ax_pgo_n)"])])])
AS_CASE([$ax_cv_pgo_dispatch_lto], [no*],
  [AC_MSG_WARN([$CC's ThinLTO link does not take $ax_pgo_ld: an LTO build's dispatch stays merged, which verify refuses])],
  [PGO_DISPATCH_LDFLAGS=$ax_pgo_ld])
])

# _AX_PGO_DISPATCH_SOURCE(MAIN): conftest.c, the computed-goto loop (ax_pgo_labels, ax_pgo_ops)
# and MAIN; ax_pgo_ijmp, the pattern of an indirect jump in its assembly.
AC_DEFUN([_AX_PGO_DISPATCH_SOURCE], [
cat > conftest.$ac_ext <<AX_PGO_EOF
long conftest_eval(const unsigned char *pc, long *sp)
{
	static void *const t@<:@@:>@ = {$ax_pgo_labels&&done};
	long acc = 0;
#define NEXT goto *t@<:@*pc++@:>@
	NEXT;
done:	return acc;$ax_pgo_ops
}
$1
AX_PGO_EOF
ax_pgo_ijmp='(^|@<:@ 	@:>@)(notrack@<:@ 	@:>@+)?(jmpq?@<:@ 	@:>@+\*|br@<:@ 	@:>@+x|jr@<:@ 	@:>@|bctr)'
])

# _AX_PGO_DISPATCH_JUMPS(FLAGS, VAR, [LINK-FLAGS]): VAR, the indirect jumps of the loop at -O3
# with FLAGS (with LINK-FLAGS: in a ThinLTO link's program), or empty when it does not build.
AC_DEFUN([_AX_PGO_DISPATCH_JUMPS], [
$2=
_AX_PGO_DISPATCH_SOURCE([int main(int argc, char **argv) { long s@<:@4@:>@ = {argc}; return (int)conftest_eval((const unsigned char *)argv@<:@0@:>@, s); }])
m4_ifval([$3], [
AS_IF([$CC $CFLAGS $CPPFLAGS -O3 -flto=thin $1 conftest.$ac_ext -o conftest$ac_exeext $LDFLAGS $3 >&AS_MESSAGE_LOG_FD 2>&1],
  [$2=`$ax_pgo_objdump -d conftest$ac_exeext 2>/dev/null | $SED -n '/<_*conftest_eval>:/,/^$/p' | grep -c -E "$ax_pgo_ijmp"`])
rm -f conftest$ac_exeext], [
AS_IF([$CC $CFLAGS $CPPFLAGS -O3 -fno-lto $1 -S conftest.$ac_ext -o conftest.s >&AS_MESSAGE_LOG_FD 2>&1],
  [$2=`$SED -n '/conftest_eval/,/main/p' conftest.s | grep -c -E "$ax_pgo_ijmp"`])
rm -f conftest.s])
rm -f conftest.$ac_ext
])

# _AX_PGO_FIND_BOLT: llvm-bolt and a merge-fdata of the same version, for --enable-bolt.
# Sets PGO_BOLT=yes, LLVM_BOLT, MERGE_FDATA and PGO_BOLT_LDFLAGS, or ax_pgo_bolt_error.
AC_DEFUN([_AX_PGO_FIND_BOLT], [
ax_pgo_bolt_error=
AC_CACHE_CHECK([for llvm-bolt], [ax_cv_pgo_llvm_bolt], [
  AS_IF([test -n "$LLVM_BOLT"], [ax_pgo_cands=$LLVM_BOLT], [
    ax_pgo_cands=
    AS_CASE([$ax_cv_pgo_cc_family], [clang|apple-clang], [_AX_PGO_CLANG_DIR
      ax_pgo_cands="${ax_pgo_clang_dir:+$ax_pgo_clang_dir/llvm-bolt} llvm-bolt-$PGO_CC_MAJOR"])
    dnl Otherwise the newest release in PATH: BOLT reads any compiler's ELF output.
    ax_pgo_cands="$ax_pgo_cands[]m4_for([ax_pgo_v], [30], [14], [-1], [ llvm-bolt-ax_pgo_v]) llvm-bolt"
  ])
  _AX_PGO_SEARCH([$ax_pgo_cands])
  dnl llvm-bolt finds its instrumentation runtime relative to where it really is (Debian's
  dnl /usr/bin/llvm-bolt-19 is a link into /usr/lib/llvm-19/bin), so use the real path.
  ax_cv_pgo_llvm_bolt=no
  AS_IF([test -n "$ax_pgo_hit"], [ax_cv_pgo_llvm_bolt=`readlink -f "$ax_pgo_hit" 2>/dev/null || echo "$ax_pgo_hit"`])
])
AS_IF([test "$ax_cv_pgo_llvm_bolt" = no],
  [ax_pgo_bolt_error="llvm-bolt not found${LLVM_BOLT:+ at $LLVM_BOLT} (Debian: apt-get install bolt-N, e.g. bolt-19; or pass --with-llvm-bolt=PATH)"],
  [LLVM_BOLT=$ax_cv_pgo_llvm_bolt
  ax_pgo_bolt_rt="`dirname "$LLVM_BOLT"`/../lib/libbolt_rt_instr.a"
  AS_IF([test -f "$ax_pgo_bolt_rt"], [_AX_PGO_FIND_MERGE_FDATA],
    [ax_pgo_bolt_error="$LLVM_BOLT has no instrumentation runtime ($ax_pgo_bolt_rt is missing; Debian: it is in bolt-N)"])])
])

# _AX_PGO_FIND_MERGE_FDATA: the merge-fdata of $LLVM_BOLT's version (BOLT's profile format
# changes between releases); sets PGO_BOLT=yes and its flags, or ax_pgo_bolt_error.
AC_DEFUN([_AX_PGO_FIND_MERGE_FDATA], [
ax_pgo_bolt_ver=_AX_PGO_TOOL_VERSION([$LLVM_BOLT], [--version])
AC_CACHE_CHECK([for merge-fdata of LLVM $ax_pgo_bolt_ver], [ax_cv_pgo_merge_fdata], [
  AS_IF([test -n "$MERGE_FDATA"], [ax_pgo_cands=$MERGE_FDATA], [
    ax_pgo_bolt_base=`basename "$LLVM_BOLT" | $SED 's/llvm-bolt/merge-fdata/'`
    ax_pgo_cands="`dirname "$LLVM_BOLT"`/$ax_pgo_bolt_base merge-fdata-${ax_pgo_bolt_ver%%.*} merge-fdata"])
  _AX_PGO_SEARCH([$ax_pgo_cands], [--version], [test "$ax_pgo_ver" = "$ax_pgo_bolt_ver"])
  ax_cv_pgo_merge_fdata=${ax_pgo_hit:-no}
  ax_cv_pgo_merge_fdata_found=$ax_pgo_found
])
AS_IF([test "$ax_cv_pgo_merge_fdata" = no],
  [ax_pgo_bolt_error="no merge-fdata of the version of $LLVM_BOLT ($ax_pgo_bolt_ver): found ${ax_cv_pgo_merge_fdata_found:-none}. BOLT's profile format changes between releases, so the pair must match (Debian: both come in bolt-${ax_pgo_bolt_ver%%.*}); pass MERGE_FDATA=PATH"],
  [MERGE_FDATA=$ax_cv_pgo_merge_fdata
  PGO_BOLT=yes
  PGO_BOLT_LDFLAGS="-Wl,--emit-relocs"
  dnl Folding functions whose addresses a program compares changes its meaning (CPython's
  dnl slot tables): only LLVM 20's address-safe folding, never llvm-bolt's -icf=1.
  AS_IF([test "${ax_pgo_bolt_ver%%.*}" -ge 20 2>/dev/null], [PGO_BOLT_ICF=-icf=safe], [PGO_BOLT_ICF=-icf=0])
  dnl GCC's hot/cold function splitting hides code from BOLT, which splits functions itself.
  AS_IF([test "$ax_cv_pgo_cc_family" = gcc], [PGO_BOLT_CFLAGS=-fno-reorder-blocks-and-partition])])
])
