#!/bin/sh
# Integer literals wider than 64 bits, ptxas 13 against `ptxsurf-as --check
# --rules=ptxas`: hex, decimal, octal and binary literals of 17 to 40 digits
# (binary 60 to 83), all-highest digits (0xFFF..., 999..., 0777..., 0b111...)
# and a one with zeros (0x1000..., 1000..., 01000..., 0b1000...), with and
# without the suffix U, in six places (mov.u32 and mov.u64 sources, an add
# source, an address offset, a .global initializer, a constant expression).
# ptxas keeps the low 64 bits and refuses a literal ("Constant overflow")
# only when a digit follows a value of 2^63 or more (lexer/ptx.l); this
# checks that both give the same verdict for every literal, and that
# --rules=strict warns [literal-truncated] exactly where a literal is
# accepted although it does not fit.
# Ends with "literal-width: N passed, M failed"; exit 77 without ptxas.
# Environment: PROG, PTXAS, JOBS (default 2), EVERY=N runs every Nth literal
# of the grid of 2,304 (default 12), KEEP=DIR keeps the probes.
set -u

. "$(dirname "$0")/lib/ptxas-probe.sh"

if [ "${1:-}" = "--one" ]; then
	f=$2
	oracle_ptxas "$f"
	if "$PROG" --check --rules=ptxas --color=never "$f" >/dev/null 2>"$f.ours"; then ours=accept; else ours=reject; fi
	"$PROG" --check --color=never "$f" >/dev/null 2>"$f.strict"
	warned=no
	grep -q '\[literal-truncated\]' "$f.strict" && warned=yes
	wide=$(sed -n '1s|^// wide: ||p' "$f")
	desc=$(sed -n '2s|^// case: ||p' "$f")
	if [ "$theirs" != "$ours" ]; then
		echo "FAIL ptxas=$theirs ours=$ours: $desc"
	elif [ "$theirs" = accept ] && [ "$warned" != "$wide" ]; then
		echo "FAIL strict warning=$warned for a literal that is wide=$wide: $desc"
	else
		echo "pass $desc"
	fi
	exit 0
fi

oracle_setup literal-width
oracle_workdir
awk -v every="${EVERY:-12}" -v dir="$work/cases" 'BEGIN {
	split("hex dec oct bin", forms, " ")
	pre["hex"] = "0x"; hi["hex"] = "F"; pre["dec"] = ""; hi["dec"] = "9"
	pre["oct"] = "0"; hi["oct"] = "7"; pre["bin"] = "0b"; hi["bin"] = "1"
	base["hex"] = 16; base["dec"] = 10; base["oct"] = 8; base["bin"] = 2
	np = split("mov32 mov64 add64 addr init expr", places, " ")
	body["mov32"] = "mov.u32 %r1, L;"; body["mov64"] = "mov.u64 %rd1, L;"
	body["add64"] = "add.u64 %rd1, %rd1, L;"; body["addr"] = "ld.global.u32 %r1, [%rd1+L];"
	body["expr"] = "mov.u64 %rd1, L+1;"
	n = 0
	for (fi = 1; fi <= 4; fi++) {
		f = forms[fi]; lo = f == "bin" ? 60 : 17
		for (d = lo; d < lo + 24; d++)
			for (pat = 0; pat < 2; pat++) {
				digits = ""
				for (k = 0; k < d; k++) digits = digits (pat == 0 ? hi[f] : (k == 0 ? "1" : "0"))
				# wide: the value needs more than 64 bits (exactly, in bits)
				# base^d - 1 needs more than 64 bits when base^d > 2^64,
				# base^(d-1) when it is 2^64 or more
				bits = (pat == 0 ? d : d - 1) * log(base[f]) / log(2)
				wide = (pat == 0 ? bits > 64.0000001 : bits > 63.9999999) ? "yes" : "no"
				for (u = 0; u < 2; u++)
					for (p = 1; p <= np; p++) {
						if (n++ % every) continue
						lit = pre[f] digits (u ? "U" : "")
						file = sprintf("%s/%s_%02d_%d_%d_%s.ptx", dir, f, d, pat, u, places[p])
						printf "// wide: %s\n// case: %s in %s\n.version 8.3\n.target sm_75\n.address_size 64\n", wide, lit, places[p] >file
						if (places[p] == "init") printf ".global .u64 g = %s;\n", lit >file
						b = places[p] == "init" ? "" : body[places[p]]
						sub(/L/, lit, b)
						printf ".visible .entry k()\n{\n.reg .u32 %%r<3>; .reg .u64 %%rd<3>;\nmov.u64 %%rd1, 0;\n%s\nst.global.u64 [%%rd1], %%rd1;\nret;\n}\n", b >file
						close(file)
					}
			}
	}
}'
ls "$work"/cases/*.ptx | xargs -P "${JOBS:-2}" -n 1 sh "$0" --one >"$work/results"
grep '^FAIL' "$work/results" | sort
pass=$(grep -c '^pass' "$work/results")
fail=$(grep -c '^FAIL' "$work/results")
echo "literal-width: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
