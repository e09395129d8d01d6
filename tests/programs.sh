#!/bin/sh
# Standalone test programs (to be written).
. "$GREEN_SRC/tests/lib.sh"
finish
