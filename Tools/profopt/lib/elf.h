/* elf.h - the section names of an ELF object file, read from its section headers (any class
 * and byte order), with every offset and size checked against the file. */
#ifndef PROFOPT_ELF_H
#define PROFOPT_ELF_H

#include <stddef.h>

/* Calls fn(name, arg) for each section.  Returns 0; 1 when the file is not ELF (LLVM bitcode
 * of an LTO build, Mach-O), fn not called; -1 when it cannot be read or is damaged, with a
 * one-line reason in err ("a.o: offset N (0xN): ... (actual/expected)"). */
int elf_sections(const char *path, void (*fn)(const char *name, void *arg), void *arg, char *err, size_t errlen);

#endif
