#!/bin/sh
# The link-level view of tests/layering.sh: from the library's objects
# (nm), which file calls or reads which, by defined and undefined symbols.
# Fails on a reference from one folder to a folder it may not use (the same
# matrix as tests/layering.sh) and on any cycle between files (a strongly
# connected component of more than one object), except the bison callback
# pairs, whose generated parser calls back into the file that drives it.
# Usage: tests/link-layering.sh [OBJDIR]   (default: $B/obj, B=build)
cd "$(dirname "$0")/.." || exit 1
obj=${1:-${B:-build}/obj}
NM=${NM:-nm}
if ! ls "$obj"/*/*.o >/dev/null 2>&1; then
	echo "link-layering: no objects under $obj (build first)"
	echo "link-layering: 0 passed, 1 failed"
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for o in "$obj"/*/*.o "$obj"/*.tab.o "$obj"/*.lex.o; do
	[ -f "$o" ] || continue
	case $o in */ptx_fast.tab.o) continue ;; esac  # a second build of ptx.tab
	name=${o#"$obj"/}; name=${name%.o}
	$NM "$o" 2>/dev/null | awk -v n="$name" '$1 == "U" { print n, "U", $2 } NF == 3 && $2 ~ /^[TDBRVWGS]$/ { print n, "D", $3 }'
done >"$tmp/syms"
# Generated parsers and scanners belong to the front end that owns them.
awk '
function folder(f) {
	if (f ~ /^(ptx)\./) return "front"
	if (f ~ /^(sass)\./) return "sasm"
	sub(/\/.*/, "", f); return f
}
$2 == "D" { def[$3] = $1 }
$2 == "U" { use[NR] = $1 " " $3 }
END {
	for (i in use) {
		split(use[i], u, " ")
		if (!(u[2] in def)) continue
		to = def[u[2]]
		if (to == u[1]) continue
		e = u[1] " " to
		if (!(e in seen)) { seen[e] = 1; print u[1], to, folder(u[1]), folder(to), u[2] }
	}
}' "$tmp/syms" | sort >"$tmp/edges"

. tests/layers.sh
bad=0 ok=0
while read -r from to ff tf sym; do
	case " $(allowed "$ff") " in
	*" $tf "*) ok=$((ok + 1)) ;;
	*) bad=$((bad + 1)); echo "FAIL: $from ($ff) uses $sym from $to ($tf)" ;;
	esac
done <"$tmp/edges"

# Cycles: strongly connected components over the file graph (Tarjan's
# algorithm, iterative enough for awk's recursion on a few hundred nodes).
awk '
function strong(v,   i, w) {
	index_[v] = idx; low[v] = idx; idx++
	stack[++sp] = v; on[v] = 1
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (!(w in index_)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
		else if (on[w] && index_[w] < low[v]) low[v] = index_[w]
	}
	if (low[v] == index_[v]) {
		comp = ""; n = 0
		do { w = stack[sp--]; on[w] = 0; comp = comp " " w; n++ } while (w != v)
		if (n > 1) print comp
	}
}
{ out[$1, ++nout[$1]] = $2; node[$1] = 1; node[$2] = 1 }
END { idx = 0; sp = 0; for (v in node) if (!(v in index_)) strong(v) }' "$tmp/edges" >"$tmp/sccs"
while read -r comp; do
	case " $comp " in
	" front/parse_driver ptx.tab "|" ptx.tab front/parse_driver ") ok=$((ok + 1)); continue ;;
	" sasm/sass_asm_parse sass.tab "|" sass.tab sasm/sass_asm_parse ") ok=$((ok + 1)); continue ;;
	esac
	bad=$((bad + 1)); echo "FAIL: cycle between files:$comp"
done <"$tmp/sccs"
n=$(wc -l <"$tmp/edges")
echo "link-layering: $n file-to-file references, $(wc -l <"$tmp/sccs") cycles (bison pairs allowed)"
echo "link-layering: $ok passed, $bad failed"
[ "$bad" -eq 0 ]
