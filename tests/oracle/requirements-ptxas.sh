#!/bin/sh
# --print-requirements --rules=ptxas against ptxas 13: for every corpus file,
# the reported .version/.target must be accepted by ptxas, and one step lower
# in either (the previous legal .version; the previous plain target) must be
# rejected whenever the report names a gate as the reason for it.
PROG=${PROG:-./ptxsurf-as}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
if [ ! -x "$PTXAS" ]; then
	echo "requirements-ptxas: SKIP: ptxas 13 not found at $PTXAS"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
# The legal versions and the plain architecture targets come from the
# tool's own tables (the generated rules reference), not a second copy.
"$PROG" --print-rules-reference >"$tmp/ref" || { echo "requirements-ptxas: no rules reference"; exit 2; }
versions=$(sed -n 's/^Legal `.version` values[^:]*: //p' "$tmp/ref" | tr -d ',.' | sed 's/\([0-9]\)\([0-9]\)/\1.\2/g')
targets=$(sed -n 's/^| `\(sm_[0-9]*\)` | architecture | .*/\1/p' "$tmp/ref" | sort -t_ -k2 -n)

prev_in() { # word list
	p=""
	for v in $2; do [ "$v" = "$1" ] && { echo "$p"; return; }; p=$v; done
}

# ptxas checks a file's own .version/.target when run as sm_75, but newer
# targets must be named as the architecture; -c (needed for extern calls)
# itself requires .version 3.1.
ptxas_ok() { # file version target
	num=${3#sm_}
	n=$(printf '%s' "$num" | tr -dc 0-9)
	arch=sm_75
	[ -n "$n" ] && [ "$n" -gt 75 ] && arch=$3
	c=-c
	case $2 in 1.*|2.*|3.0) c="" ;; esac
	"$PTXAS" $c -arch="$arch" "$1" -o /dev/null >/dev/null 2>&1
}

rewrite() { # src version target dst
	sed -e "s/^\([[:space:]]*\.version[[:space:]]*\)[0-9.]*/\1$2/" \
	    -e "s/^\([[:space:]]*\.target[[:space:]]*\)[a-z_0-9]*/\1$3/" "$1" >"$4"
}

for f in tests/corpus/*.ptx; do
	"$PROG" --rules=ptxas --print-requirements "$f" >"$tmp/req" 2>/dev/null || { skip=$((skip + 1)); continue; }
	v=$(sed -n '1s/^\.version //p' "$tmp/req")
	t=$(sed -n '2s/^\.target //p' "$tmp/req")
	rewrite "$f" "$v" "$t" "$tmp/at.ptx"
	if ! ptxas_ok "$tmp/at.ptx" "$v" "$t"; then
		case $v in 1.*|2.*|3.0) if grep -q "\.extern\|call" "$f"; then skip=$((skip + 1)); continue; fi ;; esac
		fail=$((fail + 1)); echo "FAIL: $f: ptxas rejects the reported .version $v .target $t"; continue
	fi
	ok=1
	# one version lower, where the report says a gate forces this version
	pv=$(prev_in "$v" "$versions")
	if [ -n "$pv" ] && grep -q "needs .version" "$tmp/req"; then
		rewrite "$f" "$pv" "$t" "$tmp/below.ptx"
		if ptxas_ok "$tmp/below.ptx" "$pv" "$t"; then
			ok=0; echo "FAIL: $f: ptxas accepts .version $pv although we report $v"
		fi
	fi
	# one plain target lower, where the report says a gate forces this target
	pt=$(prev_in "$t" "$targets")
	if [ $ok = 1 ] && [ -n "$pt" ] && grep -q "needs .target" "$tmp/req"; then
		rewrite "$f" "$v" "$pt" "$tmp/below.ptx"
		if ptxas_ok "$tmp/below.ptx" "$v" "$pt"; then
			ok=0; echo "FAIL: $f: ptxas accepts .target $pt although we report $t"
		fi
	fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "requirements-ptxas: $pass passed, $fail failed ($skip skipped: no requirements or pre-3.1 files with calls)"
[ "$fail" -eq 0 ]
