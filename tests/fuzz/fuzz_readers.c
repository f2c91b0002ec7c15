/* fuzz_readers.c - libFuzzer harness for the parsers of every command that reads profiles:
 * each input is given to the GCC .gcda/.gcno reader (diff, report), the LLVM raw profile
 * reader (check-raw), the stash reader (diff, report --archive: libarchive in memory), and
 * the readers of llvm-profdata's and nm's text (report), the build log reader (check
 * --build-log, verify) and the ELF section reader (verify).  Each refuses the others' inputs;
 * the seed corpus has all kinds.  Built with -fsanitize=fuzzer,address,undefined by
 * `make check-fuzz`. */
#include "format/buildlog.h"
#include "lib/elf.h"
#include "format/gcov_io.h"
#include "format/profraw.h"
#include "lib/tarfile.h"
#include "format/tooltext.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_symbol(void *ctx, int object, const char *name, char type)
{
	(void)object, (void)name, (void)type;
	++*(int *)ctx;
}

static void on_section(const char *name, void *ctx)
{
	(void)name;
	++*(int *)ctx;
}

/* The readers that take a path get the input as a memory file. */
static void read_as_file(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return;
	}
	char path[64], err[512];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	struct build_log log = {0};
	if (build_log_read(&log, path, NULL) == 0)
		build_log_free(&log);
	int sections = 0;
	elf_sections(path, on_section, &sections, err, sizeof err);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gcov_file f;
	struct profraw_info in;
	struct member_list stash;
	struct shown_profile shown = {0};
	char err[512], v[64];
	if (gcov_parse(data, size, "fuzz", &f, err, sizeof err) == 0) {
		/* a file paired with itself: walks every function and counter */
		gcov_check_pair(&f, &f, err, sizeof err);
		gcov_version_string(f.version, v);
		gcov_file_free(&f);
	}
	if (profraw_parse(data, size, "fuzz", &in, err, sizeof err) == 0)
		profraw_variant_string(&in, v, sizeof v);
	if (tarmem_parse(data, size, "fuzz", ".gcda", &stash, err, sizeof err) == 0)
		tarmem_free(&stash);
	profdata_show_parse((const char *)data, size, &shown);
	shown_profile_free(&shown);
	char *objects[] = {"./seed.o", "./b\nc.o", "./@x.o"};
	int symbols = 0;
	nm_parse((const char *)data, size, objects, 3, on_symbol, &symbols, 0);
	read_as_file(data, size);
	return 0;
}
