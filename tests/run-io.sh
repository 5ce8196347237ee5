#!/bin/sh
# Input/output faults that need a shell around the program: missing,
# unreadable and unusual inputs, standard input, outputs that cannot be
# written, and the promise that a failed run never truncates or replaces an
# existing output file. Also inputs too big to keep in tests/cases (1 MB
# lines, 100000-deep nesting, 500000-term expressions), generated here.
# Every run must end within a time limit with exit 1 or 2 (0 where the
# input is valid) and a diagnostic naming the problem; a signal, a hang or
# a sanitizer report is a failure. Ends with "io: N passed, M failed".
PROG=${PROG:-./ptxsurf-as}
# The tests run in a scratch directory, so the program needs an absolute
# path; a bare name is looked for in the current directory first.
case $PROG in
/*) ;;
*/*) PROG=$(pwd)/$PROG ;;
*) if [ -x "./$PROG" ]; then PROG=$(pwd)/$PROG; else PROG=$(command -v "$PROG") || PROG=./$PROG; fi ;;
esac
if [ ! -x "$PROG" ]; then
	echo "io: FAIL: $PROG is not an executable program"
	echo "io: 0 passed, 1 failed"
	exit 1
fi
LIMIT=${IO_TIMEOUT:-30}
pass=0 fail=0 skip=0
w=$(mktemp -d)
trap 'chmod -R u+rwx "$w" 2>/dev/null; rm -rf "$w"' EXIT
cd "$w" || exit 1

ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL: io/$1: $2"
	if [ -s err ]; then head -c 2000 err | head -n 12 | sed 's/^/  | /'; fi
}
skipped() {
	skip=$((skip + 1))
	echo "SKIP: io/$1: $2"
}

# run CMD...: runs with the time limit; status in $rc, output in out/err.
run() {
	timeout "$LIMIT" "$@" >out 2>err
	rc=$?
}

# expect NAME "RC..." PATTERN: the last run exited with one of RC..., did
# not crash, hang or trip a sanitizer, and stderr contains PATTERN (a
# fixed string; empty: no check). Returns nonzero after reporting a failure.
expect() {
	name=$1 want=$2 pat=$3
	if [ "$rc" -eq 124 ]; then
		bad "$name" "no result within ${LIMIT}s (hang or quadratic time)"
		return 1
	fi
	if [ "$rc" -ge 126 ]; then
		bad "$name" "exit $rc (killed by a signal or not run)"
		return 1
	fi
	if grep -q 'Sanitizer\|runtime error:' err; then
		bad "$name" "sanitizer report"
		return 1
	fi
	case " $want " in
	*" $rc "*) ;;
	*) bad "$name" "exit $rc, expected $want"; return 1 ;;
	esac
	if [ -n "$pat" ] && ! grep -qF -- "$pat" err; then
		bad "$name" "standard error does not mention '$pat'"
		return 1
	fi
	return 0
}

# check NAME WHY STATUS: counts the status of a condition tested just
# before (pass $?).
check() {
	if [ "$3" -eq 0 ]; then ok; else bad "$1" "$2"; fi
}

# Root ignores file permissions, so the permission cases run as nobody
# when the script runs as root and setpriv can drop to it.
as_user=""
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1 &&
		chmod 755 "$w" &&
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups test -x "$PROG"; then
		as_user="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
		mkdir user && chown nobody user
	fi
else
	mkdir user
fi

hdr='.version 7.0
.target sm_50
.address_size 64
'
printf '%s.visible .entry k()\n{\n\tret;\n}\n' "$hdr" >ok.ptx
printf '%s.visible .entry k()\n{\n\tret\n}\n' "$hdr" >bad.ptx
"$PROG" --emit=ptx ok.ptx >ok.emitted 2>/dev/null

# ---- inputs ----------------------------------------------------------

run "$PROG" --check missing.ptx
expect missing-input 2 "cannot open 'missing.ptx'" && ok

mkdir dir.ptx
run "$PROG" --check dir.ptx
expect directory-input 2 "'dir.ptx': it is a directory" && ok

# A read error after a successful open; root cannot skip it.
if [ -r /proc/self/mem ]; then
	run "$PROG" --check /proc/self/mem
	expect read-error 2 "cannot read '/proc/self/mem'" && ok
else
	skipped read-error "/proc/self/mem is not readable here"
fi

if [ -n "$as_user" ] || [ "$(id -u)" -ne 0 ]; then
	cp ok.ptx user/unreadable.ptx
	chmod 000 user/unreadable.ptx
	run $as_user "$PROG" --check user/unreadable.ptx
	expect unreadable-input 2 "cannot open 'user/unreadable.ptx': Permission denied" && ok
else
	skipped unreadable-input "running as root without setpriv/nobody: chmod 000 does not stop root"
fi

# One missing file among good ones: the others are still checked and the
# worst status wins.
run "$PROG" --check ok.ptx missing.ptx bad.ptx
if expect missing-among-several 2 "cannot open 'missing.ptx'"; then
	grep -q "bad.ptx:6:5: error" err
	check missing-among-several "bad.ptx was not checked" $?
fi

# ---- standard input --------------------------------------------------

run sh -c '"$1" --check - <"$2"' sh "$PROG" ok.ptx
expect stdin-valid 0 "" && ok

run sh -c '"$1" --check - <"$2"' sh "$PROG" bad.ptx
expect stdin-errors 1 "<stdin>:6:5: error" && ok

run sh -c '"$1" --emit=ptx - <"$2"' sh "$PROG" ok.ptx
if expect stdin-emit 0 ""; then
	cmp -s out ok.emitted
	check stdin-emit "output differs from the file's" $?
fi

: >empty.ptx
run sh -c '"$1" --check - <"$2"' sh "$PROG" empty.ptx
expect stdin-empty 1 "<stdin>: error: Missing .version directive" && ok

# a cubin given for PTX: one error naming it, not one per byte
printf '\177ELF\002\001\001\063\007\000\000\000\000\000\000\000\002\000\276\000' >obj.cubin
run "$PROG" --check obj.cubin
expect elf-input 1 "obj.cubin:1:1: error: this is an ELF object file (a cubin?), not PTX source" &&
	{ [ "$(grep -c 'error:' err)" -eq 1 ] && ok || bad elf-input "more than one error for one ELF input"; }
run "$PROG" -o keep.cubin obj.cubin
expect elf-input-assemble 1 "not PTX source" && { [ ! -e keep.cubin ] && ok || bad elf-input-assemble "an output was written"; }

run sh -c '"$1" --check - <.' sh "$PROG"
expect stdin-directory 2 "cannot read '<stdin>'" && ok

run sh -c '"$1" --check - <&-' sh "$PROG"
expect stdin-closed 2 "<stdin>" && ok

# ---- outputs ---------------------------------------------------------

mkdir outdir
run "$PROG" --emit=ptx -o outdir ok.ptx
if expect output-is-directory 2 "cannot write 'outdir': it is a directory"; then
	[ -d outdir ] && [ -z "$(ls -A outdir)" ]
	check output-is-directory "the directory was changed" $?
fi

run "$PROG" --emit=ptx -o nodir/out.ptx ok.ptx
if expect output-in-missing-directory 2 "nodir/out.ptx"; then
	[ ! -e nodir ]
	check output-in-missing-directory "nodir was created" $?
fi

run sh -c '"$1" --emit=ptx -o - "$2" >/dev/full' sh "$PROG" ok.ptx
expect stdout-full 2 "No space left on device" && ok

run sh -c '"$1" --emit=ptx "$2" >/dev/full' sh "$PROG" ok.ptx
expect stdout-full-default 2 "No space left on device" && ok

# -o naming a device must write to the device, not replace it with a
# regular file. Root could replace the real /dev/full and /dev/null, so
# root uses private device nodes made here instead.
if [ "$(id -u)" -eq 0 ]; then
	if mknod full c 1 7 2>/dev/null && mknod null c 1 3 2>/dev/null; then
		full=./full null=./null
	else
		full="" null=""
	fi
else
	full=/dev/full null=/dev/null
fi
if [ -n "$full" ]; then
	run "$PROG" --emit=ptx -o "$full" ok.ptx
	if expect output-full-device 2 "No space left on device"; then
		[ -c "$full" ]
		check output-full-device "$full is no longer a character device" $?
	fi
	run "$PROG" --emit=ptx -o "$null" ok.ptx
	if expect output-null-device 0 ""; then
		[ -c "$null" ]
		check output-null-device "$null is no longer a character device" $?
	fi
else
	skipped output-full-device "running as root and mknod is not permitted (the real /dev/full must not be risked)"
	skipped output-null-device "running as root and mknod is not permitted (the real /dev/null must not be risked)"
fi

# A failed run leaves an existing output alone: same bytes, and no
# temporary file left next to it.
printf 'precious bytes\n' >keep.ptx
cp keep.ptx keep.orig
run "$PROG" --emit=ptx -o keep.ptx bad.ptx
if expect failed-run-keeps-output 1 "bad.ptx:6:5: error"; then
	cmp -s keep.ptx keep.orig
	check failed-run-keeps-output "keep.ptx was changed" $?
fi
run "$PROG" --emit=ptx -o keep.ptx missing.ptx
if expect missing-input-keeps-output 2 "cannot open 'missing.ptx'"; then
	cmp -s keep.ptx keep.orig
	check missing-input-keeps-output "keep.ptx was changed" $?
fi
set -- .keep.ptx.*
[ ! -e "$1" ]
check no-temporary-left "a temporary file was left: $1" $?

# A successful run replaces the output and keeps its permissions.
printf 'old\n' >rw.ptx
chmod 640 rw.ptx
run "$PROG" --emit=ptx -o rw.ptx ok.ptx
if expect replace-output 0 ""; then
	cmp -s rw.ptx ok.emitted && [ "$(stat -c %a rw.ptx)" = 640 ]
	check replace-output "rw.ptx has the wrong bytes or mode" $?
fi

# -o through a symbolic link updates the file it points to; the link
# stays a link.
printf 'old\n' >target.ptx
ln -s target.ptx link.ptx
run "$PROG" --emit=ptx -o link.ptx ok.ptx
if expect output-symlink 0 ""; then
	[ -L link.ptx ] && cmp -s target.ptx ok.emitted
	check output-symlink "link.ptx was replaced by a file or target.ptx not written" $?
fi

# A read-only output is not replaced, even though the directory would
# allow a rename over it: the user protected that file.
if [ -n "$as_user" ] || [ "$(id -u)" -ne 0 ]; then
	$as_user sh -c 'printf "read-only\n" >user/ro.ptx && chmod 444 user/ro.ptx'
	run $as_user "$PROG" --emit=ptx -o user/ro.ptx ok.ptx
	if expect read-only-output 2 "user/ro.ptx"; then
		[ "$(cat user/ro.ptx)" = read-only ]
		check read-only-output "user/ro.ptx was replaced" $?
	fi
else
	skipped read-only-output "running as root without setpriv/nobody: root may write any file"
fi

# ---- big inputs ------------------------------------------------------

# gen FILE PREFIX UNIT COUNT SUFFIX: PREFIX, COUNT copies of UNIT, SUFFIX.
gen() {
	{
		printf '%s' "$2"
		# ENVIRON, not -v: -v would interpret backslashes in UNIT.
		GEN_UNIT=$3 awk -v n="$4" 'BEGIN { u = ENVIRON["GEN_UNIT"]; s = u; k = 1
			while (2 * k <= n) { s = s s; k *= 2 }
			while (k < n) { printf "%s", u; k++ } printf "%s", s }'
		printf '%s' "$5"
	} >"$1"
}
body="$hdr.visible .entry k()
{
	.reg .b32 %r<2>;
"
end='
	ret;
}
'

# One error at the far end of a 1 MB line: the caret line is a window
# around the error, not a megabyte of text.
gen long-line.ptx "$body	" ' ' 1048576 "mov.b32 %r1, @;$end"
run "$PROG" --check long-line.ptx
if expect long-line 1 "long-line.ptx:7:1048591: error"; then
	[ "$(wc -c <err)" -lt 2000 ]
	check long-line "the diagnostics take $(wc -c <err) bytes" $?
fi

# 65536 errors on one 1 MB line: rendering must stay linear.
gen long-line-errors.ptx "$body	" 'mov.b32 %x, 1; ' 65536 "$end"
run "$PROG" --check long-line-errors.ptx
expect long-line-errors 1 "Unknown symbol '%x'" && ok

# Comments, identifiers and string literals of 1 MB.
gen long-comment.ptx "$body//" 'x' 1048576 "$end"
run "$PROG" --check long-comment.ptx
expect long-comment 0 "" && ok
gen long-identifier.ptx "$body	.reg .b32 " 'a' 1048576 ";$end"
run "$PROG" --emit=ptx long-identifier.ptx
expect long-identifier 0 "" && ok
gen long-string.ptx "$hdr.file 1 \"" 'x' 1048576 "\"
"
run "$PROG" --emit=ptx long-string.ptx
expect long-string 0 "" && ok

# 100000 nested blocks, parentheses and vectors: a diagnostic, not a
# stack overflow. The caret line shows the source as written (the scanner
# must not leave its end-of-token NUL in the buffer when parsing stops).
for kind in braces parens vector; do
	case $kind in
	braces) gen nest-$kind.ptx "$body" '{' 100000 "" && gen tail.tmp "	ret;
" '}' 100000 "$end" ;;
	parens) gen nest-$kind.ptx "$body	mov.b32 %r1, " '(' 100000 "1" && gen tail.tmp '' ')' 100000 ";$end" ;;
	vector) gen nest-$kind.ptx "$body	mov.b32 %r1, " '{' 100000 "1" && gen tail.tmp '' '}' 100000 ";$end" ;;
	esac
	cat tail.tmp >>nest-$kind.ptx
	run "$PROG" --check nest-$kind.ptx
	if expect nest-$kind 1 "nested too deeply"; then
		! sed -n 2p err | grep -q '?'
		check nest-$kind "the caret line shows a byte the source does not have" $?
	fi
done

# Long operator chains build deep trees without deep parser stacks; every
# pass that walks them must survive (or reject them with a diagnostic).
gen chain-operand.ptx "$body	mov.b32 %r1, 1" '+1' 500000 ";$end"
for mode in --check --emit=ptx; do
	run "$PROG" $mode chain-operand.ptx
	expect "chain-operand$mode" "0 1" "" && ok
done
gen chain-initializer.ptx "$hdr.global .u32 g = 1" '+1' 500000 ";
"
for mode in --check --emit=ptx; do
	run "$PROG" $mode chain-initializer.ptx
	expect "chain-initializer$mode" "0 1" "" && ok
done

# Many statements: time and memory stay linear.
gen many-statements.ptx "$body" '	mov.b32 %r1, 1;
' 200000 "$end"
run "$PROG" --check many-statements.ptx
expect many-statements 0 "" && ok

echo "io: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
