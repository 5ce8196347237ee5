#!/bin/sh
# The shell completions (completions/*.in, filled by tools/gen-completions.sh)
# against the command they complete: every option --help lists (and every
# value it spells out) is offered by both the bash and the zsh script and
# nothing else is; every rule id offered is one -Wno- accepts, every target
# one --targets accepts, every version --ptx-version, every release --cuda.
# The bash function itself runs on a few command lines.
cd "$(dirname "$0")/.." || exit 1
PROG=${PROG:-./ptxsurf-as}
B=${B:-build}
bash_c=$B/completions/ptxsurf-as.bash
zsh_c=$B/completions/_ptxsurf-as
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$bash_c" "$zsh_c"; do
	[ -s "$f" ] && ok || { bad "$f was not generated (make)"; echo "completions: $pass passed, $fail failed"; exit 1; }
done

# Options as --help spells them, from its option column ("  -S, --listing   ...")
# and the -Werror=RULE its description names: "--format=cubin|raw" gives
# --format=cubin and --format=raw; "--color=WHEN", "--max-errors=N" give
# --color= and --max-errors=; "-Wno-RULE, -WRULE" gives -Wno- and -W;
# "--targets LIST" gives --targets and --targets= (both spellings work).
"$PROG" --help | tr -s ' ' '\n' | sed 's/^[(,;]*//; s/[),;.]*$//' | awk '
	function emit(o,   n, v, k, p) {
		if (match(o, /=[a-z|]+$/)) {
			n = split(substr(o, RSTART + 1), v, "|"); p = substr(o, 1, RSTART)
			for (k = 1; k <= n; k++) print p v[k]
		} else {
			sub(/(RULE|WHEN|N)$/, "", o); print o   # placeholders: -WRULE, --color=WHEN
		}
	}
	# "-hex" is nvdisasm'"'"'s option, named in the --disassemble line
	prev != "" && $0 ~ /^(LIST|X\.Y|FILE|N)$/ && prev ~ /^--/ { print prev "=" }
	{ prev = "" }
	/^--?[A-Za-z]/ && $0 != "-hex" { emit($0); prev = $0 }' | sort -u >"$tmp/help"
[ "$(wc -l <"$tmp/help")" -gt 30 ] && ok || bad "too few options read from --help: $(tr '\n' ' ' <"$tmp/help")"
# a completion's "--color=auto" is help's "--color=" when help names no values
collapse() {
	awk -v help="$tmp/help" 'BEGIN { while ((getline l < help) > 0) h[l] = 1 }
		{ o = $0; if (!(o in h) && match(o, /=.+$/) && (substr(o, 1, RSTART) in h)) o = substr(o, 1, RSTART); print o }' |
		sort -u
}

# bash: the words of opts="..."
sed -n '/local opts="/,/"$/p' "$bash_c" | sed 's/.*opts="//; s/"$//' | tr ' \t' '\n\n' | grep . | collapse >"$tmp/bash"
if cmp -s "$tmp/help" "$tmp/bash"; then ok; else bad "bash options differ from --help (< help, > bash):"; diff "$tmp/help" "$tmp/bash"; fi
# zsh: each _arguments spec; '--opt=[..]:x:(a b)' gives --opt=a and --opt=b
# (and --opt: zsh takes both spellings), {-S,--listing} both names
grep -E "^[[:space:]]*'" "$zsh_c" | awk '
	{
		line = $0; sub(/^[[:space:]]*/, "", line)
		if (line ~ /^.\*:/) next
		vals = ""
		if (match(line, /:\([^)$]*\)'"'"'/)) vals = substr(line, RSTART + 2, RLENGTH - 4)
		if (match(line, /\{[^}]*\}/)) { n = split(substr(line, RSTART + 1, RLENGTH - 2), names, ",") }
		else {
			o = substr(line, 2); sub(/^\([^)]*\)/, "", o); sub(/^\*/, "", o); sub(/\[.*/, "", o)
			n = 1; names[1] = o
		}
		for (i = 1; i <= n; i++) {
			o = names[i]
			if (o == "-W-") o = "-W"
			if (o ~ /=$/) {
				base = o; sub(/=$/, "", base)
				if (base ~ /^--(targets|ptx-version|cuda|disassemble)$/) print base
				if (vals != "") { m = split(vals, v, " "); for (k = 1; k <= m; k++) print o v[k] } else print o
			} else print o
		}
	}' | collapse >"$tmp/zsh"
if cmp -s "$tmp/help" "$tmp/zsh"; then ok; else bad "zsh options differ from --help (< help, > zsh):"; diff "$tmp/help" "$tmp/zsh"; fi

# the lists: each entry accepted by the option that takes it
list() { sed -n "s/^[[:space:]]*local $1=\"\(.*\)\"$/\1/p" "$bash_c"; }
printf '.version 6.0\n.target sm_50\n.address_size 64\n' >"$tmp/e.ptx"
n=0
for r in $(list rules); do
	n=$((n + 1))
	"$PROG" --check "-Wno-$r" "$tmp/e.ptx" 2>/dev/null
	[ $? -ne 2 ] || bad "-Wno-$r: ptxsurf-as does not know the rule"
done
[ "$n" -eq "$(grep -c '^RULE(' src/base/rules.def)" ] && ok || bad "$n rules offered"
grep -q "rules=($(list rules))" "$zsh_c" && ok || bad "zsh offers other rules than bash"
for t in $(list targets); do
	"$PROG" --targets "$t" "$tmp/e.ptx" >/dev/null 2>&1
	[ $? -ne 2 ] || bad "--targets $t: not a target"
done
for v in $(list versions); do
	"$PROG" --ptx-version "$v" "$tmp/e.ptx" >/dev/null 2>&1
	[ $? -ne 2 ] || bad "--ptx-version $v: not a version"
done
for c in $(list releases); do
	"$PROG" --cuda "$c" "$tmp/e.ptx" >/dev/null 2>&1
	[ $? -ne 2 ] || bad "--cuda $c: not a release"
done
[ "$fail" -eq 0 ] && pass=$((pass + 3))

# the bash function on command lines
complete_line() { # words...: prints COMPREPLY, one per line
	bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ptxsurf_as; printf "%s\n" "${COMPREPLY[@]}"' \
		"$bash_c" ptxsurf-as "$@" 2>&1
}
expect() { # "words" wanted-line
	if complete_line $1 | grep -qx -- "$2"; then ok; else bad "completing '$1' does not offer '$2': $(complete_line $1 | head -5 | tr '\n' ' ')"; fi
}
expect "--chec" --check
expect "-Wno-version-g" -Wno-version-gate
expect "-Werror=target-g" target-gate
expect "--rules=p" --rules=ptxas
expect "--targets sm_50,sm_9" sm_50,sm_90
expect "--ptx-version 7." 7.8
expect "--cuda=12." 12.4
expect "--diagnostics-format=s" --diagnostics-format=sarif
echo "completions: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
