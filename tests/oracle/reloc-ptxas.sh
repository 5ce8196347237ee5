#!/bin/sh
# reloc-ptxas: calls of external functions (issue 15) against ptxas 11.8.
#
# Every tests/oracle/reloc/*.ptx is compiled by ptxas 11.8 -c -arch=sm_50
# -O3 and assembled by us with -c --verify-sched. Our object must be:
#  - listed by cuobjdump -elf -sass and nvdisasm without error, as ET_REL;
#  - the same as ptxas's in what a linker reads: the sections (names, order
#    and types; a .nv.constant2.<k> pool aside, see below; the order of a
#    kernel's .rel.text.<k> and .rela.text.<k> aside, which follows code
#    order), the undefined symbols, the
#    relocations (symbol and type, with their count), EIATTR_EXTERNS and
#    EIATTR_CRS_STACK_SIZE (0x200 more when only some threads of a warp
#    may call a function not linked in: assert, printf, launches), the
#    .nv.callgraph and .nv.prototype sections;
#  - with the same COMMON symbols (a .common variable: value, size,
#    type and binding, st_other);
#  - with the same _param/_SREG symbol (value, size, st_other) in each
#    kernel's .nv.constant0.<k>;
#  - relocating every operand of a .nv.constant2 pool as ptxas -c does: an
#    R_CUDA_CONST_FIELD19_20 against a symbol <f>.const_opt.<a>.<b> of value
#    a and size b-a (st_other 0x81) on an instruction nvdisasm prints as
#    c[`(<f>.const_opt.<a>.<b>)] (which operands go to the pool is the code
#    generator's choice: ptxas puts float literals there, we do not, so
#    these are checked on our object, not compared);
#  - with ptxas's .strtab and .shstrtab: the same strings in the same
#    order (the names of a .nv.constant2.<k> pool aside: <k>.const_opt.*,
#    __ocg_const), among them the prototype strings of .nv.prototype
#    ("#" + result + parameters, e.g. "#lil"); and ptxas's global symbols
#    in its order (name, type and binding, st_other);
#  - relocating each instruction naming a bound .texref/.surfref as
#    ptxas -c does (R_CUDA_BINDLESSOFF13_36 on a slot field, and
#    R_CUDA_CONST_FIELD19_20 against the handle's symbol on a descriptor
#    lookup's read of its slot, compared with the other relocations above);
#  - relocating each operand of a .const variable as ptxas -c does
#    (R_CUDA_CONST_FIELD19_20, an LDC's R_CUDA_CONST_FIELD21_20, against
#    the variable; compared with the other relocations above);
#  - relocating each address of a .shared variable (module or kernel
#    body) as ptxas -c
#    does (R_CUDA_ABS24_20 on an LDS/STS offset or a MOV32I, against its
#    symbol in .nv_debug.shared or .nv.shared.<k>; compared with the other
#    relocations above);
#  - relocating the MOV32I of a .const variable's address as ptxas -c
#    does (R_CUDA_ABS16_20; compared with the other relocations above);
#  - relocating a brx.idx jump table's LDC as ptxas -c does
#    (R_CUDA_CONST_FIELD21_20 against <k>.const_opt.<a>.<b>, compared with
#    the other relocations above);
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
	/^Sections:/ { secs = 1; next }
	secs && /^$/ { secs = 0; print "sections" order }
	# .rel.text.<k> and .rela.text.<k>: ptxas numbers first the one whose
	# first relocation comes first in its code (the choice of the code generator)
	secs && $NF ~ /^\.rela?\.text\./ { print "section", $NF, $6; next }
	secs && $NF ~ /^\./ && $NF !~ /^\.nv\.constant2\./ { order = order " " $NF ":" $6 }
	$NF ~ /^\.nv\.(callgraph|prototype)$/ && $6 ~ /^CUDA_/ { print "section", $NF, $3 }
	/^ *0x[0-9a-f]+ +0 +0 +0x12 +0 +0 / { print "undefined", $NF }
	/^ *0x[0-9a-f]+ .* 0xd +0x81 / && ($NF == "_param" || $NF == "_SREG") { print "object", $NF, $2, $3 }
	/^\.section \.rel/ { rel = 1; next }
	/^ *0x[0-9a-f]+ .* 0xfff2 +[^ ]+$/ { print "common", $NF, $2, $3, $4, $5 }
	rel && /^0x/ && $3 == "R_CUDA_CONST_FIELD19_20" && $2 ~ /\.const_opt\./ { next }
	rel && /^0x/ { print "reloc", $2, $3; next }
	rel && /^$/ { rel = 0 }
	/externs:/ { sub(/.*externs:[ \t]*/, ""); gsub(/\(0x[0-9a-f]+\)/, ""); print "externs", $0 }
	/^\.nv\.info\./ { info = $1 }
	/Attribute:[ \t]*EIATTR_CRS_STACK_SIZE/ { crs = 1; next }
	crs && /Value:/ { print "crs", info, $2; crs = 0 }
	' | sort
}

# Our pool operands: each relocation's symbol (value, size, st_other) and
# the operand nvdisasm prints at its offset; a line per mismatch.
pool_check() {
	"$bin/cuobjdump" -elf "$1" | awk '
	function hex(s,   v, i) { v = 0; sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	/^\.section \.symtab/ { sym = 1; next }
	sym && /^ *0x[0-9a-f]+ / && $4 == "0xd" { value[$NF] = hex($2); size[$NF] = hex($3); other[$NF] = $4 " " $5 }
	/^\.section \.rel\.text\./ { rel = 1; sect = $2; sub(/^\.rel\.text\./, "", sect); next }
	rel && /^$/ { rel = 0 }
	rel && /^0x/ && $3 == "R_CUDA_CONST_FIELD19_20" && $2 ~ /\.const_opt\./ { n++; at[n] = $1; name[n] = $2; owner[n] = sect }
	END {
		for (i = 1; i <= n; i++) {
			s = name[i]; f = owner[i]
			if (index(s, f ".const_opt.") != 1) { print "bad name", s; continue }
			split(substr(s, length(f) + 12), ab, ".")
			if (value[s] == "" || other[s] != "0xd 0x81" || value[s] != ab[1] ||
			    size[s] != ab[2] - ab[1])
				print "bad symbol", s, value[s], size[s], other[s]
			printf "reloc %s 0x%x %s\n", f, hex(at[i]), s
		}
	}' >"$tmp/pool.rel"
	"$bin/nvdisasm" -hex "$1" | awk '
	function hex(s,   v, i) { v = 0; sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	/^\t\.section\t\.text\./ { f = $2; sub(/^\.text\./, "", f); sub(/,.*/, "", f) }
	/c\[`\(/ { a = $0; sub(/^[^\/]*\/\*/, "", a); sub(/\*\/.*/, "", a)
		s = $0; sub(/.*c\[`\(/, "", s); sub(/\)\].*/, "", s)
		if (s !~ /\.const_opt\./) next   # a bound handle or a .const variable
		printf "reloc %s 0x%x %s\n", f, hex(a), s }' >"$tmp/pool.dis"
	grep -v '^reloc' "$tmp/pool.rel"
	grep '^reloc' "$tmp/pool.rel" | sort | diff - "$(sort "$tmp/pool.dis" >"$tmp/pool.dis.s"; echo "$tmp/pool.dis.s")" | grep '^[<>]'
}

# The string tables, a string a line (pool names left out), then the
# global symbols in order: info (type and binding), st_other, name.
# .rela.text.<k> named just before .rel.text.<k> (the order of their
# first relocations in code, which the code generator chooses) put after it.
rel_pairs_in_order() {
	awk 'held && $0 == ".rel" substr(last, 6) { print; print last; held = 0; next }
	held { print last; held = 0 }
	/^\.rela\.text\./ { last = $0; held = 1; next }
	{ print }
	END { if (held) print last }'
}

names_view() {
	obj=$1
	"$bin/cuobjdump" -elf "$obj" >"$tmp/elf"
	for sec in .shstrtab .strtab; do
		set -- $(awk -v s="$sec" '/^Sections:/ { on = 1; next } on && $NF == s { print $2, $3; exit }' "$tmp/elf")
		echo "$sec"
		dd if="$obj" bs=1 skip=$((0x$1)) count=$((0x$2)) 2>/dev/null | tr '\0' '\n' |
			grep -v -e '^\.nv\.constant2\.' -e '^\.rel\.nv\.constant2\.' -e '\.const_opt\.' -e '^__ocg_const$' |
			rel_pairs_in_order
	done
	awk '/^\.section \.symtab/ { on = 1; next } on && /^$/ { on = 0 }
	on && /^ *0x[0-9a-f]+ / && $4 ~ /^0x1[0-9a-f]$/ { print "global", $4, $5, $NF }' "$tmp/elf"
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
	names_view "$tmp/$name.ref.o" >"$tmp/ref.names"
	names_view "$tmp/$name.o" >"$tmp/our.names"
	if ! cmp -s "$tmp/ref.names" "$tmp/our.names"; then
		echo "FAIL: $name: string tables or global symbols differ from ptxas's"
		diff "$tmp/ref.names" "$tmp/our.names" | head -20
		fail=$((fail + 1)); return
	fi
	if [ -n "$(pool_check "$tmp/$name.o")" ]; then
		echo "FAIL: $name: our .nv.constant2 operand relocations are not as ptxas writes them"
		pool_check "$tmp/$name.o" | head -10
		fail=$((fail + 1)); return
	fi
	jcal_view "$tmp/$name.ref.o" | sort >"$tmp/ref.jcal"
	jcal_view "$tmp/$name.o" | sort >"$tmp/our.jcal"
	# a file with calls must show its JCALs (the listing's format checked)
	if { grep -q '^[[:space:]]*call' "$f" && ! [ -s "$tmp/ref.jcal" ]; } ||
	   ! cmp -s "$tmp/ref.jcal" "$tmp/our.jcal"; then
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
