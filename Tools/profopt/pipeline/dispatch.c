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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct dispatch_options {
	const char *objdump, *function, *handlers, *reference;
	long long min;
};

/* What the disassembly of one file holds for the eval loop. */
struct jumps {
	long long jumps;  /* indirect jumps in the matched functions */
	int functions;    /* matched functions (a function's .cold part apart) */
	int with_jump;    /* of them, those with an indirect jump */
	int current;      /* the function being read matches */
	int current_jump; /* and has had an indirect jump */
};

/* Whether symbol `sym` (objdump's "<sym>") is the eval loop: NAME itself or a part of it the
 * compiler or the linker named NAME.SUFFIX (.cold, .llvm.N, .lto_priv.N); or a handler. */
static int matches(const struct dispatch_options *o, const char *sym, size_t len)
{
	if (o->handlers)
		return len >= strlen(o->handlers) && !strncmp(sym, o->handlers, strlen(o->handlers));
	size_t n = strlen(o->function);
	return len >= n && !strncmp(sym, o->function, n) && (len == n || sym[n] == '.');
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

/* One line of objdump -d: a symbol's header "ADDR <NAME>:", or an instruction "ADDR:\tINSN". */
static void on_line(const struct dispatch_options *o, struct jumps *j, const char *line)
{
	const char *lt = strchr(line, '<'), *end = lt ? strstr(lt, ">:") : NULL;
	if (line[0] != ' ' && end && end[2] == '\0') {
		j->current = matches(o, lt + 1, (size_t)(end - lt - 1));
		j->current_jump = 0;
		j->functions += j->current && !strstr(lt, ".cold");
		return;
	}
	const char *colon = strchr(line, ':');
	if (!j->current || line[0] != ' ' || !colon || colon[1] != '\t')
		return;
	/* after the address, the raw bytes (unless --no-show-raw-insn) and a tab, then the instruction */
	const char *insn = strchr(colon + 2, '\t') ? strrchr(colon + 2, '\t') + 1 : colon + 2;
	if (indirect_jump(insn)) {
		j->jumps++;
		j->with_jump += !j->current_jump;
		j->current_jump = 1;
	}
}

/* The disassembly of `file` read as it comes (an interpreter's is far larger than the loop). */
static struct jumps count_jumps(const struct dispatch_options *o, const char *file)
{
	int fd[2];
	if (pipe(fd) < 0)
		fatal("pipe: %s", strerror(errno));
	char *argv[] = {(char *)o->objdump, "-d", "--no-show-raw-insn", (char *)file, NULL};
	struct proc p;
	if (proc_start_argv(&p, argv, fd[1], NULL) < 0)
		fatal("cannot run %s: %s", printable(o->objdump), strerror(p.exec_errno));
	close(fd[1]);
	FILE *in = fdopen(fd[0], "r");
	if (!in)
		fatal("fdopen: %s", strerror(errno));
	struct jumps j = {0};
	char *line = NULL, *said = NULL;
	size_t cap = 0;
	const char *tool = strrchr(o->objdump, '/') ? strrchr(o->objdump, '/') + 1 : o->objdump;
	for (ssize_t n; (n = getline(&line, &cap, in)) >= 0;) {
		line[n && line[n - 1] == '\n' ? n - 1 : n] = '\0';
		on_line(o, &j, line);
		if (!said && starts_with(line, tool) && line[strlen(tool)] == ':')
			said = xstrdup(line);
	}
	fclose(in);
	free(line);
	int st;
	while (waitpid(p.pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!proc_exit_ok(st))
		fatal("%s -d %s failed%s%s", printable(o->objdump), printable(file), said ? ": " : "",
		      said ? printable(said) : "");
	free(said);
	return j;
}

static const struct option_spec dispatch_options[] = {
	OPT_STRING("function", 0, struct dispatch_options, function, "NAME",
		   "the eval loop, whose computed gotos are counted (with its parts NAME.SUFFIX)"),
	OPT_STRING("handlers", 0, struct dispatch_options, handlers, "PREFIX",
		   "instead, a tail-calling interpreter: its opcode handlers, the functions named PREFIX..."),
	OPT_STRING("reference", 0, struct dispatch_options, reference, "OBJ",
		   "the same source compiled by the same compiler at -O3, without profile or LTO (with the flags "
		   "that keep a dispatch apart where the compiler needs them: AX_PGO's PGO_DISPATCH_REF_CFLAGS)"),
	OPT_INT("min", 0, struct dispatch_options, min, "PERCENT", 0, 100,
		"the least share of the reference's indirect jumps the program must keep (default 90; 0: "
		"any, the counts said)"),
	OPT_STRING("objdump", 0, struct dispatch_options, objdump, "PATH",
		   "objdump that disassembles both (default objdump; a cross build's: the target's)"),
	OPT_END,
};

const struct command_options options_dispatch = {
	"dispatch",
	"(--function=NAME | --handlers=PREFIX) --reference=OBJ [OPTIONS] PROGRAM",
	"Checks that PROGRAM's interpreter dispatch was not merged: counts the indirect jumps of\n"
	"its eval loop (--function: the computed gotos, one per opcode handler; --handlers: a\n"
	"tail-calling interpreter's handlers, each ending in an indirect tail jump to the next)\n"
	"and compares them with the same count in OBJ, a reference compile of the same source by\n"
	"the same compiler at -O3.  Clang 19 merges every computed goto into one indirect jump\n"
	"(llvm/llvm-project#106846), which costs an interpreter much of its speed.  Prints the\n"
	"dispatch line: both counts and the share kept.\n",
	dispatch_options,
	"Exit status: 0 ok, 1 PROGRAM keeps less than --min percent of OBJ's indirect jumps (both\n"
	"numbers said), or the loop is in neither, 2 bad usage.\n",
	0,
};

/* What is counted, for messages: "_PyEval_EvalFrameDefault" or "the handlers _TAIL_CALL_*". */
static char *what(const struct dispatch_options *o)
{
	return o->handlers ? xasprintf("the handlers %s*", o->handlers) : xstrdup(o->function);
}

static int judge(const struct dispatch_options *o, const char *program, struct jumps got, struct jumps ref)
{
	char *w = what(o);
	if (!got.functions)
		fatal("no %s in %s (a program without its symbols cannot be checked)", printable(w), printable(program));
	if (!ref.jumps)
		fatal("%s in %s has no indirect jump: not an interpreter's dispatch", printable(w), printable(o->reference));
	long long share = got.jumps * 100 / ref.jumps;
	char handlers[120] = "";
	if (o->handlers)
		snprintf(handlers, sizeof handlers, " (%d of %d handlers end in one; the reference: %d of %d)",
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
	free(w);
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
