#!/bin/sh
# Fills the shell completion templates (completions/*.in) with the lists
# the tables hold: rule ids (src/base/rules.def), targets and PTX ISA
# versions (src/isa/targets.def), CUDA releases (src/isa/cuda_releases.def).
#   tools/gen-completions.sh TEMPLATE > OUTPUT
set -e
cd "$(dirname "$0")/.."
words() { tr '\n' ' ' | sed 's/ *$//'; }
rules=$(sed -n 's/^RULE([A-Z0-9_]*, *"\([^"]*\)".*/\1/p' src/base/rules.def | words)
targets=$(sed -n 's/^PTX_TARGET(\([a-z0-9_]*\),.*/\1/p' src/isa/targets.def | words)
versions=$(grep -o 'PTX_VERSION([0-9]*, *[0-9]*)' src/isa/targets.def |
	sed 's/PTX_VERSION(\([0-9]*\), *\([0-9]*\))/\1.\2/' | words)
releases=$(sed -n 's/^CUDA_RELEASE(\([0-9]*\), *\([0-9]*\),.*/\1.\2/p' src/isa/cuda_releases.def | words)
for v in rules targets versions releases; do
	eval "[ -n \"\$$v\" ]" || { echo "gen-completions.sh: no $v found in the tables" >&2; exit 1; }
done
sed -e "s/@RULES@/$rules/" -e "s/@TARGETS@/$targets/" -e "s/@PTX_VERSIONS@/$versions/" \
	-e "s/@CUDA_RELEASES@/$releases/" "$1"
