# Shared by the ptxas differential oracles (sourced, not run): finding the
# tools, running ptxas on one probe for its .target, and the verdicts.

# oracle_setup NAME: PROG (default ./ptxsurf-as, made absolute) and PTXAS
# (from PATH or /usr/local/cuda/bin) are set and exported. Without ptxas
# it prints a loud SKIP line and exits 77; without PROG it exits 2.
oracle_setup() {
	PROG=${PROG:-./ptxsurf-as}
	if [ -z "${PTXAS:-}" ]; then
		PTXAS=$(command -v ptxas 2>/dev/null || true)
		[ -z "$PTXAS" ] && [ -x /usr/local/cuda/bin/ptxas ] && PTXAS=/usr/local/cuda/bin/ptxas
	fi
	if [ -z "${PTXAS:-}" ] || [ ! -x "$PTXAS" ]; then
		echo "$1: SKIP: ptxas not found (set PTXAS=/path/to/ptxas); nothing was compared with ptxas"
		exit 77
	fi
	if [ ! -x "$PROG" ]; then
		echo "$1: error: $PROG not built" >&2
		exit 2
	fi
	case $PROG in /*) ;; *) PROG=$(pwd)/$PROG ;; esac
	export PROG PTXAS
}

# oracle_ptxas FILE: runs ptxas with -arch the file's .target (sm_75, the
# oldest ptxas 13 compiles for, for older targets), output in FILE.ptxas;
# sets theirs to accept, reject (exit 255 and other errors) or crash (death
# by a signal: 129..192).
oracle_ptxas() {
	_target=$(sed -n 's/^\.target[ 	]*\([A-Za-z0-9_]*\).*/\1/p' "$1" | head -n 1)
	_num=$(echo "$_target" | sed -n 's/^sm_\([0-9]*\)[a-z]*$/\1/p')
	_arch=sm_75
	if [ -n "$_num" ] && [ "$_num" -gt 75 ]; then _arch=$_target; fi
	"$PTXAS" -arch="$_arch" "$1" -o /dev/null >"$1.ptxas" 2>&1
	_rc=$?
	if [ $_rc -eq 0 ]; then theirs=accept; elif [ $_rc -gt 128 ] && [ $_rc -le 192 ]; then theirs=crash; else theirs=reject; fi
}

# oracle_ours FILE: sets ours to accept or reject (--check --rules=ptxas),
# diagnostics in FILE.ours.
oracle_ours() {
	if "$PROG" --check --rules=ptxas --color=never "$1" >/dev/null 2>"$1.ours"; then ours=accept; else ours=reject; fi
}

# oracle_agree: the verdicts match; a probe that crashes ptxas must be rejected.
oracle_agree() {
	[ "$theirs" = "$ours" ] || { [ "$theirs" = crash ] && [ "$ours" = reject ]; }
}

# oracle_msgs FILE: with MSGS=1, the first error of each tool, for a FAIL line.
oracle_msgs() {
	[ "${MSGS:-}" = 1 ] && echo " | ptxas: $(grep -m1 -E 'error|fatal' "$1.ptxas") | ours: $(grep -m1 error "$1.ours")"
}

# oracle_workdir: work is KEEP when set (kept), else a temporary
# directory removed at exit; $work/cases exists.
oracle_workdir() {
	work=${KEEP:-}
	if [ -z "$work" ]; then
		work=$(mktemp -d)
		trap 'rm -rf "$work"' EXIT
	fi
	mkdir -p "$work/cases"
}

# oracle_generate GENERATOR.c: builds the probe generator (with src/ on the
# include path, for the .def tables) and writes its probes into
# $work/cases (oracle_workdir).
oracle_generate() {
	_root=$(cd "$(dirname "$0")/../.." && pwd)
	oracle_workdir
	${CC:-cc} -std=c11 -O1 -iquote "$_root/src" -o "$work/gen" "$1" || exit 2
	"$work/gen" "$work/cases" >/dev/null || exit 2
}

# oracle_run SCRIPT: runs `sh SCRIPT --one PROBE` on the probes in parallel
# (JOBS), those whose "// case: " line matches FILTER, every STEP-th one,
# into $work/results.
oracle_run() {
	_jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
	if [ -n "${FILTER:-}" ]; then
		grep -l -E -- "^// case: ($FILTER) " "$work"/cases/*.ptx
	else
		ls "$work"/cases/*.ptx
	fi | awk -v step="${STEP:-1}" '(NR - 1) % step == 0' | xargs -P "$_jobs" -n 1 sh "$1" --one >"$work/results"
}

# oracle_compare FILE: both tools on one probe; prints "pass FILE" or a
# FAIL line with the verdicts and the probe's "// case: " description.
oracle_compare() {
	oracle_ptxas "$1"
	oracle_ours "$1"
	if oracle_agree; then
		echo "pass $1"
	else
		echo "FAIL ptxas=$theirs ours=$ours: $(sed -n '1s|^// case: ||p' "$1")$(oracle_msgs "$1")"
	fi
}

# oracle_summary NAME: the FAIL lines of $work/results, then
# "NAME: N passed, M failed"; returns 1 on any failure.
oracle_summary() {
	grep -v '^pass ' "$work/results" | sort
	_pass=$(grep -c '^pass ' "$work/results")
	_fail=$(grep -c '^FAIL ' "$work/results")
	echo "$1: $_pass passed, $_fail failed"
	[ "$_fail" -eq 0 ]
}
