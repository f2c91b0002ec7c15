# lto-exclude.mk - compiles some objects of a link-time optimized build without LTO.
#
# Read through the MAKEFILES environment variable by the project's own make, so the project's
# Makefile stays as it is:
#
#   MAKEFILES=/path/to/lto-exclude.mk make PGO_LTO_EXCLUDE="Python/ceval.o" CFLAGS_NODIST="..."
#
#   PGO_LTO_EXCLUDE      the object targets to compile without LTO (-fno-lto, which comes after
#                        the project's -flto and so wins, with GCC and Clang alike)
#   PGO_LTO_EXCLUDE_VAR  the flags variable the project's compile rule reads and the command
#                        line sets (default CFLAGS_NODIST, as in CPython's Makefile)
#
# Why: a link-time optimizer can inline calls across files into a function that is already
# huge, such as an interpreter's eval loop, and make every pass through it slower.  Such a file keeps the per-file optimization and its
# profile; the rest of the program is still link-time optimized, and calls *from* it still
# resolve at link.

#
# The same way, PGO_STACK_BOUNDED names objects compiled with PGO_STACK_BOUND_FLAGS added (what
# bounds the compiler's inlining by stack, AX_PGO's choice): a function on a deep recursion path
# whose profile inlines a callee with a large buffer grows every level's C stack frame.  They are kept out of LTO too:
# a link-time optimizer would inline again, without the bound.

PGO_LTO_EXCLUDE_VAR ?= CFLAGS_NODIST
ifneq ($(strip $(PGO_LTO_EXCLUDE)),)
$(PGO_LTO_EXCLUDE): override $(PGO_LTO_EXCLUDE_VAR) += -fno-lto
endif
ifneq ($(strip $(PGO_STACK_BOUNDED)),)
$(PGO_STACK_BOUNDED): override $(PGO_LTO_EXCLUDE_VAR) += -fno-lto $(PGO_STACK_BOUND_FLAGS)
endif
