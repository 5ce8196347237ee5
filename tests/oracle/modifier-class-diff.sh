#!/bin/sh
# Differential test of the modifier classes (src/isa/modifier_classes.def,
# src/check/check_mods.c): for every row, the row's example and the example with
# a second word of the class (tests/oracle/modifier-class/gen_class_probes.c);
# NVIDIA ptxas 13 and `ptxsurf-as --check --rules=ptxas` must agree on
# accept/reject. Prints one line per disagreement and ends with
#   modifier-class-diff: N passed, M failed
# Exit 77 (skip) when ptxas is not installed, 1 on any disagreement.
#
# Environment: PROG (default ./ptxsurf-as), PTXAS, CC, JOBS, KEEP=DIR keeps
# the probes and both tools' output, FILTER=REGEX runs only probes whose
# description starts with it ("ld", "mma"), STEP=N runs every Nth probe
# only, MSGS=1 prints each tool's first message for a failure.
set -u

. "$(dirname "$0")/lib/ptxas-probe.sh"

if [ "${1:-}" = "--one" ]; then
	[ -f "${2:-}" ] && oracle_compare "$2"
	exit 0
fi

oracle_setup modifier-class-diff

oracle_generate "$(dirname "$0")/modifier-class/gen_class_probes.c"
oracle_run "$0"
oracle_summary modifier-class-diff
