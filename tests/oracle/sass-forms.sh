#!/bin/sh
# Oracle test of the sm_50 encoder and disassembler: for every form of
# src/sm50/sass_table.c, encode a few hundred random valid field combinations and
# check that NVIDIA's nvdisasm prints exactly what our disassembler prints.
#
# Usage: tests/oracle/sass-forms.sh [COUNT_PER_FORM] [SEED]
# Environment: STEP (default 1: 300 words per form, else 300/STEP), CC (default cc), PTXSURF_ORACLE_DIR (see fetch-nvidia-tools.sh),
# SASS_FORMS_KEEP=1 keeps the work directory for inspection,
# SASS_FORMS_ONLY=REGEX tests only the forms whose names match (grep -E).
# Exit: 0 all equal, 1 mismatches, 77 skipped (no nvdisasm), 2 setup error.
set -u

# STEP > 1 (check-sanitize) samples: 300 / STEP words per form
count=${1:-$((300 / ${STEP:-1}))}
seed=${2:-1}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cc=${CC:-cc}

oracle_dir=${PTXSURF_ORACLE_DIR:-${HOME:-/tmp}/.cache/ptxsurf-oracles}
fetch_log=$(mktemp "${TMPDIR:-/tmp}/sass-forms-fetch.XXXXXX") || exit 2

# The cache first, then the project's fetch script, then PATH.
find_nvdisasm() {
	if [ -x "$oracle_dir/bin/nvdisasm" ]; then
		echo "$oracle_dir/bin/nvdisasm"
		return 0
	fi
	if bindir=$(sh "$here/fetch-nvidia-tools.sh" 2>"$fetch_log") && [ -x "$bindir/nvdisasm" ]; then
		echo "$bindir/nvdisasm"
		return 0
	fi
	command -v nvdisasm 2>/dev/null
}

nvdisasm=$(find_nvdisasm)
fetch_error=$(cat "$fetch_log")
rm -f "$fetch_log"
if [ -z "$nvdisasm" ]; then
	echo "SKIP: nvdisasm not available (not in $oracle_dir/bin nor PATH;" \
	     "fetch-nvidia-tools.sh said: ${fetch_error:-nothing})"
	exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sass-forms.XXXXXX") || exit 2
if [ "${SASS_FORMS_KEEP:-0}" = 1 ]; then
	echo "sass-forms: keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi

gen="$work/gen_sass_words"
if ! "$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -O2 -I"$root/src" -o "$gen" \
	"$here/gen_sass_words.c" "$root/src/sm50/sass_table.c" "$root/src/sm50/sass_encode.c" \
	"$root/src/sm50/sass_ctrl.c" "$root/src/sm50/sass_disasm.c" "$root/src/sm50/sass_disasm_fam.c" "$root/src/sm50/sass_disasm_warp.c" "$root/src/sm50/sass_disasm_tex.c" "$root/src/sm50/sass_disasm_ptxas.c" "$root/src/sm50/sass_disasm_video.c" \
	"$root/src/sm50/sass_float.c"; then
	echo "sass-forms: cannot build the generator" >&2
	exit 2
fi

passed=0
failed=0
for form in $("$gen" --list | grep -E "${SASS_FORMS_ONLY:-.}"); do
	bin="$work/$form.bin"
	ours="$work/$form.ours"
	theirs="$work/$form.nvdisasm"
	if ! "$gen" "$form" "$count" "$seed" "$bin" "$ours"; then
		echo "FAIL $form: generator or our disassembler failed" >&2
		failed=$((failed + count))
		continue
	fi
	words=$(grep -c '/\*[0-9a-f]*\*/' "$ours")
	if ! "$nvdisasm" -b SM50 -hex -novliw "$bin" >"$theirs" 2>"$work/$form.err"; then
		echo "FAIL $form: nvdisasm rejected the stream: $(cat "$work/$form.err")" >&2
		failed=$((failed + words))
		continue
	fi
	# Compare instruction lines one by one; header and control lines must
	# match too but are not counted as instructions.
	bad=$(paste -d '\n' "$ours" "$theirs" | awk '
		NR % 2 == 1 { ours = $0; next }
		{
			if (ours != $0) {
				if (shown < 5) { print "  ours:     " ours; print "  nvdisasm: " $0; shown++ }
				n++
			}
		}
		END { print n + 0 > "/dev/stderr" }' 2>"$work/$form.count")
	nbad=$(cat "$work/$form.count")
	lines_ours=$(wc -l <"$ours")
	lines_theirs=$(wc -l <"$theirs")
	if [ "$lines_ours" -ne "$lines_theirs" ]; then
		echo "FAIL $form: $lines_ours lines vs nvdisasm $lines_theirs" >&2
		nbad=$words
	fi
	if [ "$nbad" -gt 0 ]; then
		echo "FAIL $form: $nbad of $words lines differ" >&2
		[ -n "$bad" ] && echo "$bad" >&2
		[ "$nbad" -gt "$words" ] && nbad=$words
		failed=$((failed + nbad))
		passed=$((passed + words - nbad))
	else
		passed=$((passed + words))
	fi
done

echo "sass-forms: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
