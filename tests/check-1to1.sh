#!/bin/sh
# The same suites on kernel threads (stock musl): what green must match.
. "$GREEN_SRC/tests/lib.sh"
exec "$B/tests/runner-1to1"
