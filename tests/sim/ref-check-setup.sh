# Sourced by the simulator's reference checks (div-rn-check.sh,
# idiv-check.sh): ref_check_setup NAME PTX REF_MAIN [LIBS...] finds
# ptxsurf-as ($PROG) and the simulator ($SIM, $B), makes the work
# directory $work (removed on exit), compiles REF_MAIN to $work/ref,
# assembles PTX to $work/ours.cubin and, when ptxas 11.8 is found, to
# $work/O0.cubin and $work/O3.cubin; $builds lists the cubins made.
# Returns 2 on a setup error.
ref_check_setup() {
	_name=$1 _ptx=$2 _main=$3
	shift 3
	root=$(cd "$(dirname "$_main")/../.." && pwd)
	prog=${PROG:-./ptxsurf-as}
	sim=${SIM:-${B:-build}/tests/ptxsurf-sim}
	case $prog in /*) ;; *) prog=$root/$prog ;; esac
	case $sim in /*) ;; *) sim=$root/$sim ;; esac
	for _t in "$prog" "$sim"; do
		[ -x "$_t" ] || { echo "$_name: $_t is not built" >&2; return 2; }
	done
	_oracle=${PTXSURF_ORACLE_DIR:-${HOME:-/tmp}/.cache/ptxsurf-oracles}/bin
	work=$(mktemp -d "${TMPDIR:-/tmp}/$_name.XXXXXX") || return 2
	trap 'rm -rf "$work"' EXIT
	"${CC:-cc}" -std=c11 -O2 -o "$work/ref" "$_main" "$@" || return 2
	"$prog" -o "$work/ours.cubin" "$_ptx" || return 2
	builds=ours
	if [ -x "$_oracle/ptxas" ]; then
		for _o in 0 3; do
			"$_oracle/ptxas" -arch=sm_50 -O$_o -o "$work/O$_o.cubin" "$_ptx" && builds="$builds O$_o"
		done
	else
		echo "NOTE: $_name: ptxas 11.8 not found: only our code is checked"
	fi
	return 0
}
