#!/bin/sh
# reloc-ptxas: calls of external functions (issue 15) against ptxas 11.8.
#
# Every tests/oracle/reloc/*.ptx is compiled by ptxas 11.8 -c -arch=sm_50
# -O3 and assembled by us with -c --verify-sched. Our object must be:
#  - listed by cuobjdump -elf -sass and nvdisasm without error, as ET_REL;
#  - the same as ptxas's in what a linker reads: the undefined symbols, the
#    relocations (symbol and type, with their count), EIATTR_EXTERNS, the
#    .nv.callgraph and .nv.prototype sections;
#  - calling the same external functions the same number of times, each
#    JCAL word (before relocation) equal to ptxas's. (Where the arguments
#    go, R4..R15 by the ABI, the goldens tests/cases/encode/call-extern-*
#    show; ptxas's own placement of them is in docs/encoding.md.)
# The files named driver-* call only the CUDA driver's functions: ptxas
# compiles them without -c too, and so must we (an ET_EXEC cubin with the
# same undefined symbols, relocations and externs).
# Exit 0 when all pass, 1 on a difference, 77 (SKIP) without the tools.
set -u
here=$(cd "$(dirname "$0")" && pwd)
prog=${PROG:-./ptxsurf-as}
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac
. "$here/lib/cuda118.sh"
cuda118_setup reloc-ptxas "no relocatable object was compared"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# What a linker reads, normalised: undefined symbols, relocations by symbol
# and type, externs, call graph and prototype sections by their sizes.
link_view() {
	"$bin/cuobjdump" -elf "$1" | awk '
	/^64bit elf:/ { split($0, a, /type=/); split(a[2], t, /,/); print "type", t[1] }
	$NF ~ /^\.nv\.(callgraph|prototype)$/ && $6 ~ /^CUDA_/ { print "section", $NF, $3 }
	/^ *0x[0-9a-f]+ +0 +0 +0x12 +0 +0 / { print "undefined", $NF }
	/^\.section \.rel/ { rel = 1; next }
	rel && /^0x/ { print "reloc", $2, $3; next }
	rel && /^$/ { rel = 0 }
	/externs:/ { sub(/.*externs:[ \t]*/, ""); gsub(/\(0x[0-9a-f]+\)/, ""); print "externs", $0 }
	' | sort
}

# Per JCAL: its word (before relocation) and the function it calls.
jcal_view() {
	"$bin/nvdisasm" -hex "$1" | awk '
	/JCAL `\(/ {
		w = $0; sub(/.*\/\* 0x/, "", w); sub(/ .*/, "", w)
		n = $0; sub(/.*JCAL `\(/, "", n); sub(/\).*/, "", n)
		print "JCAL", n, w
	}'
}

# compare FILE NAME FLAG TYPE: ptxas and us with FLAG (-c or none), the
# object of ELF type TYPE (1 ET_REL, 2 ET_EXEC).
compare() {
	f=$1 name=$2 flag=$3 type=$4
	if ! "$bin/ptxas" $flag -arch=sm_50 -O3 -o "$tmp/$name.ref.o" "$f" >"$tmp/log" 2>&1; then
		echo "FAIL: $name: ptxas 11.8 $flag refuses the test input"; cat "$tmp/log"
		fail=$((fail + 1)); return
	fi
	if ! "$prog" $flag --verify-sched -o "$tmp/$name.o" "$f" 2>"$tmp/log"; then
		echo "FAIL: $name: ptxsurf-as $flag failed"; cat "$tmp/log"
		fail=$((fail + 1)); return
	fi
	if ! "$bin/cuobjdump" -elf -sass "$tmp/$name.o" >"$tmp/log" 2>&1 ||
	   ! "$bin/nvdisasm" "$tmp/$name.o" >"$tmp/log" 2>&1; then
		echo "FAIL: $name: cuobjdump/nvdisasm reject our object"; head -5 "$tmp/log"
		fail=$((fail + 1)); return
	fi
	link_view "$tmp/$name.ref.o" >"$tmp/ref.link"
	link_view "$tmp/$name.o" >"$tmp/our.link"
	if ! grep -q "^type $type\$" "$tmp/our.link" || ! cmp -s "$tmp/ref.link" "$tmp/our.link"; then
		echo "FAIL: $name: symbols, relocations, externs or call graph differ from ptxas's"
		diff "$tmp/ref.link" "$tmp/our.link" | head -20
		fail=$((fail + 1)); return
	fi
	jcal_view "$tmp/$name.ref.o" | sort >"$tmp/ref.jcal"
	jcal_view "$tmp/$name.o" | sort >"$tmp/our.jcal"
	if ! [ -s "$tmp/ref.jcal" ] || ! cmp -s "$tmp/ref.jcal" "$tmp/our.jcal"; then
		echo "FAIL: $name: the JCALs (word, callee) differ from ptxas's"
		diff "$tmp/ref.jcal" "$tmp/our.jcal" | head -20
		fail=$((fail + 1)); return
	fi
	pass=$((pass + 1))
}

for f in "$here"/reloc/*.ptx; do
	name=$(basename "$f" .ptx)
	compare "$f" "$name" -c 1
	# the driver's functions (vprintf, malloc, free, __assertfail) are
	# called the same way in an executable cubin, without -c
	case $name in driver-*) compare "$f" "$name.exec" "" 2 ;; esac
done
echo "reloc-ptxas: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
