#!/bin/sh
# Differential test of the operand-count table (src/isa/operand_counts.def):
# generates for every row a module with min-1, min, max and max+1 operands
# (tests/oracle/operand-count/gen_operand_probes.c), runs NVIDIA ptxas 13
# and `ptxsurf-as --check --rules=ptxas` on each and compares accept/reject.
# Prints one line per disagreement and ends with
#   operand-count-diff: N passed, M failed
# Exit 77 (skip) when ptxas is not installed, 1 on any disagreement. A probe
# the row says is valid but ptxas rejects is a failure too (the example is
# wrong or the row is), since that is how the table would reject valid PTX.
#
# Environment: PROG (default ./ptxsurf-as), PTXAS, CC, JOBS, KEEP=DIR keeps
# the probes and both tools' output, FILTER=REGEX runs only probes whose
# "row opcode" matches, STEP=N runs every Nth probe only (make
# check-sanitize), MSGS=1 prints ptxas's first message for each failure.
set -u

. "$(dirname "$0")/lib/ptxas-probe.sh"

if [ "${1:-}" = "--one" ]; then
	f=${2:-}
	[ -f "$f" ] || exit 0
	oracle_ptxas "$f"
	oracle_ours "$f"
	desc=$(sed -n '1s|^// case: ||p' "$f")
	table=$(echo "$desc" | sed -n 's/.*(table: \([a-z]*\))$/\1/p')
	if oracle_agree && { [ "$table" = reject ] || [ "$theirs" = accept ]; }; then
		echo "pass $f"
	else
		echo "FAIL ptxas=$theirs ours=$ours: $desc$(oracle_msgs "$f")"
	fi
	exit 0
fi

oracle_setup operand-count-diff

oracle_generate "$(dirname "$0")/operand-count/gen_operand_probes.c"
oracle_run "$0"

oracle_summary operand-count-diff
