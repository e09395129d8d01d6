/*
 * options.c — the detector's options, as ThreadSanitizer takes them
 * (docs/race.md): the program's own __tsan_default_options(), then
 * TSAN_OPTIONS, then green's GREEN_RACE_EXITCODE and
 * GREEN_RACE_SUPPRESSIONS, each overriding the one before.
 *
 * An option string is `name=value` pairs separated by spaces, commas,
 * colons or newlines (a value may be quoted).  What they do here:
 *
 *   halt_on_error=1        exit (with exitcode) after the first report
 *   exitcode=N             the exit status of a process that reported (66)
 *   report_bugs=0          report nothing (and keep the program's status)
 *   report_thread_leaks=0  no thread leak reports
 *   suppressions=FILE      a suppressions file (below)
 *   strip_path_prefix=P    drop P from the front of the files in stacks
 *
 * ThreadSanitizer's other options (history_size, second_deadlock_stack,
 * ...) are accepted and do nothing; an unknown name is reported once.
 *
 * A suppressions file has lines `KIND:PATTERN` (`#` starts a comment):
 * `race:` silences a data race or use after free whose stacks have a
 * function or a file, or whose variable has a name, that PATTERN matches
 * (`race_top:` looks at the two top frames only), `thread:` a thread leak
 * by the leaked thread's creation stack.  PATTERN matches a substring;
 * `*` matches any run of characters, a leading `^` anchors it at the
 * start and a trailing `$` at the end.  Other kinds (mutex:, deadlock:,
 * signal:, called_from_lib:) are accepted and match nothing.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "race.h"
#include "base/report.h"

hidden struct race_options __race_opt = { .exitcode = 66, .report_bugs = 1,
                                          .report_thread_leaks = 1 };
hidden const char *__race_strip_prefix;

const char *__tsan_default_options(void) __attribute__((__weak__));

static const char *const accepted[] = {
	"abort_on_error", "allocator_may_return_null", "allow_addr2line", "atexit_sleep_ms",
	"check_malloc_usable_size", "color", "detect_deadlocks", "detect_leaks",
	"die_after_fork", "enable_annotations", "external_symbolizer_path",
	"fast_unwind_on_fatal", "flush_memory_ms", "force_seq_cst_atomics", "handle_abort",
	"handle_segv", "handle_sigbus", "handle_sigfpe", "handle_sigill", "history_size",
	"ignore_interceptors_accesses", "ignore_noninstrumented_modules", "io_sync",
	"log_exe_name", "log_path", "log_suffix", "malloc_context_size", "memory_limit_mb",
	"print_benign", "print_module_map", "print_suppressions", "profile_memory",
	"report_atomic_races", "report_destroy_locked", "report_mutex_bugs",
	"running_on_valgrind", "second_deadlock_stack", "shared_ptr_interceptor",
	"stop_on_start", "symbolize", "symbolize_inline_frames", "verbosity",
	"use_sigaltstack", "intercept_tls_get_addr", "report_signal_unsafe",
};

static int boolean(const char *v)
{
	return !(!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no") || !*v);
}

static char *keep(const char *v)
{
	size_t n = strlen(v);
	char *s = __race_alloc(n + 1);
	memcpy(s, v, n + 1);
	return s;
}

static void set(const char *from, const char *name, const char *v)
{
	size_t i;
	if (!strcmp(name, "halt_on_error")) __race_opt.halt_on_error = boolean(v);
	else if (!strcmp(name, "exitcode")) __race_opt.exitcode = atoi(v);
	else if (!strcmp(name, "report_bugs")) __race_opt.report_bugs = boolean(v);
	else if (!strcmp(name, "report_thread_leaks")) __race_opt.report_thread_leaks = boolean(v);
	else if (!strcmp(name, "suppressions")) __race_opt.suppressions = *v ? keep(v) : 0;
	else if (!strcmp(name, "strip_path_prefix")) __race_strip_prefix = keep(v);
	else {
		for (i = 0; i < sizeof accepted / sizeof *accepted; i++)
			if (!strcmp(name, accepted[i])) return;
		__green_say("green: race detector: %s: unknown option '%s' (ignored)\n", from, name);
	}
}

static int sep(char c)
{
	return c == ' ' || c == ',' || c == ':' || c == '\n' || c == '\t' || c == '\r';
}

static void parse(const char *from, const char *s)
{
	char name[64], value[4096];
	while (s && *s) {
		size_t n = 0, m = 0;
		while (sep(*s)) s++;
		if (!*s) break;
		while (*s && *s != '=' && !sep(*s)) {
			if (n + 1 < sizeof name) name[n++] = *s;
			s++;
		}
		name[n] = 0;
		if (*s != '=') {
			__green_say("green: race detector: %s: '%s' has no value (ignored)\n", from, name);
			continue;
		}
		s++;
		if (*s == '\'' || *s == '"') {
			char q = *s++;
			while (*s && *s != q) {
				if (m + 1 < sizeof value) value[m++] = *s;
				s++;
			}
			if (*s) s++;
		} else {
			while (*s && !sep(*s)) {
				if (m + 1 < sizeof value) value[m++] = *s;
				s++;
			}
		}
		value[m] = 0;
		set(from, name, value);
	}
}

/* ---- suppressions */
struct supp { const char *kind, *pattern; };
static struct supp supp[512];
static int nsupp;

static void read_suppressions(const char *path)
{
	int fd = __real_open(path, O_RDONLY | O_CLOEXEC);
	char *text, *p, *e;
	long n, got = 0, cap = 1 << 16;
	if (fd < 0) {
		__green_say("green: race detector: cannot open the suppressions file %s\n", path);
		return;
	}
	text = __race_alloc(cap);
	while (got < cap - 1 && (n = __real_read(fd, text + got, cap - 1 - got)) > 0) got += n;
	__real_close(fd);
	text[got] = 0;
	for (p = text; *p; p = e) {
		char *q, *colon;
		e = p + strcspn(p, "\n");
		if (*e) *e++ = 0;
		while (*p == ' ' || *p == '\t') p++;
		for (q = p + strlen(p); q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'); ) *--q = 0;
		if (!*p || *p == '#') continue;
		if (!(colon = strchr(p, ':')) || !colon[1]) {
			__green_say("green: race detector: %s: ignored line '%s' (want KIND:PATTERN)\n",
			            path, p);
			continue;
		}
		*colon = 0;
		if (nsupp < (int)(sizeof supp / sizeof *supp)) {
			supp[nsupp].kind = p;
			supp[nsupp++].pattern = colon + 1;
		}
	}
}

static int glob(const char *p, const char *s)
{
	if (!*p) return 1;
	if (*p == '$' && !p[1]) return !*s;
	if (*p == '*') {
		for (;; s++) {
			if (glob(p + 1, s)) return 1;
			if (!*s) return 0;
		}
	}
	return *s && *p == *s && glob(p + 1, s + 1);
}

static int matches(const char *pat, const char *s)
{
	if (*pat == '^') return glob(pat + 1, s);
	for (; *s; s++)
		if (glob(pat, s)) return 1;
	return !*pat;
}

hidden int __race_suppressed(const char *kind, const char *name)
{
	int i;
	if (!name || !*name) return 0;
	for (i = 0; i < nsupp; i++)
		if (!strcmp(supp[i].kind, kind) && matches(supp[i].pattern, name)) return 1;
	return 0;
}

hidden int __race_have_suppressions(void)
{
	return nsupp;
}

hidden void __race_options_init(void)
{
	const char *e;
	if (__tsan_default_options) parse("__tsan_default_options", __tsan_default_options());
	parse("TSAN_OPTIONS", getenv("TSAN_OPTIONS"));
	if ((e = getenv("GREEN_RACE_EXITCODE")) && *e) __race_opt.exitcode = atoi(e);
	if ((e = getenv("GREEN_RACE_SUPPRESSIONS")) && *e) __race_opt.suppressions = e;
	if (__race_opt.suppressions) read_suppressions(__race_opt.suppressions);
}
