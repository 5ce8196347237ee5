#!/bin/sh
# disasm-nvdisasm: `ptxsurf-as --disassemble` against NVIDIA nvdisasm 11.8.
#
# Every PTX file under tests/corpus, examples, tests/oracle/cubin and
# tests/oracle/disasm is compiled by ptxas 11.8 for sm_50 at -O3 and -O0
# (files ptxas rejects -- most of the corpus targets newer GPUs -- are left
# out), and tests/oracle/reloc/mixed.ptx with -c (a relocatable object whose
# JCALs name their callees).  Then, byte for byte:
#   cubin:  $PROG --disassemble X.cubin   vs  nvdisasm -c -hex X.cubin
#   raw:    $PROG --disassemble K.bin     vs  nvdisasm -b SM50 -hex -novliw K.bin
#           for the .text section of every kernel (needs readelf).
# A cubin or kernel with an instruction word outside our sm_50 form table
# (ptxas also emits TEXS, ...) cannot be listed, nor a cubin with device
# functions inside a kernel's section or called by JCAL in another section
# (ptxas -O0 -g; their labels are not reproduced):
# our tool says so, and it is counted as skipped, not failed.  SSY/PBK
# targets and the SYNC/BRK points of EIATTR_INDIRECT_BRANCH_TARGETS get
# nvdisasm's .L_x_N labels and are compared like the rest.  Any other
# refusal or any difference fails.
#
# Tools: $PTXSURF_ORACLE_DIR/bin, then tests/oracle/fetch-nvidia-tools.sh,
# then /opt/nvidia-oracles/bin, then PATH.  Without them: SKIP, exit 77.
# Environment: PROG (default ./ptxsurf-as), JOBS, KEEP=DIR keeps the work.
# Ends with "disasm-nvdisasm: N passed, M failed; skipped: ...".
set -u

# Worker: one PTX file -> result lines "pass|FAIL|SKIP kind name detail".
if [ "${1:-}" = "--one" ]; then
	f=$2
	base=$(echo "$f" | sed 's|/|_|g; s|\.ptx$||')
	opts="-O3 -O0"
	# A relocatable object (ptxas -c) whose JCALs name their callees.
	case $f in tests/oracle/reloc/*) opts=-c ;; esac
	for opt in $opts; do
		name="$base$opt"
		cubin="$WORK/$name.cubin"
		"$PTXAS" -arch=sm_50 "$opt" "$f" -o "$cubin" >/dev/null 2>&1 || continue
		"$NVDISASM" -c -hex "$cubin" >"$WORK/$name.nvd" 2>"$WORK/$name.nvd.err" || {
			echo "SKIP-NVDISASM cubin $name"; continue; }
		kernels=$(grep -c '^//--------------------- \.text\.' "$WORK/$name.nvd")
		if "$PROG" --disassemble "$cubin" >"$WORK/$name.ours" 2>"$WORK/$name.err"; then
			if cmp -s "$WORK/$name.nvd" "$WORK/$name.ours"; then
				echo "pass cubin $name $kernels"
			else
				echo "FAIL cubin $name differs from nvdisasm"
			fi
		elif grep -q -e 'unrecognized instruction' -e 'labels of functions .* are not reproduced' "$WORK/$name.err"; then
			echo "SKIP cubin $name $kernels"
		else
			echo "FAIL cubin $name: $(head -n 1 "$WORK/$name.err")"
		fi
		[ -n "$READELF" ] || continue
		# The code sections as raw instruction streams.
		"$READELF" -SW "$cubin" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] //p' |
		while read -r sec type _addr off size _rest; do
			case "$sec:$type" in .text.*:PROGBITS) ;; *) continue ;; esac
			raw="$WORK/$name$sec.bin"
			tail -c +$((0x$off + 1)) "$cubin" | head -c $((0x$size)) >"$raw"
			"$NVDISASM" -b SM50 -hex -novliw "$raw" >"$raw.nvd" 2>/dev/null || {
				echo "SKIP-NVDISASM raw $name$sec"; continue; }
			if "$PROG" --disassemble "$raw" >"$raw.ours" 2>"$raw.err"; then
				if cmp -s "$raw.nvd" "$raw.ours"; then
					echo "pass raw $name$sec"
				else
					echo "FAIL raw $name$sec differs from nvdisasm"
				fi
			elif grep -q 'unrecognized instruction' "$raw.err"; then
				echo "SKIP raw $name$sec"
			else
				echo "FAIL raw $name$sec: $(head -n 1 "$raw.err")"
			fi
		done
	done
	exit 0
fi

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/../.." || exit 1
PROG=${PROG:-./ptxsurf-as}

has_tools() {
	[ -n "$1" ] && [ -x "$1/ptxas" ] && [ -x "$1/nvdisasm" ]
}

find_tools() {
	if [ -n "${PTXSURF_ORACLE_DIR:-}" ] && has_tools "$PTXSURF_ORACLE_DIR/bin"; then
		echo "$PTXSURF_ORACLE_DIR/bin"; return
	fi
	if [ -f tests/oracle/fetch-nvidia-tools.sh ]; then
		fetched=$(sh tests/oracle/fetch-nvidia-tools.sh 2>/dev/null | tail -n 1)
		for d in "$fetched" "$fetched/bin" "${PTXSURF_ORACLE_DIR:-}/bin"; do
			if has_tools "$d"; then echo "$d"; return; fi
		done
	fi
	if has_tools /opt/nvidia-oracles/bin; then
		echo /opt/nvidia-oracles/bin; return
	fi
	p=$(command -v ptxas 2>/dev/null) && n=$(command -v nvdisasm 2>/dev/null) &&
		[ "$(dirname "$p")" = "$(dirname "$n")" ] && dirname "$p"
}

tools=$(find_tools)
if [ -z "$tools" ]; then
	echo "disasm-nvdisasm: SKIP: NVIDIA ptxas/nvdisasm not found (set PTXSURF_ORACLE_DIR)"
	exit 77
fi
if [ ! -x "$PROG" ]; then
	echo "disasm-nvdisasm: error: $PROG not built" >&2
	exit 2
fi
case $PROG in /*) ;; *) PROG=$(pwd)/$PROG ;; esac
PTXAS=$tools/ptxas
NVDISASM=$tools/nvdisasm
READELF=$(command -v readelf 2>/dev/null || true)
[ -n "$READELF" ] || echo "disasm-nvdisasm: note: readelf not found, raw streams not compared"

WORK=${KEEP:-}
if [ -z "$WORK" ]; then
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
case $WORK in /*) ;; *) WORK=$(pwd)/$WORK ;; esac
export PROG PTXAS NVDISASM READELF WORK

# A known raw group (three NOPs): a PROG without --disassemble fails here.
printf '\357\007\200\375\000\374\037\000' >"$WORK/probe.bin"
for _ in 1 2 3; do printf '\000\017\007\000\000\000\260\120' >>"$WORK/probe.bin"; done
if ! "$PROG" --disassemble "$WORK/probe.bin" >/dev/null 2>"$WORK/probe.err"; then
	echo "disasm-nvdisasm: $PROG --disassemble fails on three NOPs: $(head -n 1 "$WORK/probe.err")"
	echo "disasm-nvdisasm: 0 passed, 1 failed"
	exit 1
fi

jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
{ find tests/corpus examples tests/oracle/cubin tests/oracle/disasm -name '*.ptx' 2>/dev/null
  echo tests/oracle/reloc/mixed.ptx; } |
	sort | xargs -n 1 -P "$jobs" sh "$self" --one >"$WORK/results"

grep '^FAIL' "$WORK/results" | sort
pass=$(grep -c '^pass' "$WORK/results")
fail=$(grep -c '^FAIL' "$WORK/results")
cubins=$(grep -c '^pass cubin' "$WORK/results")
kernels=$(awk '$1 == "pass" && $2 == "cubin" { n += $4 } END { print n + 0 }' "$WORK/results")
raws=$(grep -c '^pass raw' "$WORK/results")
skip_cubins=$(grep -c '^SKIP cubin' "$WORK/results")
skip_kernels=$(awk '$1 == "SKIP" && $2 == "cubin" { n += $4 } END { print n + 0 }' "$WORK/results")
skip_raws=$(grep -c '^SKIP raw' "$WORK/results")
skip_tool=$(grep -c '^SKIP-NVDISASM' "$WORK/results")
echo "disasm-nvdisasm: compared $cubins cubins ($kernels kernels) and $raws raw streams"
echo "disasm-nvdisasm: $pass passed, $fail failed; skipped: $skip_cubins cubins ($skip_kernels kernels)" \
	"and $skip_raws raw streams with instructions outside the sm_50 form table," \
	"$skip_tool that nvdisasm rejects"
[ "$fail" -eq 0 ]
