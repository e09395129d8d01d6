/*
 * inline.c — the calls the compiler inlined at a program address, for
 * the frames of a report (docs/race.md): at -O2 a function called from
 * another is often part of it, and a report shows both, as a symboliser
 * does (`#0 StartThread file:41`, `#1 main file:46`).
 *
 * Read from the program's .debug_info (DWARF 2 to 5): the unit whose
 * address ranges hold the pc is found by its first entry, then its
 * entries are read in order, keeping at each depth the subprogram or
 * inlined subroutine whose ranges hold the pc.  Each inlined one gives
 * the name of its function (through DW_AT_abstract_origin, demangled by
 * print.c when it is a linkage name) and the file and line it was
 * called from (DW_AT_call_file, in the unit's line table: dwarf.c).
 * Only report time pays for this.
 */
#include <string.h>
#include "race.h"
#include "dwread.h"

static const unsigned char *info, *abbrev, *str, *line_str, *ranges, *rnglists, *addr_sec;
static size_t info_size, abbrev_size, str_size, line_str_size, ranges_size, rnglists_size,
              addr_size;
static int loaded;

/* ---- a unit */
struct abbrev {
	uint64_t code, tag;
	int children;
	const unsigned char *specs;   /* (name, form[, implicit const]) pairs */
};

struct unit {
	const unsigned char *start, *end, *dies;   /* the header, the end, the first entry */
	int version, off64;
	uint64_t abbrev_off, stmt_list, base, str_base, addr_base, rng_base;
	struct abbrev ab[512];
	unsigned nab;
};

static void read_abbrevs(struct unit *cu)
{
	struct in in = { abbrev + cu->abbrev_off, abbrev + abbrev_size, 0 };
	cu->nab = 0;
	if (cu->abbrev_off >= abbrev_size) return;
	while (in.p < in.end && cu->nab < 512) {
		struct abbrev *a = &cu->ab[cu->nab];
		uint64_t name, form;
		if (!(a->code = uleb(&in))) return;
		a->tag = uleb(&in);
		a->children = in.p < in.end && *in.p++;
		a->specs = in.p;
		do {
			name = uleb(&in);
			form = uleb(&in);
			if (form == 0x21) sleb(&in);
		} while (name || form);
		cu->nab++;
	}
}

static const struct abbrev *abbrev_of(const struct unit *cu, uint64_t code)
{
	unsigned i;
	if (code && code <= cu->nab && cu->ab[code - 1].code == code) return &cu->ab[code - 1];
	for (i = 0; i < cu->nab; i++)
		if (cu->ab[i].code == code) return &cu->ab[i];
	return 0;
}

/* An attribute's value: a number, or a string (in *s). */
static uint64_t value(struct in *in, const struct unit *cu, uint64_t form, int64_t implicit,
                      const char **s)
{
	int off = cu->off64 ? 8 : 4;
	uint64_t x;
	*s = 0;
	switch (form) {
	case 0x01: return u(in, 8);                                   /* addr */
	case 0x03: skip(in, u(in, 2)); return 0;
	case 0x04: skip(in, u(in, 4)); return 0;
	case 0x09: case 0x18: skip(in, uleb(in)); return 0;
	case 0x0a: skip(in, u(in, 1)); return 0;
	case 0x05: case 0x12: return u(in, 2);
	case 0x06: case 0x13: case 0x1c: return u(in, 4);
	case 0x07: case 0x14: case 0x20: case 0x24: return u(in, 8);
	case 0x0b: case 0x0c: case 0x11: return u(in, 1);
	case 0x1e: skip(in, 16); return 0;
	case 0x0d: return (uint64_t)sleb(in);
	case 0x0f: case 0x15: case 0x22: case 0x23: case 0x1b: return uleb(in);
	case 0x08: *s = cstr(in); return 0;
	case 0x0e: x = u(in, off); *s = x < str_size ? (const char *)str + x : 0; return x;
	case 0x1f: x = u(in, off); *s = x < line_str_size ? (const char *)line_str + x : 0; return x;
	case 0x10: return u(in, cu->version <= 2 ? 8 : off);          /* ref_addr */
	case 0x17: case 0x1d: case 0x1f20: case 0x1f21: return u(in, off);
	case 0x19: return 1;                                          /* flag_present */
	case 0x21: return (uint64_t)implicit;
	case 0x1a: case 0x25: case 0x26: case 0x27: case 0x28: case 0x1f02: {   /* strx */
		uint64_t i = form == 0x1a || form == 0x1f02 ? uleb(in) :
		             u(in, form == 0x25 ? 1 : form == 0x26 ? 2 : form == 0x27 ? 3 : 4);
		uint64_t at = cu->str_base + i * off, o;
		const unsigned char *so;
		size_t sos;
		so = __race_section(".debug_str_offsets", &sos);
		if (!so || at + off > sos) return 0;
		o = off == 8 ? *(const uint64_t *)(so + at) : *(const uint32_t *)(so + at);
		*s = o < str_size ? (const char *)str + o : 0;
		return 0;
	}
	case 0x29: return u(in, 1);
	case 0x2a: return u(in, 2);
	case 0x2b: return u(in, 3);
	case 0x2c: return u(in, 4);
	case 0x1f01: return uleb(in);
	case 0x16: return value(in, cu, uleb(in), implicit, s);      /* indirect */
	default: in->p = in->end; return 0;
	}
}

static int is_addrx(uint64_t form)
{
	return form == 0x1b || (form >= 0x29 && form <= 0x2c) || form == 0x1f01;
}

static uint64_t addrx(const struct unit *cu, uint64_t i)
{
	uint64_t at = cu->addr_base + i * 8;
	return addr_sec && at + 8 <= addr_size ? *(const uint64_t *)(addr_sec + at) : 0;
}

/* The attributes of one entry that matter here. */
struct die {
	const struct abbrev *ab;
	uint64_t low, high, ranges, origin, call_file, call_line, stmt_list;
	int has_low, high_off, has_ranges, ranges_x, origin_abs, has_origin;
	const char *name, *linkage;
};

static int read_die(struct in *in, const struct unit *cu, struct die *d)
{
	struct in sp;
	uint64_t code = uleb(in);
	memset(d, 0, sizeof *d);
	if (!code) return 0;
	if (!(d->ab = abbrev_of(cu, code))) {
		in->p = in->end;
		return 0;
	}
	sp.p = d->ab->specs;
	sp.end = abbrev + abbrev_size;
	for (;;) {
		uint64_t name = uleb(&sp), form = uleb(&sp), v;
		int64_t imp = form == 0x21 ? sleb(&sp) : 0;
		const char *s;
		if (!name && !form) break;
		v = value(in, cu, form, imp, &s);
		switch (name) {
		case 0x11: d->low = is_addrx(form) ? addrx(cu, v) : v; d->has_low = 1; break;
		case 0x12: d->high = is_addrx(form) ? addrx(cu, v) : v;
			d->high_off = form != 0x01 && !is_addrx(form); break;
		case 0x55: d->ranges = v; d->has_ranges = 1; d->ranges_x = form == 0x23; break;
		case 0x31: case 0x47:
			if (!d->has_origin) {
				d->origin = v;
				d->origin_abs = form == 0x10;
				d->has_origin = 1;
			}
			break;
		case 0x03: d->name = s; break;
		case 0x6e: case 0x2007: d->linkage = s; break;
		case 0x58: d->call_file = v; break;
		case 0x59: d->call_line = v; break;
		case 0x10: d->stmt_list = v; break;
		}
		if (in->p >= in->end) return 0;
	}
	return 1;
}

/* Does the entry's code hold pc? */
static int holds(const struct unit *cu, const struct die *d, uint64_t pc)
{
	if (d->has_ranges) {
		uint64_t base = cu->base;
		if (cu->version >= 5) {
			struct in in;
			uint64_t off = d->ranges;
			if (d->ranges_x) {
				uint64_t at = cu->rng_base + off * (cu->off64 ? 8 : 4);
				if (!rnglists || at + 4 > rnglists_size) return 0;
				off = cu->rng_base + (cu->off64 ? *(const uint64_t *)(rnglists + at) :
				                      *(const uint32_t *)(rnglists + at));
			}
			if (!rnglists || off >= rnglists_size) return 0;
			in.p = rnglists + off;
			in.end = rnglists + rnglists_size;
			while (in.p < in.end) {
				unsigned k = *in.p++;
				uint64_t a, b;
				switch (k) {
				case 0: return 0;
				case 1: base = addrx(cu, uleb(&in)); continue;
				case 2: a = addrx(cu, uleb(&in)); b = addrx(cu, uleb(&in)); break;
				case 3: a = addrx(cu, uleb(&in)); b = a + uleb(&in); break;
				case 4: a = base + uleb(&in); b = base + uleb(&in); break;
				case 5: base = u(&in, 8); continue;
				case 6: a = u(&in, 8); b = u(&in, 8); break;
				case 7: a = u(&in, 8); b = a + uleb(&in); break;
				default: return 0;
				}
				if (pc >= a && pc < b) return 1;
			}
			return 0;
		} else {
			const unsigned char *p = ranges + d->ranges;
			if (!ranges || d->ranges >= ranges_size) return 0;
			for (; p + 16 <= ranges + ranges_size; p += 16) {
				uint64_t a = *(const uint64_t *)p, b = *(const uint64_t *)(p + 8);
				if (!a && !b) return 0;
				if (a == ~0ull) {
					base = b;
					continue;
				}
				if (pc >= base + a && pc < base + b) return 1;
			}
			return 0;
		}
	}
	if (d->has_low) {
		uint64_t hi = d->high_off ? d->low + d->high : d->high;
		return pc >= d->low && pc < hi;
	}
	return 0;
}

/* The name of the function an entry stands for (following its origin
 * or specification, twice at most). */
static const char *name_of(const struct unit *cu, const struct die *d)
{
	struct die o = *d;
	int hop;
	for (hop = 0; hop < 3; hop++) {
		struct in in;
		if (o.linkage) return o.linkage;
		if (o.name && !o.has_origin) return o.name;
		if (!o.has_origin) return o.name;
		in.p = o.origin_abs ? info + o.origin : cu->start + o.origin;
		in.end = o.origin_abs ? info + info_size : cu->end;
		if (in.p >= in.end || !read_die(&in, cu, &o)) return d->name;
	}
	return o.linkage ? o.linkage : o.name;
}

static void load(void)
{
	if (loaded) return;
	loaded = 1;
	info = __race_section(".debug_info", &info_size);
	abbrev = __race_section(".debug_abbrev", &abbrev_size);
	str = __race_section(".debug_str", &str_size);
	line_str = __race_section(".debug_line_str", &line_str_size);
	ranges = __race_section(".debug_ranges", &ranges_size);
	rnglists = __race_section(".debug_rnglists", &rnglists_size);
	addr_sec = __race_section(".debug_addr", &addr_size);
}

/* The unit's header and first entry's bases; 0 if not a unit to read. */
static int open_unit(struct unit *cu, const unsigned char *p, const unsigned char **next)
{
	struct in in = { p, info + info_size, 0 };
	uint64_t len = u(&in, 4);
	int type = 1;
	cu->off64 = 0;
	if (len == 0xffffffff) {
		cu->off64 = 1;
		len = u(&in, 8);
	}
	if (len > (uint64_t)(in.end - in.p)) return -1;
	cu->start = p;
	cu->end = in.p + len;
	*next = cu->end;
	in.end = cu->end;
	cu->version = (int)u(&in, 2);
	if (cu->version < 2 || cu->version > 5) return 0;
	if (cu->version >= 5) {
		type = (int)u(&in, 1);
		u(&in, 1);
		cu->abbrev_off = u(&in, cu->off64 ? 8 : 4);
		if (type == 2 || type == 6) return 0;              /* type units */
		if (type == 4 || type == 5) u(&in, 8);             /* skeleton, split: an id */
	} else {
		cu->abbrev_off = u(&in, cu->off64 ? 8 : 4);
		u(&in, 1);
	}
	cu->dies = in.p;
	cu->base = cu->str_base = cu->addr_base = cu->rng_base = 0;
	read_abbrevs(cu);
	return 1;
}

hidden int __race_inlined(uintptr_t pc, struct race_inlined *out, int max)
{
	static struct unit cu;     /* (large: its abbreviations) */
	const unsigned char *p, *next;
	load();
	pc -= __race_bias();   /* a PIE's (elf.c) */
	if (!info || !abbrev) return 0;
	for (p = info; p < info + info_size; p = next) {
		struct in in;
		struct die d, chain[64];
		int depth = 0, deepest = -1, n = 0, k, r = open_unit(&cu, p, &next);
		if (r < 0) return 0;
		if (!r) continue;
		in.p = cu.dies;
		in.end = cu.end;
		if (!read_die(&in, &cu, &d)) continue;
		/* the unit entry: its bases (str_offsets, addr, rnglists: 0x72..0x74
		 * are read again below, as read_die does not keep them) */
		{
			struct in sp = { d.ab->specs, abbrev + abbrev_size, 0 }, v = { cu.dies, cu.end, 0 };
			const char *s;
			uleb(&v);
			for (;;) {
				uint64_t name = uleb(&sp), form = uleb(&sp), x;
				int64_t imp = form == 0x21 ? sleb(&sp) : 0;
				if (!name && !form) break;
				x = value(&v, &cu, form, imp, &s);
				if (name == 0x72) cu.str_base = x;
				else if (name == 0x73) cu.addr_base = x;
				else if (name == 0x74) cu.rng_base = x;
			}
		}
		cu.base = d.has_low ? d.low : 0;
		if (!holds(&cu, &d, pc)) continue;
		{
			uint64_t stmt = d.stmt_list;
			int children = d.ab->children;
			if (!children) return 0;
			depth = 1;
			memset(chain, 0, sizeof chain);
			while (depth > 0 && in.p < in.end) {
				if (!read_die(&in, &cu, &d)) {
					if (in.p >= in.end) break;
					depth--;          /* the end of a list of children */
					continue;
				}
				if ((d.ab->tag == 0x2e || d.ab->tag == 0x1d) && depth < 64 && holds(&cu, &d, pc)) {
					chain[depth] = d;
					if (depth > deepest) deepest = depth;
					for (k = depth + 1; k <= deepest; k++) chain[k].ab = 0;
					deepest = depth;
				}
				if (d.ab->children) depth++;
			}
			/* the inlined subroutines, innermost first */
			for (k = deepest; k > 0 && n < max; k--) {
				if (!chain[k].ab || chain[k].ab->tag != 0x1d) continue;
				out[n].name = name_of(&cu, &chain[k]);
				out[n].unit = stmt;
				out[n].file = chain[k].call_file;
				out[n].line = (unsigned)chain[k].call_line;
				n++;
			}
			return n;
		}
	}
	return 0;
}
