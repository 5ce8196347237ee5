#!/bin/sh
# make bench (part two): the language server's re-check latency after an
# edit on generated PTX of 100 KB and 1 MB (bench/gen-ptx.sh, the nvcc
# kind), measured from a real LSP client (tests/lsp/setup-client.sh).
#   BENCH_LSP_SIZES="100000 1000000"
PROG=${PROG:-./ptxsurf-as}
out=${BENCH_DIR:-bench/out}
mkdir -p "$out"
modules=$(sh tests/lsp/setup-client.sh) || { echo "NOTE: no LSP client library: the LSP latency table is skipped"; exit 0; }
files=""
for size in ${BENCH_LSP_SIZES:-100000 1000000}; do
	sh bench/gen-ptx.sh nvcc "$size" >"$out/lsp-$size.ptx"
	files="$files $(cd "$out" && pwd)/lsp-$size.ptx"
done
echo
echo "LSP re-check latency (ptxsurf-as --lsp):"
node bench/lsp-latency.js "$PROG" "$modules" $files
