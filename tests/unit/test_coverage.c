/* test_coverage.c - unit tests of profopt coverage's path matching and unit identity. */
#include "profile/coverage.h"
#include "unit.h"

TEST(coverage_path_matches)
{
	CHECK(cov_path_matches("Python/ceval*", "Python/ceval.c"));
	CHECK(cov_path_matches("Python/ceval*", "../src/Python/ceval.c"));
	CHECK(cov_path_matches("Python/ceval*", "/home/u/cpython/Python/ceval_macros.h"));
	CHECK(cov_path_matches("Objects/*", "Objects/mimalloc/alloc.c")); /* '*' crosses '/' */
	CHECK(cov_path_matches("Modules/_decimal/*", "../src/Modules/_decimal/libmpdec/mpdecimal.c"));
	/* only from a '/' on: no match inside a directory name */
	CHECK(!cov_path_matches("Python/ceval*", "MyPython/ceval.c"));
	CHECK(!cov_path_matches("Objects/*", "Modules/Objects.c"));
	CHECK(!cov_path_matches("Modules/*sha*", "Modules/_hashopenssl.c"));
	CHECK(cov_path_matches("Modules/*sha*", "Modules/sha2module.c"));
}

TEST(coverage_same_unit)
{
	CHECK(cov_same_unit("Python/ceval.o", "Python/ceval.c"));
	CHECK(cov_same_unit("Python/ceval.o", "../src/Python/ceval.c"));
	CHECK(cov_same_unit("./interp.o", "interp.c"));
	CHECK(cov_same_unit("interp.c", "interp.o"));
	CHECK(!cov_same_unit("Python/ceval.o", "Python/ceval_macros.h"));
	CHECK(!cov_same_unit("Modules/main.o", "Programs/main.c"));
	CHECK(!cov_same_unit("Objects/object.o", "Include/object.h"));
	CHECK(!cov_same_unit("Python/xceval.o", "Python/ceval.c"));
}

TEST(coverage_object_for_a_bare_file_name)
{
	char *objects[] = {"Python/ceval.o", "Parser/parser.o", "Modules/expat/parser.o", "Programs/python.o", "interp.o"};
	int n = (int)(sizeof objects / sizeof *objects);
	CHECK(!strcmp(cov_object_for_file(objects, n, "ceval.c"), "Python/ceval.o"));
	CHECK(!strcmp(cov_object_for_file(objects, n, "interp.c"), "interp.o"));
	CHECK(cov_object_for_file(objects, n, "parser.c") == NULL);      /* two directories have one */
	CHECK(cov_object_for_file(objects, n, "sre.c") == NULL);         /* not built */
	CHECK(cov_object_for_file(objects, n, "Python/ceval.c") == NULL); /* has a directory already */
	CHECK(cov_object_for_file(objects, n, "(no file)") == NULL);
}
