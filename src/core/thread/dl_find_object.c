/*
 * dl_find_object.c — _dl_find_object, which the host gcc's unwinder
 * asks for the object holding a pc, and with it that object's
 * .eh_frame_hdr.
 *
 * C++ programs (green-c++, docs/cxx.md) link the host gcc's libgcc_eh.a,
 * built against glibc 2.35 or later: its _Unwind_Find_FDE, having looked
 * in the frame tables registered at start-up, asks glibc's
 * _dl_find_object, and gives up when that fails.  musl has no such
 * function; this one answers from dl_iterate_phdr, which musl has in
 * both its static and its dynamic libc: the object whose loaded
 * segments hold the pc, and its PT_GNU_EH_FRAME segment.
 *
 * A static executable is the one object there is.  One of fixed
 * address registers its whole .eh_frame before main (crtbeginT.o) and
 * has no .eh_frame_hdr (a static link makes none): -1 here, after which
 * the unwinder reports the end of the stack, as before.  A static PIE
 * and the objects of a dynamically linked program (green's libc.so, the
 * program, the objects it loads) register nothing (crtbeginS.o) and
 * have their .eh_frame_hdr (green-cc links them with --eh-frame-hdr):
 * their frames are found here.
 *
 * The structure is glibc's for x86_64 and m68k (no data base: libgcc
 * reads none there).
 */
#include <link.h>
#include <stdint.h>

struct dl_find_object {
	unsigned long long dlfo_flags;
	void *dlfo_map_start;
	void *dlfo_map_end;
	struct link_map *dlfo_link_map;
	void *dlfo_eh_frame;
	unsigned long long dlfo_reserved[7];
};

struct lookup {
	uintptr_t pc;
	struct dl_find_object *out;
};

/* dl_iterate_phdr's callback: 1 (stop) at the object holding the pc */
static int holds(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct lookup *l = arg;
	uintptr_t lo = UINTPTR_MAX, hi = 0, eh = 0;
	int in = 0;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + p->p_vaddr;
		if (p->p_type == PT_GNU_EH_FRAME) eh = start;
		if (p->p_type != PT_LOAD) continue;
		if (start < lo) lo = start;
		if (start + p->p_memsz > hi) hi = start + p->p_memsz;
		if (l->pc >= start && l->pc - start < p->p_memsz) in = 1;
	}
	if (!in) return 0;
	l->out->dlfo_flags = 0;
	l->out->dlfo_map_start = (void *)lo;
	l->out->dlfo_map_end = (void *)hi;
	l->out->dlfo_link_map = 0;
	l->out->dlfo_eh_frame = (void *)eh;
	return 1;
}

int _dl_find_object(void *pc, struct dl_find_object *result)
{
	struct lookup l = { (uintptr_t)pc, result };

	if (!dl_iterate_phdr(holds, &l) || !result->dlfo_eh_frame) return -1;
	return 0;
}
