/* fuzz_readers.c - libFuzzer harness for profopt's profile readers: every input is given to
 * the GCC .gcda/.gcno reader and to the LLVM raw profile reader (each refuses the other's
 * files by their magic; the seed corpus has both).  Built with
 * -fsanitize=fuzzer,address,undefined by `make check-fuzz`. */
#include "gcov_io.h"
#include "profraw.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gcov_file f;
	struct profraw_info in;
	char err[512], v[64];
	if (gcov_parse(data, size, "fuzz", &f, err, sizeof err) == 0) {
		/* a file paired with itself: walks every function and counter */
		gcov_check_pair(&f, &f, err, sizeof err);
		gcov_version_string(f.version, v);
		gcov_file_free(&f);
	}
	if (profraw_parse(data, size, "fuzz", &in, err, sizeof err) == 0)
		profraw_variant_string(&in, v, sizeof v);
	return 0;
}
