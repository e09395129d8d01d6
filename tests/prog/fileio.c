/*
 * fileio.c — file I/O in a program that has threads makes the system
 * calls stock musl makes.
 *
 *   fileio PATH MIB    writes MIB blocks of 1 MiB to PATH with write(),
 *                      reads them back with read(), then with fread();
 *                      every byte is checked.  tests/prog/fileio.sh runs it
 *                      under strace in both modes and compares the calls
 *                      on the file's descriptor (printed on stderr).
 *   fileio reuse PATH  a descriptor number that named a regular file and
 *                      then names a pipe (reused after close() or a raw
 *                      close_range, or replaced by dup2) waits like a
 *                      pipe: an empty pipe's read parks only the caller,
 *                      and the helper thread that fills it gets to run.
 *                      Were the number still taken for a file, the read
 *                      would block the process (for good with
 *                      GREEN_QUANTUM_MS=0: no tick to preempt it).
 *
 * A helper thread exists throughout, so green is active; it waits on a
 * condition variable, which makes no system call.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MIB (1 << 20)

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int fill_fd = -1, done;

/* the helper: when asked, fill a pipe after a pause */
static void *helper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	for (;;) {
		while (fill_fd < 0 && !done) pthread_cond_wait(&c, &m);
		if (done) break;
		int fd = fill_fd;
		fill_fd = -1;
		pthread_mutex_unlock(&m);
		nanosleep(&(struct timespec){ 0, 20000000 }, 0);
		if (write(fd, "x", 1) != 1) perror("helper write");
		pthread_mutex_lock(&m);
	}
	pthread_mutex_unlock(&m);
	return 0;
}

static void ask_fill(int fd)
{
	pthread_mutex_lock(&m);
	fill_fd = fd;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
}

static void fill(unsigned char *b, int blk)
{
	for (int i = 0; i < MIB; i++) b[i] = (unsigned char)(i * 7 + blk * 13 + (i >> 12));
}

static int check(const unsigned char *b, int blk, const char *how)
{
	for (int i = 0; i < MIB; i++)
		if (b[i] != (unsigned char)(i * 7 + blk * 13 + (i >> 12))) {
			fprintf(stderr, "%s: block %d differs at byte %d\n", how, blk, i);
			return 0;
		}
	return 1;
}

static int files(const char *path, int n)
{
	unsigned char *b = malloc(MIB);
	int fd, blk;
	ssize_t r;
	FILE *f;

	if (!b) return 0;
	/* write(): one call per block */
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) return perror(path), 0;
	fprintf(stderr, "write fd %d\n", fd);
	for (blk = 0; blk < n; blk++) {
		fill(b, blk);
		if ((r = write(fd, b, MIB)) != MIB) {
			fprintf(stderr, "write: %zd (%s)\n", r, strerror(errno));
			return 0;
		}
	}
	close(fd);
	/* read(): whole blocks, then end of file */
	if ((fd = open(path, O_RDONLY)) < 0) return perror(path), 0;
	fprintf(stderr, "read fd %d\n", fd);
	for (blk = 0; (r = read(fd, b, MIB)) > 0; blk++) {
		if (r != MIB) {
			fprintf(stderr, "read: short block %d: %zd\n", blk, r);
			return 0;
		}
		if (!check(b, blk, "read")) return 0;
	}
	if (r < 0 || blk != n) {
		fprintf(stderr, "read: %d blocks, want %d (%s)\n", blk, n, r < 0 ? strerror(errno) : "EOF");
		return 0;
	}
	close(fd);
	/* stdio: fread of a whole block reads into it directly */
	if (!(f = fopen(path, "r"))) return perror(path), 0;
	fprintf(stderr, "fread fd %d\n", fileno(f));
	for (blk = 0; blk < n; blk++)
		if (fread(b, 1, MIB, f) != MIB || !check(b, blk, "fread")) return 0;
	if (fgetc(f) != EOF || ferror(f)) return 0;
	fclose(f);
	free(b);
	return 1;
}

/* read one byte from rd, which the helper fills through wr after a pause */
static int wait_byte(int rd, int wr, const char *what)
{
	char ch;
	ssize_t r;
	ask_fill(wr);
	if ((r = read(rd, &ch, 1)) != 1 || ch != 'x') {
		fprintf(stderr, "%s: read %zd (%s)\n", what, r, r < 0 ? strerror(errno) : "");
		return 0;
	}
	return 1;
}

/* a descriptor of the file at path, read from once (green knows it now) */
static int file_fd(const char *path)
{
	char ch;
	int fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, &ch, 1) != 1) {
		perror(path);
		return -1;
	}
	return fd;
}

/* the file's number, closed by how, then reused by a pipe */
static int reuse_after(const char *path, int how, const char *what)
{
	int fd, p[2];

	if ((fd = file_fd(path)) < 0) return 0;
	if (how == 0) close(fd);
	else if (syscall(SYS_close_range, fd, fd, 0)) {
		if (errno != ENOSYS) return perror("close_range"), 0;
		close(fd);
	}
	if (pipe(p)) return perror("pipe"), 0;
	if (p[0] != fd) fprintf(stderr, "note: the pipe got %d, not the file's %d\n", p[0], fd);
	if (!wait_byte(p[0], p[1], what)) return 0;
	close(p[0]);
	close(p[1]);
	return 1;
}

static int reuse(const char *path)
{
	int fd, p[2];

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) return perror(path), 0;
	if (write(fd, "y", 1) != 1) return perror(path), 0;
	close(fd);
	if (!reuse_after(path, 0, "pipe reusing the number of a file closed with close()") ||
	    !reuse_after(path, 1, "pipe reusing the number of a file closed with close_range")) return 0;

	/* the file's number, replaced by dup2 with a pipe */
	if ((fd = file_fd(path)) < 0) return 0;
	if (pipe(p)) return perror("pipe"), 0;
	if (dup2(p[0], fd) != fd) return perror("dup2"), 0;
	if (!wait_byte(fd, p[1], "pipe dup2'd over a file")) return 0;
	close(fd);
	close(p[0]);
	close(p[1]);
	return 1;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int ok;

	if (argc != 3) {
		fprintf(stderr, "usage: fileio PATH MIB | fileio reuse PATH\n");
		return 2;
	}
	if (pthread_create(&t, 0, helper, 0)) return 1;
	ok = strcmp(argv[1], "reuse") ? files(argv[1], atoi(argv[2])) : reuse(argv[2]);
	pthread_mutex_lock(&m);
	done = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	if (!ok) return 1;
	puts("fileio ok");
	return 0;
}
