/*
 * ctype.h — green's overlay on the libc's <ctype.h>: tolower and toupper
 * in line.  musl's are functions, a call for every character a parser
 * folds (CivetWeb's header matching: docs/servers.md); these give the
 * same answers (musl's single-byte character classes are ASCII's in
 * every locale), and a program that takes their address or writes
 * (tolower)(c) still reaches musl's functions.  As glibc's header does,
 * only for C and only when optimizing.
 */
#include_next <ctype.h>

#if defined(__OPTIMIZE__) && !defined(__cplusplus) && !defined(__green_ctype_inline)
#define __green_ctype_inline 1
static __inline int __green_tolower(int __c) { return (unsigned)__c - 'A' < 26 ? __c | 32 : __c; }
static __inline int __green_toupper(int __c) { return (unsigned)__c - 'a' < 26 ? __c & 0x5f : __c; }
#define tolower(c) __green_tolower(c)
#define toupper(c) __green_toupper(c)
#endif
