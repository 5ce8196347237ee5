#!/bin/sh
# Differential test of the memory-order rules (src/check/check_order.c): one
# module per combination of memory order and scope with the modifiers they
# interact with, for ld and every mbarrier operation
# (tests/oracle/memory-order/gen_order_probes.c); NVIDIA ptxas 13 and
# `ptxsurf-as --check --rules=ptxas` must agree on accept/reject. Prints one
# line per disagreement and ends with
#   memory-order-diff: N passed, M failed
# Exit 77 (skip) when ptxas is not installed, 1 on any disagreement.
#
# Environment: PROG (default ./ptxsurf-as), PTXAS, CC, JOBS, KEEP=DIR keeps
# the probes and both tools' output, FILTER=REGEX runs only probes whose
# description starts with it ("ld", "mbarrier"), STEP=N runs every Nth
# probe only, MSGS=1 prints each tool's first message for a failure.
set -u

. "$(dirname "$0")/lib/ptxas-probe.sh"

if [ "${1:-}" = "--one" ]; then
	[ -f "${2:-}" ] && oracle_compare "$2"
	exit 0
fi

oracle_setup memory-order-diff

oracle_generate "$(dirname "$0")/memory-order/gen_order_probes.c"
oracle_run "$0"
oracle_summary memory-order-diff
