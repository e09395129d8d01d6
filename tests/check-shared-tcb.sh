#!/bin/sh
# The Check suites in green mode without a TLS segment in the program, so
# every green thread runs on the initial thread's TCB and the libc's
# per-thread fields are bound shallowly on each switch (src/core/stack/tls.c):
# time-sliced at 1 ms, with separate and with copied stacks.  The other
# scripts run runner-green, whose tls suite gives each thread a TCB.
. "$GREEN_SRC/tests/lib.sh"
R=$B/tests/runner-green-shared
echo "---- separate stacks, 1 ms quantum"
GREEN_DEBUG=checks GREEN_QUANTUM_MS=1 $GREEN_RUN "$R" || fails=$((fails + 1))
echo "---- copied stacks, 1 ms quantum"
GREEN_DEBUG=checks GREEN_STACKS=copied GREEN_QUANTUM_MS=1 $GREEN_RUN "$R" || fails=$((fails + 1))
[ "$fails" = 0 ]
