/*
 * map.c — a map from addresses to pointers, by open addressing, for the
 * detector's tables (the synchronisation objects and their pages,
 * vclock.c).  Keys 0 and 1 are reserved (empty and deleted slots); memory
 * comes from the detector's pool, and a table that grows leaves its old
 * arrays behind.
 */
#include "race.h"

static size_t slot_of(uintptr_t key, size_t cap)
{
	return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static void grow(struct race_map *m)
{
	uintptr_t *keys = m->keys;
	void **vals = m->vals;
	size_t cap = m->cap, i;
	/* double only when the live entries need it; else just drop the
	 * deleted slots */
	m->cap = cap ? (4 * (m->live + 1) > cap ? cap * 2 : cap) : 256;
	m->keys = __race_alloc(m->cap * sizeof *m->keys);
	m->vals = __race_alloc(m->cap * sizeof *m->vals);
	m->used = m->live = 0;
	for (i = 0; i < cap; i++)
		if (keys[i] > 1) __race_map_put(m, keys[i], vals[i]);
}

hidden void *__race_map_get(const struct race_map *m, uintptr_t key)
{
	size_t i;
	if (!m->cap) return 0;
	for (i = slot_of(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) return m->vals[i];
	return 0;
}

hidden void __race_map_put(struct race_map *m, uintptr_t key, void *val)
{
	size_t i, del = (size_t)-1;
	if (2 * (m->used + 1) > m->cap) grow(m);
	for (i = slot_of(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return;
		}
		if (m->keys[i] == 1 && del == (size_t)-1) del = i;
	}
	if (del == (size_t)-1) {
		del = i;
		m->used++;
	}
	m->keys[del] = key;
	m->vals[del] = val;
	m->live++;
}

hidden void __race_map_del(struct race_map *m, uintptr_t key)
{
	size_t i;
	if (!m->cap) return;
	for (i = slot_of(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->keys[i] = 1;
			m->live--;
			return;
		}
}
