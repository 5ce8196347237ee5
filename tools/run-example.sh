#!/bin/sh
# make example: check the bundled demo kernel, assemble it to a Maxwell sm_50
# cubin and show the SASS listing.
set -e
PROG=${PROG:-./ptxsurf-as}
B=${B:-build}
mkdir -p "$B"
echo "\$ ptxsurf-as --check -v examples/surface_copy.ptx"
"$PROG" --check -v examples/surface_copy.ptx
echo
echo "\$ ptxsurf-as -S examples/surface_copy.ptx -o $B/surface_copy.cubin"
"$PROG" -S examples/surface_copy.ptx -o "$B/surface_copy.cubin"
echo
echo "wrote $B/surface_copy.cubin ($(wc -c <"$B/surface_copy.cubin") bytes)"
