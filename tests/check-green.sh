#!/bin/sh
# The Check suites in green mode (each test forked, as Check does by default).
. "$GREEN_SRC/tests/lib.sh"
exec $GREEN_RUN "$B/tests/runner-green"
