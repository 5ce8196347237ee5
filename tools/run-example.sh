#!/bin/sh
# make example: check the bundled demo kernel and show what was found.
set -e
PROG=${PROG:-./ptxsurf-as}
echo "\$ $PROG --check -v examples/surface_copy.ptx"
"$PROG" --check -v examples/surface_copy.ptx
