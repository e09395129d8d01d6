#!/bin/sh
# The Check suites in green mode with a 1 ms quantum: preemption lands
# inside the library and the tests many times more often than at the
# default quantum (check-green.sh runs them cooperatively).
. "$GREEN_SRC/tests/lib.sh"
# In the SPARC overlay a time-sliced run dies of SIGBUS in about one run
# of ten under qemu-sparc64 (open: docs/ports.md); run it there with
# GREEN_CHECK_SLICED=1.  check-core.sh's 1 ms suites still run there.
if [ -f "$B/libgreen-overlay.a" ] && [ "${GREEN_CHECK_SLICED:-}" != 1 ]; then
	echo "SKIP: the overlay's whole time-sliced run needs GREEN_CHECK_SLICED=1 (docs/ports.md)"
	exit 77
fi
GREEN_QUANTUM_MS=1 exec $GREEN_RUN "$B/tests/runner-green"
