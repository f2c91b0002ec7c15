/* qemu-exec.c - makes the programs that pgo.mk runs under qemu-user follow exec.
 *
 * Without binfmt_misc, a program emulated by qemu-user that starts a program of the target
 * (fork + execve of an ELF of its own machine: a Python test running sys.executable) hands
 * it to this machine's kernel, which cannot run it (ENOEXEC, "Exec format error").  Preloaded
 * into the emulated program (qemu's -E LD_PRELOAD=THIS, so the qemu process of this machine
 * never loads it), the exec functions below start such a program through the emulator:
 *
 *     QEMU-COMMAND -0 ARGV0 -E LD_PRELOAD=THIS[:THEIRS] FILE ARG...
 *
 * QEMU-COMMAND is the environment's PROFOPT_QEMU_EXEC (words split at white space, no
 * quoting: "/usr/bin/qemu-aarch64 -L /usr/aarch64-linux-gnu"), which pgo.mk exports; the
 * environment goes on to the emulator without LD_PRELOAD (which qemu's -E carries).  A script
 * whose #! names a program of the target is started the same way; anything else (a program
 * of this machine, its scripts) is exec'd as it is.  The library takes itself out of
 * LD_PRELOAD, and PROFOPT_QEMU_EXEC out of the environment, when it loads: no program of this
 * machine is asked to preload it, and the emulated programs see the environment they were
 * given (the emulator gets PROFOPT_QEMU_EXEC back for the programs it starts).
 *
 * pgo.mk builds it with the target's compiler: $(CC) -shared -fPIC -o qemu-exec.so qemu-exec.c -ldl
 * (execve, execv, execvp, execvpe, posix_spawn and posix_spawnp; the exec path does no malloc:
 * it may run in a vfork child).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <spawn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define QEMU_VAR "PROFOPT_QEMU_EXEC"
#define PRELOAD_VAR "LD_PRELOAD"
enum { MAX_WORDS = 32, MAX_TEXT = 4096, HEAD_BYTES = 256 };

/* The ELF header of this library: its class, data encoding and machine are the target's. */
extern const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden")));
extern char **environ;

static char self[PATH_MAX];             /* this library, as LD_PRELOAD named it */
static char qemu_assignment[MAX_TEXT + sizeof QEMU_VAR]; /* PROFOPT_QEMU_EXEC=..., for the emulator */
static char qemu_text[MAX_TEXT];        /* PROFOPT_QEMU_EXEC, its words split in place */
static char *qemu_words[MAX_WORDS + 1];
static int qemu_word_count;
static char qemu_path[PATH_MAX];        /* the emulator, its first word found in PATH */
static const char *qemu_error;          /* why there is none, said when one is needed */

/* What an exec of the target becomes: the emulator's path, arguments and environment, in
 * one anonymous mapping (mmap, not malloc: safe in a vfork child). */
struct plan {
	const char *path;
	char **argv;
	char **envp;
	char *mem;
	size_t size;
};

static void say(const char *a, const char *b, const char *c)
{
	const char *parts[] = {"qemu-exec: ", a, b, c, "\n"};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (parts[i] && write(2, parts[i], strlen(parts[i])) < 0)
			return;
}

/* The next place of NAME in the PATH list at *DIRS (advanced; NULL at its end) into OUT,
 * those too long skipped: 0 when the list is done. */
static int next_in_path(const char **dirs, const char *name, char out[PATH_MAX])
{
	size_t len = strlen(name);
	while (*dirs) {
		const char *d = *dirs;
		size_t dlen = strcspn(d, ":");
		*dirs = d[dlen] ? d + dlen + 1 : NULL;
		if (!dlen)
			d = ".", dlen = 1;
		if (dlen + 1 + len < PATH_MAX) {
			memcpy(out, d, dlen);
			out[dlen] = '/';
			memcpy(out + dlen + 1, name, len + 1);
			return 1;
		}
	}
	return 0;
}

static const char *path_list(void)
{
	const char *dirs = getenv("PATH");
	return dirs ? dirs : "/bin:/usr/bin";
}

/* NAME as a program in PATH (or NAME itself when it holds a /) into OUT; 0 if none. */
static int find_in_path(const char *name, char out[PATH_MAX])
{
	const char *dirs = path_list();
	struct stat st;
	if (strchr(name, '/'))
		return strlen(name) < PATH_MAX ? (strcpy(out, name), 1) : 0;
	while (*name && next_in_path(&dirs, name, out))
		if (access(out, X_OK) == 0 && stat(out, &st) == 0 && S_ISREG(st.st_mode))
			return 1;
	return 0;
}

/* PROFOPT_QEMU_EXEC, split into words (bounded; quotes refused: no shell reads it). */
static void read_qemu_command(const char *text)
{
	char *save = NULL;
	if (!text)
		qemu_error = QEMU_VAR " is not set (pgo.mk sets it to the runner, e.g. qemu-aarch64 -L SYSROOT)";
	else if (strlen(text) >= sizeof qemu_text)
		qemu_error = QEMU_VAR " is longer than 4095 bytes";
	else if (strpbrk(text, "'\"\\`$"))
		qemu_error = QEMU_VAR " holds a quote, \\, ` or $: its words are split at white space, unquoted";
	if (qemu_error)
		return;
	strcpy(stpcpy(qemu_assignment, QEMU_VAR "="), text);
	strcpy(qemu_text, text);
	for (char *w = strtok_r(qemu_text, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		if (qemu_word_count == MAX_WORDS) {
			qemu_error = QEMU_VAR " has more than 32 words";
			return;
		}
		qemu_words[qemu_word_count++] = w;
	}
	if (!qemu_word_count)
		qemu_error = QEMU_VAR " is empty";
	else if (!find_in_path(qemu_words[0], qemu_path))
		qemu_error = QEMU_VAR "'s emulator is not found in PATH";
}

/* LD_PRELOAD without this library: the programs started from here need not load it (the
 * emulated ones get it back by qemu's -E). */
static void drop_self_from_preload(void)
{
	const char *list = getenv(PRELOAD_VAR);
	char rest[MAX_TEXT];
	size_t len = 0, self_len = strlen(self);
	if (!list || !self_len || strlen(list) >= sizeof rest)
		return;
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ": ");
		if (n && !(n == self_len && memcmp(p, self, n) == 0)) {
			if (len)
				rest[len++] = ':';
			memcpy(rest + len, p, n);
			len += n;
		}
		p += n + (p[n] != '\0');
	}
	rest[len] = '\0';
	if (len)
		setenv(PRELOAD_VAR, rest, 1);
	else
		unsetenv(PRELOAD_VAR);
}

__attribute__((constructor)) static void qemu_exec_init(void)
{
	Dl_info info;
	if (dladdr((void *)qemu_exec_init, &info) && info.dli_fname && strlen(info.dli_fname) < sizeof self)
		strcpy(self, info.dli_fname);
	drop_self_from_preload();
	read_qemu_command(getenv(QEMU_VAR));
	unsetenv(QEMU_VAR);
}

/* The first bytes of FILE into HEAD (NUL-terminated); their count, or -1.  Only a regular
 * file is read: opening a FIFO waits for a writer and a device's read may never return, and
 * the kernel runs neither (the exec then fails as it would without this library). */
static ssize_t read_head(const char *file, char head[HEAD_BYTES + 1])
{
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	ssize_t n;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	n = read(fd, head, HEAD_BYTES);
	close(fd);
	if (n >= 0)
		head[n] = '\0';
	return n;
}

/* Whether HEAD (N bytes) starts an ELF file of this library's class, encoding and machine. */
static int is_target_elf(const char *head, ssize_t n)
{
	const unsigned char *own = (const unsigned char *)&__ehdr_start;
	size_t machine = offsetof(ElfW(Ehdr), e_machine);
	return n >= (ssize_t)sizeof(ElfW(Ehdr)) && memcmp(head, ELFMAG, SELFMAG) == 0 &&
		head[EI_CLASS] == own[EI_CLASS] && head[EI_DATA] == own[EI_DATA] &&
		memcmp(head + machine, own + machine, sizeof __ehdr_start.e_machine) == 0;
}

/* What FILE is: 1 a program of the target, 2 a script whose #! line names one (split in
 * HEAD: *INTERP and *ARG, or NULL), 0 anything else. */
static int classify(const char *file, char head[HEAD_BYTES + 1], char **interp, char **arg)
{
	char inner[HEAD_BYTES + 1];
	ssize_t n = read_head(file, head);
	char *p, *end;
	if (is_target_elf(head, n))
		return 1;
	if (n < 3 || head[0] != '#' || head[1] != '!' || !(end = memchr(head, '\n', (size_t)n)))
		return 0;
	*end = '\0';
	for (p = head + 2; *p == ' ' || *p == '\t'; p++)
		;
	*interp = p;
	p += strcspn(p, " \t");
	*arg = NULL;
	if (*p) {
		*p++ = '\0';
		p += strspn(p, " \t");
		for (end = p + strlen(p); end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'); end--)
			end[-1] = '\0';
		*arg = *p ? p : NULL;
	}
	return **interp && is_target_elf(inner, read_head(*interp, inner)) ? 2 : 0;
}

static char *copy_into(char **at, const char *a, const char *b, const char *c)
{
	char *start = *at;
	*at = stpcpy(stpcpy(stpcpy(*at, a), b ? b : ""), c ? c : "") + 1;
	return start;
}

/* The emulator's environment: ENVP without LD_PRELOAD (its value in *THEIRS) and with this
 * process's PROFOPT_QEMU_EXEC, for the programs that the emulated one starts in turn. */
static void plan_environment(struct plan *p, char *const envp[], size_t count, const char **theirs)
{
	size_t k = 0, plen = strlen(PRELOAD_VAR "="), qlen = strlen(QEMU_VAR "=");
	*theirs = NULL;
	for (size_t i = 0; i < count; i++) {
		if (strncmp(envp[i], PRELOAD_VAR "=", plen) == 0)
			*theirs = envp[i] + plen;
		else if (strncmp(envp[i], QEMU_VAR "=", qlen) != 0)
			p->envp[k++] = envp[i];
	}
	p->envp[k++] = qemu_assignment;
	p->envp[k] = NULL;
}

static size_t count_of(char *const list[])
{
	size_t n = 0;
	while (list && list[n])
		n++;
	return n;
}

/* PROGRAM as the emulator, another process, must name it: /proc/self/exe is the emulated
 * program (qemu's readlink says which), and a name starting with - is no option. */
static char *program_name(char **at, const char *program)
{
	char *start = *at;
	ssize_t n;
	if (strcmp(program, "/proc/self/exe") == 0 && (n = readlink(program, start, PATH_MAX - 1)) > 0) {
		start[n] = '\0';
		*at += n + 1;
		return start;
	}
	return copy_into(at, program[0] == '-' ? "./" : "", program, NULL);
}

/* The plan for exec'ing FILE (ARGV, ENVP): 0 run it as it is, 1 run P (the emulator),
 * -1 an error (errno set). */
static int plan_for(struct plan *p, const char *file, char *const argv[], char *const envp[])
{
	char head[HEAD_BYTES + 1], *interp = NULL, *arg = NULL, *at;
	int kind = classify(file, head, &interp, &arg);
	size_t nargs = count_of(argv), nenv = count_of(envp), k = 0;
	const char *theirs, *program = kind == 2 ? interp : file;
	if (!kind)
		return 0;
	if (qemu_error) {
		say("cannot start ", file, ", a program of the target, through the emulator:");
		say(qemu_error, NULL, NULL);
		errno = ENOEXEC;
		return -1;
	}
	p->size = (nargs + MAX_WORDS + 12 + nenv + 2) * sizeof(char *) + strlen(file) + 2 * HEAD_BYTES + 2 * PATH_MAX + 64;
	for (size_t i = 0; i < nenv; i++)
		p->size += strncmp(envp[i], PRELOAD_VAR "=", strlen(PRELOAD_VAR "=")) == 0 ? strlen(envp[i]) : 0;
	p->mem = mmap(NULL, p->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->mem == MAP_FAILED)
		return -1;
	p->argv = (char **)p->mem;
	p->envp = p->argv + nargs + MAX_WORDS + 12;
	at = (char *)(p->envp + nenv + 2);
	plan_environment(p, envp, nenv, &theirs);
	p->path = qemu_path;
	for (int i = 0; i < qemu_word_count; i++)
		p->argv[k++] = qemu_words[i];
	p->argv[k++] = "-0";
	p->argv[k++] = kind == 2 ? copy_into(&at, interp, NULL, NULL) : nargs ? argv[0] : (char *)file;
	p->argv[k++] = "-E";
	p->argv[k++] = copy_into(&at, PRELOAD_VAR "=", self, NULL);
	if (theirs && *theirs) /* the program's own preloads, after this library */
		at = stpcpy(stpcpy(at - 1, ":"), theirs) + 1;
	p->argv[k++] = program_name(&at, program);
	if (kind == 2 && arg)
		p->argv[k++] = copy_into(&at, arg, NULL, NULL);
	if (kind == 2)
		p->argv[k++] = (char *)file;
	for (size_t i = 1; i < nargs; i++)
		p->argv[k++] = argv[i];
	p->argv[k] = NULL;
	return 1;
}

static void release(struct plan *p)
{
	int saved = errno;
	munmap(p->mem, p->size);
	errno = saved;
}

int execve(const char *file, char *const argv[], char *const envp[])
{
	struct plan p;
	int kind = plan_for(&p, file, argv, envp);
	if (kind <= 0)
		return kind < 0 ? -1 : (int)syscall(SYS_execve, file, argv, envp);
	syscall(SYS_execve, p.path, p.argv, p.envp);
	release(&p);
	return -1;
}

int execv(const char *file, char *const argv[])
{
	return execve(file, argv, environ);
}

/* As glibc's: each PATH directory in turn, EACCES said if one was denied and none ran. */
int execvpe(const char *file, char *const argv[], char *const envp[])
{
	const char *dirs = path_list();
	char path[PATH_MAX];
	int denied = 0;
	if (!*file || strchr(file, '/'))
		return *file ? execve(file, argv, envp) : (errno = ENOENT, -1);
	while (next_in_path(&dirs, file, path)) {
		execve(path, argv, envp);
		if (errno == EACCES)
			denied = 1;
		else if (errno != ENOENT && errno != ENOTDIR && errno != ESTALE && errno != ENODEV && errno != ETIMEDOUT)
			return -1;
	}
	errno = denied ? EACCES : ENOENT;
	return -1;
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

typedef int spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
	char *const[], char *const[]);

/* posix_spawn (NAME) of FILE, or of the emulator when FILE (found as FOUND) is the target's. */
static int spawn(const char *name, pid_t *pid, const char *file, const char *found,
	const posix_spawn_file_actions_t *actions, const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	spawn_fn *real = (spawn_fn *)dlsym(RTLD_NEXT, name), *direct = (spawn_fn *)dlsym(RTLD_NEXT, "posix_spawn");
	struct plan p;
	int kind, status;
	if (!real || !direct)
		return ENOSYS;
	kind = found ? plan_for(&p, found, argv, envp) : 0;
	if (kind <= 0)
		return kind < 0 ? errno : real(pid, file, actions, attr, argv, envp);
	status = direct(pid, p.path, actions, attr, p.argv, p.envp);
	release(&p);
	return status;
}

int posix_spawn(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
	const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	return spawn("posix_spawn", pid, file, file, actions, attr, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
	const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	char found[PATH_MAX];
	return spawn("posix_spawnp", pid, file, find_in_path(file, found) ? found : NULL, actions, attr, argv, envp);
}
