/* test_unitcount.c - unit tests of counting compiles and links in a build log as it grows. */
#include "format/unitcount.h"
#include "unit.h"
#include "lib/util.h"

#include <stdlib.h>
#include <unistd.h>

static const char cpython_log[] =
	"clang -c -fno-strict-overflow -O3 -I../src/Include -o Python/ceval.o ../src/Python/ceval.c\n"
	"gcc -pthread -c -O2 -o Objects/listobject.o ../src/Objects/listobject.c\n"
	"../src/Python/ceval.c:12:3: warning: quoting 'gcc -c -o x.o' here\n"
	"gcc -MD -MF Modules/_json.d -c -o Modules/_json.o ../src/Modules/_json.c\n"
	"ar rcs libpython3.13.a Python/ceval.o\n"
	"gcc -pthread -flto -o python Programs/python.o libpython3.13.a -ldl\n";

TEST(unitcount_counts_compiles_and_names_the_link)
{
	struct unit_count u = {0};
	unit_count_text(&u, cpython_log, sizeof cpython_log - 1);
	/* the warning quotes " -c " and "-o x.o" too: only command lines count */
	CHECK_INT(u.compiled, 3);
	CHECK(!strcmp(u.linking, "python"));
	unit_count_text(&u, "gcc -c -o Programs/_testembed.o x.c\n", 37);
	CHECK(u.linking[0] == '\0'); /* a compile after the link: no link under way */
}

/* automake's V=1 log of libtool compiles: the .lo line, then libtool's one or two compiles */
static const char libtool_log[] =
	"/bin/bash ../libtool  --tag=CC   --mode=compile gcc -DPIC_TEST -g -O2 -MT sum.lo -MD -MP -MF .deps/sum.Tpo -c -o sum.lo ../../src/lib/sum.c\n"
	"libtool: compile:  gcc -g -O2 -MT sum.lo -MD -MP -MF .deps/sum.Tpo -c ../../src/lib/sum.c  -fPIC -DPIC -o .libs/sum.o\n"
	"libtool: compile:  gcc -g -O2 -MT sum.lo -MD -MP -MF .deps/sum.Tpo -c ../../src/lib/sum.c -o sum.o >/dev/null 2>&1\n"
	"/bin/bash ../libtool  --tag=CC   --mode=compile gcc -g -O2 -c -o plug.lo ../../src/mod/plug.c\n"
	"libtool: compile:  gcc -g -O2 -c ../../src/mod/plug.c  -fPIC -DPIC -o .libs/plug.o\n"
	"/bin/bash ../libtool  --tag=CC   --mode=link gcc  -g -O2 -o libcalc.la -rpath /usr/local/lib sum.lo\n"
	"libtool: link: gcc -shared  -fPIC -DPIC  .libs/sum.o -g -O2 -Wl,-soname -Wl,libcalc.so.0 -o .libs/libcalc.so.0.0.0\n";

TEST(unitcount_counts_libtool_compiles)
{
	struct unit_count u = {0};
	unit_count_text(&u, libtool_log, sizeof libtool_log - 1);
	CHECK_INT(u.compiled, 3); /* sum's two copies and plug's one; no .lo line */
	CHECK(!strcmp(u.linking, ".libs/libcalc.so.0.0.0"));
}

TEST(unitcount_reads_a_growing_log_once)
{
	char path[] = "/tmp/profopt-unit-units.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	struct unit_count u = {0};
	/* half a line, then the rest: the line counts once, when whole */
	CHECK(write(fd, "gcc -c -o a.o a", 15) == 15);
	unit_count_poll(&u, path);
	CHECK_INT(u.compiled, 0);
	CHECK(write(fd, ".c\ngcc -c -o b.o b.c\n", 21) == 21);
	unit_count_poll(&u, path);
	CHECK_INT(u.compiled, 2);
	unit_count_poll(&u, path);
	CHECK_INT(u.compiled, 2);
	unit_count_close(&u);
	close(fd);

	char count[] = "/tmp/profopt-unit-count.XXXXXX";
	close(mkstemp(count));
	CHECK_INT(unit_count_load(count), 0); /* empty: unknown */
	unit_count_save(count, 354);
	CHECK_INT(unit_count_load(count), 354);
	unit_count_save(count, 0); /* a stage that compiled nothing keeps the total */
	CHECK_INT(unit_count_load(count), 354);
	unlink(path);
	unlink(count);
}
