#!/bin/sh
# The corpus of real compiler output (tests/corpus/*.ptx):
#  1. every file checks with zero diagnostics;
#  2. round trip: parse -> print -> parse -> print gives identical text, i.e.
#     the re-parsed AST equals the first one (the printer shows every field);
#  3. when NVIDIA ptxas is on the machine, the printed PTX is still accepted.
PROG=${PROG:-./ptxsurf-as}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have_ptxas=0
if [ -x "$PTXAS" ]; then have_ptxas=1; else
	echo "corpus: NOTE: ptxas not found at $PTXAS: skipping the ptxas acceptance of printed PTX"
fi

# ptxas 13 checks any file's own .version/.target when run as sm_75, but a
# newer target must be named as the architecture itself.
ptxas_arch() {
	t=$(sed -n 's/^[[:space:]]*\.target[[:space:]]*\([a-z_0-9]*\).*/\1/p' "$1" | head -n 1)
	t=${t#compute_}
	t=${t#sm_}
	n=$(printf '%s' "$t" | tr -dc 0-9)
	if [ -n "$n" ] && [ "$n" -gt 75 ]; then echo "sm_$t"; else echo sm_75; fi
}

for f in tests/corpus/*.ptx; do
	name=$(basename "$f")
	if ! "$PROG" --check --color=never "$f" >"$tmp/diag" 2>&1 || [ -s "$tmp/diag" ]; then
		fail=$((fail + 1)); echo "FAIL (diagnostics): $f"; head -n 5 "$tmp/diag"; continue
	fi
	if ! "$PROG" --emit=ptx "$f" >"$tmp/a.ptx" 2>"$tmp/diag" ||
	   ! "$PROG" --emit=ptx "$tmp/a.ptx" >"$tmp/b.ptx" 2>>"$tmp/diag" ||
	   ! cmp -s "$tmp/a.ptx" "$tmp/b.ptx"; then
		fail=$((fail + 1)); echo "FAIL (round trip): $f"; head -n 5 "$tmp/diag"; continue
	fi
	if [ $have_ptxas = 1 ]; then
		if ! "$PTXAS" -c -arch="$(ptxas_arch "$tmp/a.ptx")" "$tmp/a.ptx" -o /dev/null >"$tmp/diag" 2>&1; then
			fail=$((fail + 1)); echo "FAIL (ptxas rejects printed PTX): $f"; head -n 5 "$tmp/diag"; continue
		fi
	fi
	pass=$((pass + 1))
done
echo "corpus: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
