/*
 * dl_find_object.c — _dl_find_object, which the host gcc's unwinder
 * needs to link.
 *
 * C++ programs (green-c++, docs/cxx.md) link the host gcc's libgcc_eh.a,
 * built against glibc 2.35 or later: its _Unwind_Find_FDE, having looked
 * in the frame tables registered at start-up, asks glibc's
 * _dl_find_object for the object holding a pc, and with it that object's
 * .eh_frame_hdr.  musl has no such function.
 *
 * In a static program, which every program green links is, there is no
 * other object to find, and the frames are all registered: crtbeginT.o
 * hands the whole .eh_frame to __register_frame_info before main, and a
 * static link has no .eh_frame_hdr for this answer to point at.  So a pc
 * that the registered tables do not cover is in no object: -1, after
 * which the unwinder reports the end of the stack.
 */
struct dl_find_object;

int _dl_find_object(void *pc, struct dl_find_object *result)
{
	(void)pc;
	(void)result;
	return -1;
}
