#!/bin/sh
# One suite of tests/run-all.sh: runs line N of LIST ("NAME<TAB>COMMAND"),
# leaves WORK/N.log, WORK/N.rc and WORK/N.sec, and prints the output whole
# under a header once the suite has ended.
# Usage: tests/run-suite.sh LIST WORK N
list=$1 work=$2 i=$3
line=$(sed -n "${i}p" "$list")
name=${line%%	*}
cmd=${line#*	}
start=$(date +%s)
sh -c "$cmd" </dev/null >"$work/$i.log" 2>&1
echo $? >"$work/$i.rc"
sec=$(($(date +%s) - start))
echo "$sec" >"$work/$i.sec"
flock "$work/lock" sh -c 'printf "%s\n" "---- $1 (${2}s, exit $3)"; cat "$4"' - "$name" "$sec" "$(cat "$work/$i.rc")" "$work/$i.log"
