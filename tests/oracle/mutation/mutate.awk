# Single-point edits of one PTX file, the mistakes people make when they
# write or patch PTX by hand: for each instruction line, one candidate edit
# per class (tests/oracle/mutation-sweep.sh picks a sample of them).
# Prints "CLASS<TAB>LINE<TAB>NEW TEXT" per candidate. Classes:
#   reg-width   a register of the other width (%r <-> %rd)
#   reg-kind    a register of the same width, other kind (%r <-> %f, %rd <-> %fd)
#   dest-imm    an immediate as the written operand
#   src-imm     an immediate as the last source
#   drop-mod    the last modifier removed
#   swap-width  a type of the other width (.u32 <-> .u64, .f32 <-> .f64, ...)
#   swap-kind   a type of the other kind (.u32 <-> .f32, .s64 <-> .f64, ...)
#   space       another state space on a memory instruction
#   address     a malformed address ([%rd1+%rd2], [%rd1*4], [[x]], ...)
#   vector      another vector width (.v2 <-> .v4), or a braced list one shorter
#   pred        a predicate where a register is expected or the reverse
#   rounding    a rounding modifier added or removed
function emit(cls, text) { if (text == $0) return; gsub(/\t/, " ", text); printf "%s\t%d\t%s\n", cls, NR, text }
function swap(s, from, to,   i) {
	for (i = 1; i <= n_pairs; i++) if (s ~ ("\\" from[i] "([^a-z0-9]|$)")) { sub("\\" from[i], to[i], s); return s }
	return s
}
BEGIN {
	n_pairs = split(".u32 .u64 .s32 .s64 .b32 .b64 .f32 .f64 .u16 .b16 .s16 .u8", wf, " ")
	split(".u64 .u32 .s64 .s32 .b64 .b32 .f64 .f32 .u32 .b32 .s32 .u16", wt, " ")
	split(".f32 .f64 .f32 .f64 .f32 .f64 .s32 .s64 .f16 .f16 .f16 .s8", kt, " ")
	n_sp = split(".global .shared .local .const .param", sp, " ")
}
/^[ \t]*(@!?%[a-z0-9_]+[ \t]+)?[a-z][a-z0-9_]*(\.[a-z0-9_:]+)*[ \t][^;]*;[ \t]*(\/\/.*)?$/ {
	line = $0
	if (line ~ /^[ \t]*\./) next
	op = line; sub(/^[ \t]*(@!?%[a-z0-9_]+[ \t]+)?/, "", op); sub(/[ \t].*/, "", op)
	base = op; sub(/\..*/, "", base)
	if (base ~ /^(ret|exit|bra|call|bar|barrier|membar|fence|trap|brkpt|nanosleep)$/) next
	rest = line; sub(/^[ \t]*(@!?%[a-z0-9_]+[ \t]+)?[^ \t]+[ \t]+/, "", rest)

	t = line
	if (t ~ /%r[0-9]/) sub(/%r[0-9]+/, "%rd1", t); else if (t ~ /%rd[0-9]/) sub(/%rd[0-9]+/, "%r1", t)
	emit("reg-width", t)
	t = line
	if (t ~ /%r[0-9]/) sub(/%r[0-9]+/, "%f1", t); else if (t ~ /%f[0-9]/) sub(/%f[0-9]+/, "%r1", t)
	else if (t ~ /%rd[0-9]/) sub(/%rd[0-9]+/, "%fd1", t); else if (t ~ /%fd[0-9]/) sub(/%fd[0-9]+/, "%rd1", t)
	emit("reg-kind", t)
	if (base !~ /^(st|red|sust|sured|prefetch|prefetchu|cp)$/ && rest ~ /^%[a-z0-9]+[ \t]*,/) {
		t = line; sub(/[ \t]%[a-z0-9]+[ \t]*,/, " 1,", t); emit("dest-imm", t)
	}
	if (line ~ /, *%[a-z0-9]+;/) { t = line; sub(/, *%[a-z0-9]+;/, ", 1;", t); emit("src-imm", t) }
	if (op ~ /\./) { nop = op; sub(/\.[a-z0-9_:]+$/, "", nop); t = line; sub(op, nop, t); emit("drop-mod", t) }
	emit("swap-width", swap(line, wf, wt))
	emit("swap-kind", swap(line, wf, kt))
	if (base ~ /^(ld|st|atom|red|ldu|cvta)$/) {
		t = line
		for (i = 1; i <= n_sp; i++) if (op ~ ("\\" sp[i] "(\\.|$)")) { sub("\\" sp[i], sp[i % n_sp + 1], t); break }
		if (t == line) sub(base, base ".global", t)
		emit("space", t)
	}
	if (line ~ /\[[ \t]*%[a-z0-9]+/) {
		t = line
		k = NR % 7
		if (k == 0) sub(/\[[ \t]*%[a-z0-9]+/, "&+%rd2", t)
		else if (k == 1) sub(/\[[ \t]*%[a-z0-9]+/, "&*4", t)
		else if (k == 2) { sub(/\[[ \t]*%[a-z0-9]+[^]]*\]/, "[&]", t) }
		else if (k == 3) sub(/\[[ \t]*%[a-z0-9]+/, "&+1.0", t)
		else if (k == 4) sub(/\[[ \t]*%[a-z0-9]+/, "&+4+4", t)
		else if (k == 5) sub(/\[[ \t]*%[a-z0-9]+[^]]*\]/, "[16]", t)
		else sub(/\[[ \t]*%[a-z0-9]+/, "&+%r1", t)
		emit("address", t)
	} else if (line ~ /\[[a-zA-Z_$][a-zA-Z0-9_$]*/) {
		t = line
		if (NR % 2) sub(/\[[a-zA-Z_$]/, "[0+&", t); else sub(/\[/, "[[", t) && sub(/\]/, "]]", t)
		sub(/\[0\+\[/, "[0+", t)
		emit("address", t)
	}
	if (op ~ /\.v[248]/) {
		t = line
		if (op ~ /\.v2/) sub(/\.v2/, ".v4", t); else sub(/\.v[48]/, ".v2", t)
		emit("vector", t)
	} else if (line ~ /\{[^}]*,[^}]*\}/) {
		t = line; sub(/,[ \t]*%[a-z0-9_]+[ \t]*\}/, "}", t); emit("vector", t)
	}
	t = line
	if (t ~ /@!?%p[0-9]/) sub(/@(!?)%p[0-9]+/, "@%r1", t); else if (t ~ /%p[0-9]/) sub(/%p[0-9]+/, "%r1", t)
	else if (base ~ /^(selp|add|sub|and|or)$/ && t ~ /%r[0-9]/) sub(/%r[0-9]+/, "%p1", t)
	emit("pred", t)
	t = line
	if (op ~ /\.(rn|rz|rm|rp|rni|rzi|rmi|rpi)(\.|$)/) sub(/\.(rn|rz|rm|rp|rni|rzi|rmi|rpi)(\.)?/, ".", t)
	else if (base ~ /^(add|sub|mul|mad|fma|cvt|div|sqrt|rcp)$/) sub(op, base ".rn" substr(op, length(base) + 1), t)
	sub(/\.[ \t]/, " ", t)
	emit("rounding", t)
}
