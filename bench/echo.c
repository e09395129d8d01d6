/*
 * echo.c — echo round trips per second: a thread-per-connection TCP
 * echo server on 127.0.0.1 and thread-per-connection clients.
 *
 *   echo [inproc|fork] [connections] [messages]
 *
 * The program is the one tests/prog/io.sh checks (every byte compared); its
 * rate goes to stderr.  Compare green with 1:1 pinned to one CPU:
 *   green-cc -O2 -o echo-g bench/echo.c
 *   green-cc --threads=1to1 -O2 -o echo-1 bench/echo.c
 *   ./echo-g inproc 500 1000; taskset -c 0 ./echo-1 inproc 500 1000
 */
#include "../tests/prog/echo.c"
