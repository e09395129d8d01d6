#!/bin/sh
# The same suites on kernel threads (stock musl): what green must match.
. "$GREEN_SRC/tests/lib.sh"
exec $GREEN_RUN "$B/tests/runner-1to1"
