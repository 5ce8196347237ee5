#!/bin/sh
# cubin-ptxas: our sm_50 cubin writer against NVIDIA ptxas 11.8.
#
# For every tests/oracle/cubin/*.ptx, compiled at -O3 and at -O0:
#  1. ptxas -arch=sm_50 writes the reference cubin (a first line
#     "// ptxas-args: ..." replaces -arch=sm_50);
#  2. tests/oracle/cubin/rebuild.c, built here against src/, reads that cubin
#     with OUR reader (code, register counts, params, surface slots, exits...)
#     and writes it again with OUR writer: the two files must be identical (cmp);
#  3. cuobjdump -sass, cuobjdump -elf and (when present) nvdisasm accept the
#     cubin we wrote (their listings then equal ptxas's, as the bytes do);
#  4. (-O3, with readelf and PROG) the cubin ptxsurf-as assembles from the
#     same PTX has ptxas's symbols: type, binding, visibility, section
#     and name, in its order
#     (the code differs, so values and sizes are not compared).
# Tools: $PTXSURF_ORACLE_DIR/bin, then tests/oracle/fetch-nvidia-tools.sh,
# then /opt/nvidia-oracles/bin, then PATH.  Without them: SKIP, exit 77.
cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}

has_tools() {
	[ -n "$1" ] && [ -x "$1/ptxas" ] && [ -x "$1/cuobjdump" ]
}

find_tools() {
	if [ -n "${PTXSURF_ORACLE_DIR:-}" ] && has_tools "$PTXSURF_ORACLE_DIR/bin"; then
		echo "$PTXSURF_ORACLE_DIR/bin"; return
	fi
	if [ -f tests/oracle/fetch-nvidia-tools.sh ]; then
		# It may print where it put the tools; it may also set them up
		# under $PTXSURF_ORACLE_DIR.
		fetched=$(sh tests/oracle/fetch-nvidia-tools.sh 2>/dev/null | tail -n 1)
		for d in "$fetched/bin" "$fetched" "${PTXSURF_ORACLE_DIR:-}/bin"; do
			if has_tools "$d"; then echo "$d"; return; fi
		done
	fi
	if has_tools /opt/nvidia-oracles/bin; then
		echo /opt/nvidia-oracles/bin; return
	fi
	p=$(command -v ptxas 2>/dev/null) && c=$(command -v cuobjdump 2>/dev/null) &&
		[ "$(dirname "$p")" = "$(dirname "$c")" ] && dirname "$p"
}

tools=$(find_tools)
if [ -z "$tools" ]; then
	echo "cubin-ptxas: SKIP: NVIDIA ptxas/cuobjdump not found (set PTXSURF_ORACLE_DIR)"
	exit 77
fi
if ! command -v "$CC" >/dev/null 2>&1; then
	echo "cubin-ptxas: SKIP: no C compiler ($CC) to build the rebuild driver"
	exit 77
fi
PTXAS=$tools/ptxas
CUOBJDUMP=$tools/cuobjdump
NVDISASM=$tools/nvdisasm
[ -x "$NVDISASM" ] || NVDISASM=""

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! $CC -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -iquote src -o "$tmp/rebuild" \
	tests/oracle/cubin/rebuild.c src/emit/cubin*.c src/sm50/sass_abi.c src/base/xalloc.c >"$tmp/log" 2>&1; then
	cat "$tmp/log"
	echo "cubin-ptxas: 0 passed, 1 failed (cannot build the rebuild driver)"
	exit 1
fi

PROG=${PROG:-./ptxsurf-as}
READELF=$(command -v readelf || true)
symbols() { "$READELF" -sW "$1" | awk 'NR > 3 { $1 = $2 = $3 = ""; print }'; }   # all but number, value, size

pass=0 fail=0
failed() {
	fail=$((fail + 1))
	echo "FAIL ($2): $1"
	head -n 8 "$tmp/log"
}

# The tool reads our cubin without complaint.
accepts() {
	"$@" "$tmp/ours.cubin" >"$tmp/log" 2>&1 && ! grep -qi 'error' "$tmp/log"
}

for f in tests/oracle/cubin/*.ptx; do
	args=$(sed -n '1s|^// ptxas-args: ||p' "$f")
	for opt in -O3 -O0; do
		name="$(basename "$f" .ptx) $opt"
		# shellcheck disable=SC2086 # args holds several options
		if ! "$PTXAS" ${args:--arch=sm_50} "$opt" "$f" -o "$tmp/ref.cubin" >"$tmp/log" 2>&1; then
			failed "$name" "ptxas rejects the input"; continue
		fi
		if ! "$tmp/rebuild" "$tmp/ref.cubin" "$tmp/ours.cubin" >"$tmp/log" 2>&1; then
			failed "$name" "read or write"; continue
		fi
		if ! cmp "$tmp/ref.cubin" "$tmp/ours.cubin" >"$tmp/log" 2>&1; then
			failed "$name" "bytes differ from ptxas"; continue
		fi
		if ! accepts "$CUOBJDUMP" -sass; then
			failed "$name" "cuobjdump -sass"; continue
		fi
		if ! accepts "$CUOBJDUMP" -elf; then
			failed "$name" "cuobjdump -elf"; continue
		fi
		if [ -n "$NVDISASM" ] && ! accepts "$NVDISASM"; then
			failed "$name" "nvdisasm"; continue
		fi
		if [ "$opt" = -O3 ] && [ -n "$READELF" ] && [ -x "$PROG" ]; then
			if ! "$PROG" -o "$tmp/asm.cubin" "$f" >"$tmp/log" 2>&1; then
				failed "$name" "ptxsurf-as does not assemble it"; continue
			fi
			symbols "$tmp/ref.cubin" >"$tmp/ref.syms"
			symbols "$tmp/asm.cubin" >"$tmp/asm.syms"
			if ! diff "$tmp/ref.syms" "$tmp/asm.syms" >"$tmp/log"; then
				failed "$name" "ptxsurf-as's symbols differ from ptxas's (type, binding, name)"; continue
			fi
		fi
		pass=$((pass + 1))
	done
done

echo "cubin-ptxas: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
