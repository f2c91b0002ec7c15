/* test_toolchain.c - unit tests of the parsing behind compiler and tool identification. */
#include "pipeline/toolchain.h"
#include "unit.h"

TEST(find_define)
{
	const char *defs = "#define __GNUC__ 12\n#define __GNUC_MINOR__ 2\n#define __clang__ 1\n#define X\n";
	char v[32];
	CHECK_STR(find_define(defs, "__GNUC__", v, sizeof v), "12");
	CHECK_STR(find_define(defs, "__GNUC_MINOR__", v, sizeof v), "2");
	CHECK(find_define(defs, "__GNUC_PATCHLEVEL__", v, sizeof v) == NULL);
	CHECK(find_define(defs, "__GNU", v, sizeof v) == NULL); /* a prefix is not a match */
	CHECK_STR(find_define(defs, "X", v, sizeof v), "");
}

TEST(parse_tool_version_llvm)
{
	char v[32];
	CHECK_INT(parse_tool_version("Debian LLVM version 14.0.6\n  Optimized build.\n", v, sizeof v), 14);
	CHECK_STR(v, "14.0.6");
	CHECK_INT(parse_tool_version("Homebrew LLVM version 19.1.7\n", v, sizeof v), 19);
	CHECK_INT(parse_tool_version("LLVM (http://llvm.org/):\n  LLVM version 13.0.1\n", v, sizeof v), 13);
	CHECK_STR(v, "13.0.1");
}

TEST(parse_tool_version_gnu)
{
	char v[32];
	CHECK_INT(parse_tool_version("gcov-tool (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright\n", v, sizeof v), 12);
	CHECK_STR(v, "12.2.0");
}

TEST(parse_tool_version_garbage)
{
	char v[32];
	CHECK_INT(parse_tool_version("llvm-profdata: Unknown command!\n", v, sizeof v), -1);
	CHECK_INT(parse_tool_version("", v, sizeof v), -1);
	CHECK_INT(parse_tool_version(NULL, v, sizeof v), -1);
}

TEST(family_names)
{
	CHECK_STR(cc_family_name(CC_GCC), "gcc");
	CHECK_STR(cc_family_name(CC_CLANG), "clang");
	CHECK_STR(cc_family_name(CC_APPLE_CLANG), "apple-clang");
}
