/*
 * reuseport.c — linked into CivetWeb for bench/http.sh's two-process
 * column (ld --wrap=setsockopt): a socket given SO_REUSEADDR gets
 * SO_REUSEPORT too, so that two CivetWeb processes can each bind and
 * listen on the same port and the kernel spreads the connections between
 * them (docs/servers.md, "On every core").  CivetWeb 1.15 has no option
 * for it; its own sources stay unchanged.
 */
#include <sys/socket.h>

int __real_setsockopt(int, int, int, const void *, socklen_t);

int __wrap_setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	int r = __real_setsockopt(fd, level, name, val, len);
	if (r == 0 && level == SOL_SOCKET && name == SO_REUSEADDR)
		r = __real_setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, val, len);
	return r;
}
