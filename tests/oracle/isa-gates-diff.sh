#!/bin/sh
# Differential test of the ISA gate table (src/isa/isa_gates.def): generates one
# probe per row and boundary (tests/oracle/isa/gen_isa_probes.c: at the
# threshold, one version below, on targets outside the row's set), runs
# NVIDIA ptxas 13 and `ptxsurf-as --check --rules=ptxas` on each and compares
# accept/reject. Prints one line per disagreement and ends with
#   isa-gates-diff: N passed, M failed
# Exit 77 (skip) when ptxas is not installed, 1 on any disagreement. Probes
# for targets this ptxas cannot compile for (-arch rejects the name, e.g.
# renamed architectures) are counted as skipped.
#
# Environment: PROG (default ./ptxsurf-as), PTXAS, CC, JOBS, KEEP=DIR keeps
# the probes and both tools' output, FILTER=REGEX runs only probes whose row
# id matches, STEP=N runs every Nth probe only, MSGS=1 prints ptxas's first
# message for each failing probe.
set -u

. "$(dirname "$0")/lib/ptxas-probe.sh"

if [ "${1:-}" = "--one" ]; then
	f=${2:-}
	[ -f "$f" ] || exit 0
	oracle_ptxas "$f"
	desc=$(sed -n '1s|^// case: ||p' "$f")
	if grep -q "is not defined for option" "$f.ptxas"; then
		echo "SKIP $f: $desc"
		exit 0
	fi
	oracle_ours "$f"
	if oracle_agree; then
		echo "pass $f"
	else
		echo "FAIL ptxas=$theirs ours=$ours: $desc$(oracle_msgs "$f")"
	fi
	exit 0
fi

oracle_setup isa-gates-diff

oracle_generate "$(dirname "$0")/isa/gen_isa_probes.c"
oracle_run "$0"

grep -v '^pass ' "$work/results" | grep -v '^SKIP ' | sort
pass=$(grep -c '^pass ' "$work/results")
fail=$(grep -c '^FAIL ' "$work/results")
skip=$(grep -c '^SKIP ' "$work/results")
echo "isa-gates-diff: $pass passed, $fail failed ($skip skipped: target unknown to this ptxas)"
[ "$fail" -eq 0 ]
