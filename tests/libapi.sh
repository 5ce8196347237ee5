#!/bin/sh
# The library as its users get it: `make install DESTDIR=... PREFIX=/usr`,
# then a program built with `pkg-config --cflags --libs ptxsurf` against
# the installed header and shared object (tests/libapi/test_libapi.c), run
# with the installed lib. Also: the .so exports only ptxsurf_* and has a
# SONAME. Built with the suite's CFLAGS (ASan/UBSan under check-sanitize).
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
MAKE=${MAKE:-make}
CC=${CC:-cc}
if ! command -v pkg-config >/dev/null 2>&1; then
	echo "libapi: SKIPPED: pkg-config is not installed (apt-get install pkg-config)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! $MAKE -s install B="$B" PROG="${PROG:-ptxsurf-as}" CFLAGS="${LIB_CFLAGS:--O2 -g}" LDFLAGS="${LIB_LDFLAGS:-}" \
		DESTDIR="$tmp/root" PREFIX=/usr >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "libapi: 0 passed, 1 failed"
	exit 1
fi
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

lib=$tmp/root/usr/lib
for f in include/ptxsurf.h lib/libptxsurf.a lib/libptxsurf.so lib/pkgconfig/ptxsurf.pc \
	 share/bash-completion/completions/ptxsurf-as share/zsh/site-functions/_ptxsurf-as bin/ptxsurf-as; do
	[ -e "$tmp/root/usr/$f" ] && ok || bad "make install did not install usr/$f"
done
soname=$(readelf -d "$lib/libptxsurf.so" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libptxsurf.so.1 ] && [ -e "$lib/$soname" ] && ok || bad "SONAME '$soname' (want libptxsurf.so.1, installed)"
others=$(nm -D --defined-only "$lib/libptxsurf.so" | awk '$2 ~ /^[TDBRVW]$/ && $3 !~ /^ptxsurf_/ && $3 !~ /^_/ { print $3 }')
[ -z "$others" ] && ok || bad "the .so exports internal symbols: $(echo $others | head -c 300)"
nexported=$(nm -D --defined-only "$lib/libptxsurf.so" | grep -c ' T ptxsurf_')
declared=$(grep -c '^PTXSURF_API' include/ptxsurf.h)
[ "$nexported" -eq "$declared" ] && ok || bad "$nexported ptxsurf_ functions exported, $declared declared"
# the library never prints to stderr or through printf and never exits
# (flex's scanners name stdin and stdout as defaults, never used: they scan
# buffers; ptxsurf_check_file reads "-" from stdin)
calls=$(nm -D --undefined-only "$lib/libptxsurf.so" | awk '{ sub(/@.*/, "", $2); print $2 }' |
	grep -xE 'stderr|exit|_exit|puts|printf|vprintf|putchar|perror' | tr '\n' ' ')
[ -z "$calls" ] && ok || bad "libptxsurf.so uses $calls"
grep -q '^prefix=/usr$' "$lib/pkgconfig/ptxsurf.pc" && ok || bad "ptxsurf.pc does not say prefix=/usr"

export PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
flags=$(pkg-config --cflags --libs ptxsurf) && ok || bad "pkg-config does not know ptxsurf"
[ "$(pkg-config --modversion ptxsurf)" = "$("$tmp/root/usr/bin/ptxsurf-as" --version | sed 's/.* //')" ] && ok ||
	bad "pkg-config version differs from ptxsurf-as --version"
# The suite's CFLAGS carry the sanitizers; LTO flags are left out (the
# program is a user's, built its own way).
user_cflags=$(echo "${LIB_CFLAGS:--O2 -g}" | sed 's/-flto[=a-z]*//g')
if $CC -std=c99 -Wall -Wextra -Werror $user_cflags -o "$tmp/test_libapi" tests/libapi/test_libapi.c $flags \
		-lpthread ${LIB_LDFLAGS:-} 2>"$tmp/cc.log"; then
	ok
	LD_LIBRARY_PATH="$lib" "$tmp/test_libapi" "$tmp/k.ptx" >"$tmp/run.log" 2>&1
	rc=$?
	grep -v '^libapi:' "$tmp/run.log"
	counts=$(sed -n 's/^libapi: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$tmp/run.log")
	if [ -n "$counts" ]; then
		set -- $counts
		pass=$((pass + $1)) fail=$((fail + $2))
		[ "$rc" -eq 0 ] || [ "$2" -ne 0 ] || bad "test_libapi exited $rc"
	else
		bad "test_libapi crashed (exit $rc)"
	fi
	# the program must have used the installed shared object
	LD_LIBRARY_PATH="$lib" ldd "$tmp/test_libapi" 2>/dev/null | grep -q "$lib/libptxsurf.so.1" && ok ||
		bad "test_libapi is not linked to the installed libptxsurf.so.1"
else
	cat "$tmp/cc.log"
	bad "the test program does not build against the installed library"
fi
echo "libapi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
