/* dispatch.c - `profopt dispatch`: whether the final interpreter's eval loop kept its computed
 * gotos apart (one indirect jump per handler, each predicted on its own), against a reference -O3
 * compile of the same source by the same compiler.  Clang 19 merges them into one indirect
 * jump (llvm/llvm-project#106846), and nothing else in a build says so.  With a tail-calling
 * interpreter the handlers are functions that reach each other by indirect tail jumps: those
 * are counted instead. */
#include "commands.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct dispatch_options {
	const char *objdump, *function, *handlers, *reference;
	long long min;
};

/* A function of the eval loop, by its symbol: [start, end) in its section. */
struct range {
	char *section;
	unsigned long long start, end;
	int cold;        /* a part the compiler split off (NAME.cold): not a function of its own */
	long long jumps; /* its indirect jumps */
};

/* What one file holds for the eval loop: its functions, and the section being disassembled. */
struct scan {
	const struct dispatch_options *o;
	struct range *r;
	int n, cap;
	char *section;
};

/* What is counted of one file. */
struct jumps {
	long long jumps; /* indirect jumps in the matched functions */
	int functions;   /* matched functions (a function's .cold part apart) */
	int with_jump;   /* of them, those with an indirect jump */
};

/* Whether symbol `sym` is the eval loop: NAME itself or a part of it the compiler or the linker
 * named NAME.SUFFIX (.cold, .llvm.N, .lto_priv.N); or a handler. */
static int matches(const struct dispatch_options *o, const char *sym)
{
	if (o->handlers)
		return starts_with(sym, o->handlers);
	size_t n = strlen(o->function);
	return !strncmp(sym, o->function, n) && (sym[n] == '\0' || sym[n] == '.');
}

/* One line of objdump -t, "ADDR FLAGS SECTION\tSIZE [.hidden] NAME" (FLAGS: 7 characters): a
 * matching symbol of non-zero size becomes a range, once per address (aliases are one code). */
static void on_symbol(struct scan *s, const char *line)
{
	char *p, *q;
	unsigned long long addr = strtoull(line, &p, 16);
	if (p == line || *p != ' ' || strlen(p) < 10 || !strchr(p + 9, '\t'))
		return;
	const char *section = p + 9, *tab = strchr(section, '\t');
	unsigned long long size = strtoull(tab + 1, &q, 16);
	const char *name = strrchr(q, ' ') ? strrchr(q, ' ') + 1 : q;
	if (size == 0 || q == tab + 1 || !matches(s->o, name))
		return;
	for (int i = 0; i < s->n; i++)
		if (s->r[i].start == addr && !strncmp(s->r[i].section, section, (size_t)(tab - section)) &&
		    s->r[i].section[tab - section] == '\0')
			return;
	s->r = grow_array(s->r, s->n, &s->cap, sizeof *s->r, 64);
	s->r[s->n++] = (struct range){xasprintf("%.*s", (int)(tab - section), section), addr, addr + size,
				      strstr(name, ".cold") != NULL, 0};
}

/* Whether an instruction (objdump's text after the address) is an indirect jump: x86's jmp *,
 * AArch64's br (and its authenticated forms), RISC-V's jr, POWER's bctr. */
static int indirect_jump(const char *insn)
{
	insn += strspn(insn, " \t");
	static const char *const prefixes[] = {"notrack ", "bnd ", "ds ", NULL};
	for (int i = 0; prefixes[i]; i++)
		if (starts_with(insn, prefixes[i]))
			insn += strlen(prefixes[i]) + strspn(insn + strlen(prefixes[i]), " ");
	size_t m = strcspn(insn, " \t");
	const char *arg = insn + m + strspn(insn + m, " \t");
	if ((m == 3 && !strncmp(insn, "jmp", 3)) || (m == 4 && !strncmp(insn, "jmpq", 4)))
		return arg[0] == '*';
	if ((m == 2 && !strncmp(insn, "br", 2)) || (m >= 4 && m <= 5 && !strncmp(insn, "bra", 3)))
		return arg[0] == 'x';
	return (m == 2 && !strncmp(insn, "jr", 2)) || (m == 4 && !strncmp(insn, "bctr", 4));
}

/* One line of objdump -d: "Disassembly of section NAME:", or an instruction "  ADDR: INSN"; an
 * indirect jump counts for the range of its section that holds its address. */
static void on_insn(struct scan *s, const char *line)
{
	if (starts_with(line, "Disassembly of section ")) {
		free(s->section);
		s->section = xasprintf("%.*s", (int)strcspn(line + 23, ":"), line + 23);
		return;
	}
	char *colon;
	unsigned long long addr = strtoull(line, &colon, 16);
	if (line[0] != ' ' || *colon != ':' || (colon[1] != ' ' && colon[1] != '\t') || !s->section)
		return;
	/* (no raw bytes: --no-show-raw-insn) */
	if (!indirect_jump(colon + 1))
		return;
	for (int i = 0; i < s->n; i++)
		if (addr >= s->r[i].start && addr < s->r[i].end && !strcmp(s->r[i].section, s->section))
			s->r[i].jumps++;
}

/* objdump OPTION FILE, each line of its output to fn as it comes (an interpreter's disassembly
 * is far larger than its loop). */
static void objdump_lines(struct scan *s, const char *option, const char *file, void (*fn)(struct scan *, const char *))
{
	const char *objdump = s->o->objdump;
	int fd[2];
	if (pipe(fd) < 0)
		fatal("pipe: %s", strerror(errno));
	char *argv[] = {(char *)objdump, (char *)option, "--no-show-raw-insn", (char *)file, NULL};
	struct proc p;
	if (proc_start_argv(&p, argv, fd[1], NULL) < 0)
		fatal("cannot run %s: %s", printable(objdump), strerror(p.exec_errno));
	close(fd[1]);
	FILE *in = fdopen(fd[0], "r");
	if (!in)
		fatal("fdopen: %s", strerror(errno));
	char *line = NULL, *said = NULL;
	size_t cap = 0;
	const char *tool = strrchr(objdump, '/') ? strrchr(objdump, '/') + 1 : objdump;
	for (ssize_t n; (n = getline(&line, &cap, in)) >= 0;) {
		line[n && line[n - 1] == '\n' ? n - 1 : n] = '\0';
		fn(s, line);
		if (!said && starts_with(line, tool) && line[strlen(tool)] == ':')
			said = xstrdup(line);
	}
	fclose(in);
	int st;
	while (waitpid(p.pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!proc_exit_ok(st))
		fatal("%s %s %s failed%s%s", printable(objdump), option, printable(file), said ? ": " : "",
		      said ? printable(said) : "");
}

/* The eval loop's functions in file (its symbol table), then their indirect jumps. */
static struct jumps count_jumps(const struct dispatch_options *o, const char *file)
{
	struct scan s = {.o = o};
	objdump_lines(&s, "-t", file, on_symbol);
	struct jumps j = {0};
	if (s.n)
		objdump_lines(&s, "-d", file, on_insn);
	for (int i = 0; i < s.n; i++) {
		j.jumps += s.r[i].jumps;
		j.functions += !s.r[i].cold;
		j.with_jump += !s.r[i].cold && s.r[i].jumps > 0;
	}
	return j;
}

static const struct option_spec dispatch_options[] = {
	OPT_STRING("function", 0, struct dispatch_options, function, "NAME", "the eval loop, whose computed gotos are counted"),
	OPT_STRING("handlers", 0, struct dispatch_options, handlers, "PREFIX", "instead, a tail-calling interpreter's handlers PREFIX..."),
	OPT_STRING("reference", 0, struct dispatch_options, reference, "OBJ", "the same source by the same compiler at -O3, no profile"),
	OPT_INT("min", 0, struct dispatch_options, min, "PERCENT", 0, 100, "least share of OBJ's indirect jumps to keep (default 90)"),
	OPT_STRING("objdump", 0, struct dispatch_options, objdump, "PATH", "objdump that disassembles both (default objdump)"),
	OPT_END,
};

const struct command_options options_dispatch = {
	"dispatch",
	"(--function=NAME | --handlers=PREFIX) --reference=OBJ [OPTIONS] PROGRAM",
	"Checks that PROGRAM's interpreter dispatch was not merged (clang 19): its eval loop's\n"
	"indirect jumps against OBJ's, a reference compile.  Prints both counts and the share kept.\n",
	.options = dispatch_options,
	"Exit status: 0 ok, 1 PROGRAM keeps less than --min percent of OBJ's indirect jumps, or\n"
	"the loop is in neither, 2 bad usage.\n",
};

static int judge(const struct dispatch_options *o, const char *program, struct jumps got, struct jumps ref)
{
	/* what is counted: "_PyEval_EvalFrameDefault" or "the handlers _TAIL_CALL_*" */
	char *w = o->handlers ? xasprintf("the handlers %s*", o->handlers) : xstrdup(o->function);
	if (!got.functions)
		fatal("%s not found in %s (a program without its symbols cannot be checked)", printable(w),
		      printable(program));
	if (!ref.jumps)
		fatal("%s in %s has no indirect jump: not an interpreter's dispatch", printable(w), printable(o->reference));
	long long share = got.jumps * 100 / ref.jumps;
	char handlers[120] = "";
	if (o->handlers)
		snprintf(handlers, sizeof handlers, " (%d of %d handlers have one; the reference: %d of %d)",
			 got.with_jump, got.functions, ref.with_jump, ref.functions);
	if (got.jumps * 100 < ref.jumps * o->min)
		fatal("%s in %s has %lld indirect jump%s where a reference -O3 compile of its source by the same "
		      "compiler has %lld (%lld%%, under %lld%%)%s: the compiler merged the interpreter's dispatch "
		      "(clang 19 does, llvm/llvm-project#106846; AX_PGO's -mllvm -tail-dup-pred-size and "
		      "-tail-dup-succ-size undo it, unless configured --disable-pgo-dispatch-fix)",
		      printable(w), printable(program), got.jumps, got.jumps == 1 ? "" : "s", ref.jumps, share, o->min,
		      handlers);
	printf("dispatch: %s in %s: %lld indirect jumps, %lld%% of a reference -O3 compile's %lld%s\n", printable(w),
	       printable(program), got.jumps, share, ref.jumps, handlers);
	return 0;
}

int cmd_dispatch(int argc, char **argv)
{
	struct dispatch_options o = {.objdump = "objdump", .min = 90};
	int first = options_parse(&options_dispatch, argc, argv, &o);
	if (first != argc - 1)
		usage_error("give one PROGRAM (see 'profopt dispatch --help')");
	if (!o.function == !o.handlers || !o.reference)
		usage_error("give --reference=OBJ and one of --function=NAME and --handlers=PREFIX");
	if (!*o.objdump || (o.function && !*o.function) || (o.handlers && !*o.handlers))
		usage_error("--objdump, --function and --handlers need a value");
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct jumps ref = count_jumps(&o, o.reference);
	struct jumps got = count_jumps(&o, argv[first]);
	return judge(&o, argv[first], got, ref);
}
