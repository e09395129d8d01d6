/*
 * layout.c — prints the layout table green links into every program
 * (src/core/diag/gdb_layout.c), one "name value size" line an entry:
 * the facts of the build that the documents quote (tools/docs.py).
 * In 1:1 mode there is no table and it prints nothing.
 */
#include <stdio.h>

struct layout_entry {
	const char *name;
	unsigned long value, size;
};
extern const struct layout_entry __green_debug[] __attribute__((weak));   /* none in 1:1 mode */

int main(void)
{
	for (const struct layout_entry *e = __green_debug; e && e->name; e++)
		printf("%s %lu %lu\n", e->name, e->value, e->size);
	return 0;
}
