/* elf.h - the section names of an ELF object file, read from its section headers (any class
 * and byte order), with every offset and size checked against the file. */
#ifndef PROFOPT_ELF_H
#define PROFOPT_ELF_H

#include <stddef.h>

/* fn(name, arg) for each section: 0; 1 when not ELF (LTO bitcode, Mach-O); -1 with the reason in err. */
int elf_sections(const char *path, void (*fn)(const char *name, void *arg), void *arg, char *err, size_t errlen);

#endif
