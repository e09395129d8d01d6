/*
 * fdtab.c — the descriptor table (fdtab.h): one entry per descriptor
 * number, and the end of the part in use.  Its own file because the
 * engine (io.c, epoll.c) reads it in every build, the SPARC overlay's
 * included, while the kinds that fill it in (fdkind.c) are musl's I/O
 * dispatch's and not the overlay's.
 */
#include "fdtab.h"

hidden struct green_fd __green_fds[GREEN_FDS_MAX];
hidden unsigned __green_fds_end;
