#!/bin/sh
# check-opcodes.sh -- coverage check of src/isa/ptx_opcodes.def against real PTX.
#
# usage: tests/opcodes/check-opcodes.sh [-v] FILE.ptx...
#
# For every instruction statement in the given PTX files (comments and string
# literals stripped; statement = text between ';' after dropping leading '{',
# '}', labels and an optional '@p' / '@!p' / '@%p' / '@!%p' guard), the first
# word is split the way the lexer splits it: an identifier (the opcode) up to
# the first '.', then dot-words ('.' [A-Za-z0-9_]+ ('::' [A-Za-z0-9_]+)*).
# Every opcode must have a PTX_OPCODE row in the table and every dot-word must
# be listed in that row's modifier set.  Anything missing is printed once as
#     FILE:LINE: unknown opcode 'NAME'
#     FILE:LINE: opcode 'NAME': unknown modifier '.MOD'
# (first occurrence) and the script exits 1.  Exit 0 when everything is
# covered, 2 on usage errors.  With -v, also prints how many instructions and
# distinct opcode/modifier pairs were checked.
#
# The table can be overridden with PTX_OPCODES_DEF=path.

verbose=0
if [ "${1-}" = "-v" ]; then
    verbose=1
    shift
fi
if [ $# -eq 0 ]; then
    echo "usage: $0 [-v] FILE.ptx..." >&2
    exit 2
fi

here=$(dirname "$0")
def=${PTX_OPCODES_DEF:-$here/../../src/isa/ptx_opcodes.def}
if [ ! -r "$def" ]; then
    echo "$0: cannot read opcode table '$def'" >&2
    exit 2
fi
for f in "$@"; do
    if [ ! -r "$f" ]; then
        echo "$0: cannot read '$f'" >&2
        exit 2
    fi
done

awk -v verbose="$verbose" '
# ---- pass 1: the table -------------------------------------------------
FNR == 1 { fileno++ }
fileno == 1 {
    line = $0
    if (line !~ /^[ \t]*PTX_OPCODE[ \t]*\(/) next
    # PTX_OPCODE("name", "mod mod ...")
    n = split(line, q, "\"")
    if (n < 4) next
    name = q[2]
    mods = ""
    for (i = 4; i <= n; i += 2) mods = mods " " q[i]
    known[name] = 1
    m = split(mods, arr, /[ \t]+/)
    for (i = 1; i <= m; i++)
        if (arr[i] != "") mod[name SUBSEP arr[i]] = 1
    next
}

# ---- pass 2: PTX files -------------------------------------------------
FNR == 1 { inblock = 0; stmt = ""; stmtline = 0 }
{
    line = $0
    # drop string literals (".file", ".pragma") so their contents cannot
    # look like comments or statement separators
    gsub(/"[^"]*"/, "\"\"", line)
    out = ""
    while (line != "") {
        if (inblock) {
            p = index(line, "*/")
            if (p == 0) { line = ""; break }
            line = substr(line, p + 2)
            inblock = 0
            out = out " "
            continue
        }
        p1 = index(line, "//")
        p2 = index(line, "/*")
        if (p1 == 0 && p2 == 0) { out = out line; break }
        if (p2 == 0 || (p1 != 0 && p1 < p2)) {
            out = out substr(line, 1, p1 - 1)
            break
        }
        out = out substr(line, 1, p2 - 1)
        line = substr(line, p2 + 2)
        inblock = 1
    }
    # accumulate statements; a statement ends at ";"
    while ((p = index(out, ";")) > 0) {
        if (stmtline == 0) stmtline = FNR
        stmt = stmt " " substr(out, 1, p - 1)
        handle(stmt, FILENAME, stmtline)
        stmt = ""
        stmtline = 0
        out = substr(out, p + 1)
    }
    if (out ~ /[^ \t\r]/ && stmtline == 0) stmtline = FNR
    stmt = stmt " " out
}

function handle(s, file, ln,    p, w, nparts, parts, i, op, key) {
    for (;;) {
        sub(/^[ \t\r\n]+/, "", s)
        if (s ~ /^[{}]/) { s = substr(s, 2); continue }
        # labels (also "prototype_0 : .callprototype")
        if (s ~ /^[A-Za-z_$%][A-Za-z0-9_$]*[ \t]*:[^:]/ || s ~ /^[A-Za-z_$%][A-Za-z0-9_$]*[ \t]*:$/) {
            sub(/^[A-Za-z_$%][A-Za-z0-9_$]*[ \t]*:/, "", s)
            continue
        }
        # a directive that opens a block (.entry/.func body, .section):
        # look inside the block; a brace after '=' is an initializer
        # (".global .u64 tab[2] = {f, g}") and holds no instruction
        if (s ~ /^\./ && index(s, "{") > 0) {
            p = index(s, "=")
            if (p > 0 && p < index(s, "{")) return
            s = substr(s, index(s, "{") + 1)
            continue
        }
        break
    }
    # guard predicate
    if (s ~ /^@/) {
        if (!match(s, /^@!?%?[A-Za-z_$][A-Za-z0-9_$]*/)) return
        s = substr(s, RLENGTH + 1)
        sub(/^[ \t\r\n]+/, "", s)
    }
    if (!match(s, /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+(::[A-Za-z0-9_]+)*)*/)) return
    w = substr(s, 1, RLENGTH)
    ninstr++
    nparts = split(w, parts, ".")
    op = parts[1]
    if (!(op in known)) {
        if (!((op) in reported)) {
            reported[op] = 1
            printf "%s:%d: unknown opcode '\''%s'\''\n", file, ln, op
            bad++
        }
        return
    }
    for (i = 2; i <= nparts; i++) {
        key = op SUBSEP "." parts[i]
        if (!(key in seen)) { seen[key] = 1; npairs++ }
        if (!(key in mod) && !(key in reported)) {
            reported[key] = 1
            printf "%s:%d: opcode '\''%s'\'': unknown modifier '\''.%s'\''\n", file, ln, op, parts[i]
            bad++
        }
    }
}

END {
    if (verbose)
        printf "checked %d instructions, %d distinct opcode/modifier pairs, %d problems\n", ninstr, npairs, bad + 0 | "cat 1>&2"
    exit(bad ? 1 : 0)
}
' "$def" "$@"
