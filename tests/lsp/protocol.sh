#!/bin/sh
# ptxsurf-as --lsp with hand-written JSON-RPC: the lifecycle, diagnostics
# (ranges in UTF-16 and UTF-8, rule codes, notes), full and incremental
# changes, the `// ptxsurf:` settings, hover, definition, document symbols,
# and malformed input, which must get error responses and never a crash.
# Needs only sh; tests/lsp/client.sh runs a real client library as well.
cd "$(dirname "$0")/../.." || exit 1
PROG=${PROG:-./ptxsurf-as}
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# One framed message; the body is counted in bytes.
msg() {
	printf 'Content-Length: %d\r\n\r\n%s' "$(printf '%s' "$1" | wc -c)" "$1"
}
json_text() { # a file as a JSON string body (quotes, backslashes, tabs, newlines)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' "$1" | awk '{ printf "%s\\n", $0 }'
}
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
initialized='{"jsonrpc":"2.0","method":"initialized","params":{}}'
shutdown='{"jsonrpc":"2.0","id":99,"method":"shutdown"}'
exit_msg='{"jsonrpc":"2.0","method":"exit"}'
open_doc() { # uri file [version]
	printf '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"%s","languageId":"ptx","version":%s,"text":"%s"}}}' \
		"$1" "${3:-1}" "$(json_text "$2")"
}
at() { # id method uri line character
	printf '{"jsonrpc":"2.0","id":%s,"method":"textDocument/%s","params":{"textDocument":{"uri":"%s"},"position":{"line":%s,"character":%s}}}' \
		"$1" "$2" "$3" "$4" "$5"
}

# run NAME: messages on stdin; the server's output in $tmp/NAME.out (one
# message per line, headers dropped), its exit status in $tmp/NAME.rc
run() {
	cat >"$tmp/$1.in"
	"$PROG" --lsp <"$tmp/$1.in" >"$tmp/$1.raw" 2>"$tmp/$1.err"
	echo $? >"$tmp/$1.rc"
	# every body is announced with its exact length
	awk 'BEGIN { RS = "Content-Length: [0-9]+\r\n\r\n" } NR > 1 { print }' "$tmp/$1.raw" >"$tmp/$1.out"
	if ! awk 'BEGIN { RS = "Content-Length: "; bad = 0 }
		NR > 1 { n = $0; sub(/\r\n.*/, "", n); body = $0; sub(/^[0-9]+\r\n\r\n/, "", body)
			 if (length(body) != n + 0) bad = 1 }
		END { exit bad }' "$tmp/$1.raw"; then
		fail=$((fail + 1)); echo "FAIL: $1: a Content-Length does not match its body"
	fi
}
has() { # NAME PATTERN DESCRIPTION: some message of NAME's output matches (grep -E)
	if grep -Eq -- "$2" "$tmp/$1.out"; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "FAIL: $1: $3"; echo "  wanted: $2"; head -c 1500 "$tmp/$1.out" | sed 's/^/  got: /'; fi
}
hasnt() {
	if grep -Eq -- "$2" "$tmp/$1.out"; then fail=$((fail + 1)); echo "FAIL: $1: $3"; else pass=$((pass + 1)); fi
}
status() { # NAME RC
	if [ "$(cat "$tmp/$1.rc")" = "$2" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "FAIL: $1: exit status $(cat "$tmp/$1.rc"), wanted $2"; cat "$tmp/$1.err"; fi
}

# ---- a document with one target-gate error and its note ----
cat >"$tmp/f16.ptx" <<'PTX'
.version 4.2
.target sm_52
.address_size 64
.global .u32 g_arr[16];
.extern .func (.reg .b32 r) helper(.reg .b32 a);
.visible .entry k(.param .u64 p)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	.reg .f16x2 %x<2>;
	ld.param.u64 %rd1, [p];
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra $L_end;
	st.global.u32 [g_arr], %r1;
$L_end:
	ret;
}
PTX
U=file:///w/f16.ptx
{
	msg "$init"; msg "$initialized"; msg "$(open_doc $U "$tmp/f16.ptx" 3)"
	msg "$(at 2 hover $U 8 12)"          # %r<10> in its declaration
	msg "$(at 3 hover $U 12 19)"         # %r1 used in setp
	msg "$(at 4 definition $U 12 19)"
	msg "$(at 5 definition $U 13 11)"    # $L_end in bra
	msg "$(at 6 hover $U 11 2)"          # ld.param.u64
	msg "$(at 7 definition $U 14 17)"    # g_arr
	msg "$(at 8 hover $U 10 8)"          # the .f16x2 type word
	msg '{"jsonrpc":"2.0","id":9,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///w/f16.ptx"}}}'
	msg "$(at 10 hover $U 0 0)"          # .version 4.2
	msg "$(at 13 hover $U 1 10)"         # sm_52
	msg "$(at 11 hover $U 400 0)"        # past the end
	msg "$(at 14 hover $U 6 0)"          # the opening brace
	msg "$(at 12 hover file:///w/other.ptx 1 1)"
	msg "$shutdown"; msg "$exit_msg"
} | run basic
status basic 0
has basic '"id":1,"result":\{"capabilities":\{"positionEncoding":"utf-16","textDocumentSync":\{"openClose":true,"change":2\},"hoverProvider":true,"definitionProvider":true,"documentSymbolProvider":true\}' "initialize answers the capabilities"
has basic '"method":"textDocument/publishDiagnostics","params":\{"uri":"file:///w/f16.ptx","version":3,"diagnostics":\[\{"range":\{"start":\{"line":10,"character":6\},"end":\{"line":10,"character":12\}\},"severity":1,"code":"target-gate","source":"ptxsurf-as","message":"Feature .\.f16x2 packed data-type. requires \.target sm_53' "the target-gate error, its range and code"
has basic '"relatedInformation":\[\{"location":\{"uri":"file:///w/f16.ptx","range":\{"start":\{"line":1,"character":8\},"end":\{"line":1,"character":13\}\}\},"message":"\.target sm_52 declared here"\}\]' "the note as related information"
has basic '"id":2,"result":\{"contents":\{"kind":"markdown","value":"```ptx\\n\.reg \.b32 %r<10>;\\n```\\n`%r`: register, one of `%r<10>` \(declared at line 9\)' "hover on a register declaration"
has basic '"id":3,"result":\{"contents":\{"kind":"markdown","value":"```ptx\\n\.reg \.b32 %r<10>;\\n```\\n`%r1`: register, one of `%r<10>`' "hover on a register use"
has basic '"id":4,"result":\{"uri":"file:///w/f16.ptx","range":\{"start":\{"line":8,"character":11\},"end":\{"line":8,"character":17\}\}\}' "definition of %r1"
has basic '"id":5,"result":\{"uri":"file:///w/f16.ptx","range":\{"start":\{"line":15,"character":0\}' "definition of a label"
has basic '"id":6,"result":\{"contents":\{"kind":"markdown","value":"```ptx\\nld\.param\.u64 %rd1, \[p\];\\n```\\n\*\*ld\.param\.u64\*\*: PTX instruction' "hover on an instruction"
has basic '"id":7,"result":\{"uri":"file:///w/f16.ptx","range":\{"start":\{"line":3,"character":13\}' "definition of a module variable"
has basic '"id":8,"result":\{"contents":\{"kind":"markdown","value":"\*\*\.f16x2\*\* \(declaration word\)\\n\\n- \*\*\.f16x2 packed data-type\*\*: PTX ISA 4\.2 or later; `\.target` sm_53 or later' "hover on a type word: its gate from isa_gates.def"
has basic '"id":9,"result":\[\{"name":"g_arr","detail":"\.global \.u32","kind":13,.*\{"name":"helper","detail":"\.func \(declaration\)","kind":12,.*\{"name":"k","detail":"\.entry","kind":12,.*"children":\[\{"name":"p","detail":"\.param \.u64","kind":13' "document symbols: variables, functions, entries, parameters"
has basic '"id":10,"result":\{"contents":\{"kind":"markdown","value":"\*\*\.version 4\.2\*\*: PTX ISA 4\.2, accepted from CUDA 7\.0 on' "hover on .version: the first CUDA release"
has basic '"id":13,"result":\{"contents":\{"kind":"markdown","value":"\*\*\.target sm_52\*\*: needs `\.version 4\.1` or later' "hover on a target: its oldest .version"
has basic '"id":14,"result":null' "hover where there is nothing"
has basic '"id":11,"result":null' "hover past the end"
has basic '"id":12,"result":null' "hover in a document that is not open"
has basic '"id":99,"result":null' "shutdown"

# ---- edits: incremental then full; rules from a comment; close ----
cat >"$tmp/relaxed.ptx" <<'PTX'
.version 5.1
.target sm_70
.address_size 64
.entry k()
{
	.reg .b32 %r<2>;
	.reg .u64 %rd<2>;
	st.global.relaxed.gpu.u32 [%rd1], %r1;
	ret;
}
PTX
R=file:///w/relaxed.ptx
change() { # uri version sl sc el ec text
	printf '{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"%s","version":%s},"contentChanges":[{"range":{"start":{"line":%s,"character":%s},"end":{"line":%s,"character":%s}},"text":"%s"}]}}' "$@"
}
{
	msg "$init"; msg "$initialized"; msg "$(open_doc $R "$tmp/relaxed.ptx" 1)"
	msg "$(change $R 2 0 0 0 0 '// ptxsurf: rules=ptxas\n')"          # ptxas 13 accepts .relaxed in 5.1
	msg "$(change $R 3 0 0 1 0 '')"                                       # and the comment is gone again
	msg "$(change $R 4 0 9 0 12 '6.0')"                                   # .version 5.1 -> 6.0
	msg "$(change $R 5 0 0 0 0 '// ptxsurf: rules=lenient\n')"
	msg "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":\"$R\",\"version\":6},\"contentChanges\":[{\"text\":\".version 6.0\\n.target sm_30\\n.entry k()\\n{\\n\\tfoo.bar %r1;\\n}\\n\"}]}}"
	msg "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didClose\",\"params\":{\"textDocument\":{\"uri\":\"$R\"}}}"
	msg "$shutdown"; msg "$exit_msg"
} | run edits
status edits 0
has edits '"version":1,"diagnostics":\[\{"range":\{"start":\{"line":7,"character":10\},"end":\{"line":7,"character":18\}\},"severity":1,"code":"version-gate"' "strict rules: .relaxed needs 6.0"
has edits '"version":2,"diagnostics":\[\]' "// ptxsurf: rules=ptxas: ptxas accepts it"
has edits '"version":3,"diagnostics":\[\{"range":\{"start":\{"line":7,"character":10\}' "incremental delete: strict again"
has edits '"version":4,"diagnostics":\[\]' "incremental edit of .version"
has edits '"version":5,"diagnostics":\[\{"range":\{"start":\{"line":0,"character":12\},"end":\{"line":0,"character":25\}\},"severity":2,"source":"ptxsurf-as","message":"ptxsurf: .rules=lenient. is not a setting' "a bad setting is a warning on its word"
has edits '"version":6,"diagnostics":\[\{[^]]*"line":4,"character":1\}.*"code":"unknown-opcode"' "full-text change"
has edits '"params":\{"uri":"file:///w/relaxed.ptx","diagnostics":\[\]\}' "didClose clears the diagnostics"

# ---- settings from initializationOptions; positions in UTF-8 ----
printf '.version 4.2\n.target sm_52\n.entry k()\n{\n\t.reg .f16x2 /* \303\274\360\237\230\200 */ %%x<2>;\n\tret;\n}\n' >"$tmp/utf.ptx"
{
	msg '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"initializationOptions":{"ptxsurf":{"target":"sm_53"}}}}'
	msg "$(open_doc file:///w/utf.ptx "$tmp/utf.ptx")"
	msg "$shutdown"; msg "$exit_msg"
} | run init_target
has init_target '"uri":"file:///w/utf.ptx","version":1,"diagnostics":\[\]' "initializationOptions target=sm_53 accepts .f16x2"
# an error after a two-byte and a four-byte character on its line: the
# column in UTF-16 counts them as 1 and 2 units, in UTF-8 as 2 and 4 bytes
sed 's/\.reg \.f16x2/.reg .b32/; s/ret;/ret %r1;/' "$tmp/utf.ptx" >"$tmp/utf2.ptx"
printf '.version 6.0\n.target sm_50\n.entry k()\n{\n\t.reg .b32 /* \303\274\360\237\230\200 */ %%r<2>; bogus.op %%r1;\n\tret;\n}\n' >"$tmp/utf2.ptx"
{
	msg "$init"; msg "$(open_doc file:///w/u.ptx "$tmp/utf2.ptx")"; msg "$shutdown"; msg "$exit_msg"
} | run utf16
has utf16 '"range":\{"start":\{"line":4,"character":28\},"end":\{"line":4,"character":33\}\},"severity":1,"code":"unknown-opcode"' "UTF-16 columns"
{
	msg '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":["utf-8","utf-16"]}}}}'
	msg "$(open_doc file:///w/u.ptx "$tmp/utf2.ptx")"; msg "$shutdown"; msg "$exit_msg"
} | run utf8
has utf8 '"positionEncoding":"utf-8"' "UTF-8 positions when the client offers them"
has utf8 '"range":\{"start":\{"line":4,"character":31\},"end":\{"line":4,"character":36\}\},"severity":1,"code":"unknown-opcode"' "UTF-8 columns"

# ---- malformed input: error responses, and the server goes on ----
{
	msg '{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}'
	msg "$init"
	msg '{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}'
	msg '{bad json'
	msg '[1,2,3]'
	msg '{"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"}'
	msg '{"jsonrpc":"2.0","id":3,"method":"workspace/symbol","params":{}}'
	msg '{"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{}}'
	msg '{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x"},"position":{"line":-1,"character":"a"}}}'
	msg '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":7}}}'
	msg '{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nowhere"},"contentChanges":[{"text":"x"}]}}'
	msg '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/z.ptx","version":1,"text":"\u0000\u00ff\ud800 .entry \u20ac{"}}}'
	msg "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":\"file:///w/z.ptx\",\"version\":2},\"contentChanges\":[{\"range\":{\"start\":{\"line\":90,\"character\":5},\"end\":{\"line\":0,\"character\":0}},\"text\":\"x\"},{\"range\":{\"start\":{\"line\":0,\"character\":1e300}},\"text\":\"y\"}]}}"
	msg '{"jsonrpc":"2.0","id":"s6","method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///w/z.ptx"}}}'
	printf 'X-Junk: 1\r\n\r\n'
	printf 'Content-Length: 5\r\n\r\n{"a":'
	msg "$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "["; for (i = 0; i < 300; i++) printf "]" }')"
	msg '{"jsonrpc":"2.0","id":7,"method":"shutdown"}'
	msg '{"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{}}'
	msg "$exit_msg"
} | run malformed
status malformed 0
has malformed '"id":1,"error":\{"code":-32002,' "a request before initialize"
has malformed '"id":2,"error":\{"code":-32600,"message":"initialize was already sent"' "a second initialize"
has malformed '"id":null,"error":\{"code":-32700,"message":"invalid JSON at byte 1: expected a member name"' "not JSON"
has malformed '"id":null,"error":\{"code":-32600,"message":"a message must be an object' "not an object; an object id"
has malformed '"id":3,"error":\{"code":-32601,"message":"method .workspace/symbol. is not supported"' "an unknown method"
has malformed '"id":4,"error":\{"code":-32602,' "hover without a document"
has malformed '"id":5,"error":\{"code":-32602,"message":"params.position needs a line and a character"' "a malformed position"
has malformed '"id":"s6","result":\[' "a document of junk, edited with nonsense ranges, still answers"
has malformed '"error":\{"code":-32700,"message":"a message header without a Content-Length"' "a header block without Content-Length"
has malformed '"error":\{"code":-32700,"message":"invalid JSON at byte 5: unexpected end of input"' "a cut message"
has malformed '"message":"invalid JSON at byte 201: nested too deeply"' "nesting too deep"
has malformed '"id":7,"result":null' "shutdown"
has malformed '"id":8,"error":\{"code":-32600,"message":"the server is shutting down"' "a request after shutdown"

# ---- ending: exit without shutdown, end of input, a cut body ----
{ msg "$init"; msg "$exit_msg"; } | run no_shutdown
status no_shutdown 1
{ msg "$init"; } | run eof
status eof 1
{ msg "$init"; printf 'Content-Length: 100\r\n\r\n{"jsonrpc"'; } | run cut
status cut 1
has cut '"id":1,"result"' "answers before the cut"
"$PROG" --lsp some.ptx >/dev/null 2>"$tmp/args.err"
[ $? -eq 2 ] && grep -q -- '--lsp takes no input files' "$tmp/args.err" && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: --lsp with a file name is a usage error"; }

echo "lsp-protocol: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
