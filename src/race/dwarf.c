/*
 * dwarf.c — the file and line of a program address, for the frames of a
 * report (docs/race.md), read from the program's own .debug_line as a
 * symboliser does (DWARF versions 2 to 5, as gcc writes them with -g).
 *
 * The first lookup runs every unit's line-number program and keeps its
 * rows — address, file, line — in one array sorted by address (a
 * sequence's end is a row with no file); a lookup is then a binary
 * search for the last row at or below the address.  File names are
 * pointers into the mapped image (.debug_line, .debug_line_str,
 * .debug_str), with their directory when the table gives one.  A program
 * built without -g, or a section compressed (-gz), gives no lines, and
 * the frames say so as ThreadSanitizer's do ("<null>").
 */
#include <stdlib.h>
#include <string.h>
#include "race.h"
#include "dwread.h"

struct row {
	uint64_t addr;
	uint32_t file;           /* index in files[], NOFILE at a sequence's end */
	uint32_t line;
};
#define NOFILE 0xffffffffu

struct file { const char *dir, *name; };

static struct row *rows;
static size_t nrows;
static struct file *files;
static size_t nfiles;
static struct unit_files {         /* each unit's files, by its offset (inline.c's call_file) */
	uint64_t off;
	size_t file0;
	unsigned nfile;
	int base;
} *units;
static size_t nunits;
static int loaded;

static const unsigned char *line_str, *str;
static size_t line_str_size, str_size;

/* ---- reading */
static const char *strp(const unsigned char *sec, size_t size, uint64_t off)
{
	return sec && off < size ? (const char *)sec + off : "";
}

/* One attribute of a v5 directory or file entry: its string, or its
 * number in *num. */
static const char *form(struct in *in, uint64_t f, int off64, uint64_t *num)
{
	*num = 0;
	switch (f) {
	case 0x08: return cstr(in);                                              /* string */
	case 0x1f: return strp(line_str, line_str_size, u(in, off64 ? 8 : 4)); /* line_strp */
	case 0x0e: return strp(str, str_size, u(in, off64 ? 8 : 4));           /* strp */
	case 0x0f: *num = uleb(in); return 0;                                   /* udata */
	case 0x0d: *num = (uint64_t)sleb(in); return 0;                         /* sdata */
	case 0x0b: *num = u(in, 1); return 0;
	case 0x05: *num = u(in, 2); return 0;
	case 0x06: *num = u(in, 4); return 0;
	case 0x07: *num = u(in, 8); return 0;
	case 0x1e: in->p += in->end - in->p < 16 ? in->end - in->p : 16; return 0; /* data16 */
	case 0x09: { uint64_t n = uleb(in);                                    /* block */
		in->p += (uint64_t)(in->end - in->p) < n ? (uint64_t)(in->end - in->p) : n;
		return 0; }
	default: in->bad = 1; return 0;
	}
}

/* ---- one unit's header and program; rows and files are counted when
 * fill is 0 */
struct unit {
	int version, off64, min_inst, line_base, line_range, opcode_base, default_stmt;
	const unsigned char *lengths;
	const char *dirs[256];
	unsigned ndirs;
	size_t file0;            /* its files' first index in files[] */
	unsigned nfile;
	int file_base;           /* the number of its first file: 1 before DWARF 5, 0 after */
};

static void add_file(struct unit *un, int fill, const char *name, uint64_t dir)
{
	if (fill) {
		files[nfiles].name = name;
		files[nfiles].dir = dir < un->ndirs ? un->dirs[dir] : 0;
	}
	nfiles++;
	un->nfile++;
}

static int header_v5_entries(struct in *in, struct unit *un, int fill, int dirs)
{
	uint64_t fmt[16][2], count, i, num, dir = 0;
	unsigned nfmt = (unsigned)u(in, 1), k;
	if (nfmt > 16) return -1;
	for (k = 0; k < nfmt; k++) {
		fmt[k][0] = uleb(in);
		fmt[k][1] = uleb(in);
	}
	count = uleb(in);
	for (i = 0; i < count && !in->bad; i++) {
		const char *name = 0, *s;
		for (k = 0; k < nfmt; k++) {
			s = form(in, fmt[k][1], un->off64, &num);
			if (fmt[k][0] == 1) name = s;           /* DW_LNCT_path */
			else if (fmt[k][0] == 2) dir = num;     /* DW_LNCT_directory_index */
		}
		if (dirs) {
			if (un->ndirs < 256) un->dirs[un->ndirs++] = name;
		} else {
			add_file(un, fill, name ? name : "?", dir);
		}
	}
	return in->bad ? -1 : 0;
}

/* Rows of one sequence at one address: the last one stands (as the end
 * of a sequence replaces a row at its address), so that addresses rise
 * strictly within a sequence. */
static size_t seq_start;

static void emit(int fill, const struct unit *un, uint64_t addr, uint64_t file, uint64_t line,
                 int end)
{
	struct row *r;
	if (!fill) {
		nrows++;
		return;
	}
	r = &rows[nrows];
	if (nrows > seq_start && rows[nrows - 1].addr == addr) r = &rows[nrows - 1];
	else nrows++;
	r->addr = addr;
	r->line = (uint32_t)line;
	r->file = end || file - un->file_base >= un->nfile ? NOFILE :
	          (uint32_t)(un->file0 + file - un->file_base);
	if (end) seq_start = nrows;
}

static void program(struct in *in, struct unit *un, int fill)
{
	uint64_t addr = 0, file = 1, line = 1;
	while (in->p < in->end && !in->bad) {
		unsigned op = *in->p++;
		if (op >= (unsigned)un->opcode_base) {
			unsigned adj = op - un->opcode_base;
			addr += (uint64_t)(adj / un->line_range) * un->min_inst;
			line += un->line_base + (int)(adj % un->line_range);
			emit(fill, un, addr, file, line, 0);
			continue;
		}
		switch (op) {
		case 0: {                                  /* extended */
			uint64_t n = uleb(in);
			const unsigned char *next = in->p + n;
			unsigned sub;
			if (!n || n > (uint64_t)(in->end - in->p)) return;
			sub = *in->p++;
			if (sub == 1) {                    /* end_sequence */
				emit(fill, un, addr, file, line, 1);
				addr = 0;
				file = 1;
				line = 1;
			} else if (sub == 2) {             /* set_address */
				addr = u(in, (int)(n - 1) > 8 ? 8 : (int)(n - 1));
			} else if (sub == 3) {             /* define_file */
				const char *name = cstr(in);
				add_file(un, fill, name, uleb(in));
			}
			in->p = next;
			break;
		}
		case 1: emit(fill, un, addr, file, line, 0); break;
		case 2: addr += uleb(in) * un->min_inst; break;
		case 3: line += sleb(in); break;
		case 4: file = uleb(in); break;
		case 5: uleb(in); break;
		case 8: addr += (uint64_t)((255 - un->opcode_base) / un->line_range) * un->min_inst; break;
		case 9: addr += u(in, 2); break;
		case 6: case 7: case 10: case 11: break;
		default: {                                 /* set_isa and unknown: skip their operands */
			unsigned k;
			for (k = 0; k < un->lengths[op - 1]; k++) uleb(in);
		}
		}
	}
}

static void run(const unsigned char *sec, size_t size, int fill)
{
	struct in all = { sec, sec + size, 0 };
	nrows = nfiles = nunits = seq_start = 0;
	while (all.p < all.end) {
		struct unit un;
		struct in in;
		uint64_t off = all.p - sec, len = u(&all, 4), hlen;
		const unsigned char *start;
		memset(&un, 0, sizeof un);
		if (len == 0xffffffff) {
			un.off64 = 1;
			len = u(&all, 8);
		}
		if (all.bad || len > (uint64_t)(all.end - all.p)) return;
		in.p = all.p;
		in.end = all.p + len;
		in.bad = 0;
		all.p += len;
		un.version = (int)u(&in, 2);
		if (un.version < 2 || un.version > 5) continue;
		if (un.version >= 5) u(&in, 2);            /* address and selector sizes */
		hlen = u(&in, un.off64 ? 8 : 4);
		start = in.p + hlen;
		if (hlen > (uint64_t)(in.end - in.p)) continue;
		un.min_inst = (int)u(&in, 1);
		if (un.version >= 4) u(&in, 1);            /* maximum operations per instruction */
		un.default_stmt = (int)u(&in, 1);
		un.line_base = (signed char)u(&in, 1);
		un.line_range = (int)u(&in, 1);
		un.opcode_base = (int)u(&in, 1);
		un.lengths = in.p;
		if (!un.line_range || !un.opcode_base) continue;
		in.p += un.opcode_base - 1;
		un.file0 = nfiles;
		if (un.version >= 5) {
			un.file_base = 0;
			if (header_v5_entries(&in, &un, fill, 1) || header_v5_entries(&in, &un, fill, 0))
				continue;
		} else {
			un.file_base = 1;
			un.dirs[un.ndirs++] = 0;               /* 0: the compilation's directory */
			for (;;) {
				const char *d = cstr(&in);
				if (!*d || in.bad) break;
				if (un.ndirs < 256) un.dirs[un.ndirs++] = d;
			}
			for (;;) {
				const char *name = cstr(&in);
				uint64_t dir;
				if (!*name || in.bad) break;
				dir = uleb(&in);
				uleb(&in);
				uleb(&in);
				add_file(&un, fill, name, dir);
			}
		}
		in.p = start;
		seq_start = nrows;
		program(&in, &un, fill);
		if (fill) {
			units[nunits].off = off;
			units[nunits].file0 = un.file0;
			units[nunits].nfile = un.nfile;
			units[nunits].base = un.file_base;
		}
		nunits++;
	}
}

static int by_addr(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
	/* a sequence's end before the next sequence's start at the same address */
	return (x->file != NOFILE) - (y->file != NOFILE);
}

static void load(void)
{
	const unsigned char *sec;
	size_t size, n, f, nu;
	if (loaded) return;
	loaded = 1;
	if (!(sec = __race_section(".debug_line", &size))) return;
	line_str = __race_section(".debug_line_str", &line_str_size);
	str = __race_section(".debug_str", &str_size);
	run(sec, size, 0);
	n = nrows;
	f = nfiles;
	nu = nunits;
	rows = __race_alloc((n + 1) * sizeof *rows);
	files = __race_alloc((f + 1) * sizeof *files);
	units = __race_alloc((nu + 1) * sizeof *units);
	run(sec, size, 1);
	if (nrows > n || nfiles > f || nunits > nu) {
		nrows = nunits = 0;
		return;
	}
	qsort(rows, nrows, sizeof *rows, by_addr);
}

hidden int __race_line_of(uintptr_t pc, const char **dir, const char **file, unsigned *line)
{
	size_t lo = 0, hi;
	load();
	pc -= __race_bias();   /* a PIE's (elf.c) */
	hi = nrows;
	while (lo < hi) {                  /* the first row above pc */
		size_t mid = (lo + hi) / 2;
		if (rows[mid].addr <= pc) lo = mid + 1;
		else hi = mid;
	}
	if (!lo || rows[lo - 1].file == NOFILE || !rows[lo - 1].line) return 0;
	*dir = files[rows[lo - 1].file].dir;
	*file = files[rows[lo - 1].file].name;
	*line = rows[lo - 1].line;
	return 1;
}

/* File number `index` of the line table at offset `unit` of .debug_line
 * (a DW_AT_call_file of the unit whose DW_AT_stmt_list it is). */
hidden int __race_line_file(uint64_t unit, uint64_t index, const char **dir, const char **file)
{
	size_t lo = 0, hi;
	load();
	hi = nunits;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (units[mid].off < unit) lo = mid + 1;
		else hi = mid;
	}
	if (lo == nunits || units[lo].off != unit || index - units[lo].base >= units[lo].nfile)
		return 0;
	*dir = files[units[lo].file0 + index - units[lo].base].dir;
	*file = files[units[lo].file0 + index - units[lo].base].name;
	return 1;
}
