# dispatch-ref.mk - CPython's eval loop compiled for reference, for verify's dispatch check
# (pgo.mk's PGO_DISPATCH_REFERENCE): Python/ceval.c by CPython's own compile command, but at
# -O3 and without the profile and LTO, with AX_PGO's PGO_DISPATCH_REF_CFLAGS (the flags that
# keep the dispatch apart where the compiler merges it).
#
# Read through the MAKEFILES environment variable by CPython's own make, after the build:
#
#   MAKEFILES=/path/to/dispatch-ref.mk make pgo-dispatch-reference CFLAGS_NODIST= \
#       PGO_DISPATCH_REF=OBJ PGO_DISPATCH_REF_CFLAGS="..."

.PHONY: pgo-dispatch-reference
pgo-dispatch-reference:
	$(CC) -c $(PY_CORE_CFLAGS) -fno-lto -O3 $(PGO_DISPATCH_REF_CFLAGS) -o $(PGO_DISPATCH_REF) $(srcdir)/Python/ceval.c
