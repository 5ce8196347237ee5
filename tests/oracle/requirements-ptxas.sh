#!/bin/sh
# --print-requirements --rules=ptxas against ptxas 13: for every corpus file, the reported
# .version/.target must be accepted by ptxas, and one step lower in either
# (previous legal .version; previous target of the same kind) must be
# rejected when a gate in the report names that step as the reason.
PROG=${PROG:-./ptxsurf-as}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
if [ ! -x "$PTXAS" ]; then
	echo "requirements-ptxas: SKIP: ptxas 13 not found at $PTXAS"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
versions="1.0 1.1 1.2 1.3 1.4 1.5 2.0 2.1 2.2 2.3 3.0 3.1 3.2 4.0 4.1 4.2 4.3 5.0 5.1 6.0 6.1 6.2 6.3 6.4 6.5 7.0 7.1 7.2 7.3 7.4 7.5 7.6 7.7 7.8 8.0 8.1 8.2 8.3 8.4 8.5 8.6 8.7 8.8 9.0"

prev_version() {
	p=""
	for v in $versions; do [ "$v" = "$1" ] && { echo "$p"; return; }; p=$v; done
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
	pv=$(prev_version "$v")
	if [ -n "$pv" ] && grep -q "needs .version" "$tmp/req"; then
		rewrite "$f" "$pv" "$t" "$tmp/below.ptx"
		if ptxas_ok "$tmp/below.ptx" "$pv" "$t"; then
			ok=0; echo "FAIL: $f: ptxas accepts .version $pv although we report $v"
		fi
	fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "requirements-ptxas: $pass passed, $fail failed ($skip skipped: no requirements or pre-3.1 files with calls)"
[ "$fail" -eq 0 ]
