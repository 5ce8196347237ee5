#!/bin/sh
# Every #include "DIR/file" in src/, lexer/ and grammar/ must point to a folder
# that the including folder may use: the matrix in docs/architecture.md
# ("Folders and the import direction"). lexer/ptx.l and grammar/ptx.y belong
# to front/, lexer/sass.l and grammar/sass.y to sasm/. Prints each violation.
cd "$(dirname "$0")/.." || exit 1

. tests/layers.sh

folder_of() {
	case $1 in
	src/*/*)          f=${1#src/}; echo "${f%%/*}" ;;
	*/ptx.l|*/ptx.y)   echo front ;;
	*/sass.l|*/sass.y) echo sasm ;;
	*)                 echo unknown ;;
	esac
}

bad=0 ok=0
for f in src/*/*.[ch] src/*/*.def lexer/*.l grammar/*.y; do
	[ -f "$f" ] || continue
	from=$(folder_of "$f")
	if [ "$from" = unknown ]; then
		bad=$((bad + 1)); echo "FAIL: $f is in no folder of the matrix"
		continue
	fi
	# Every quoted include names its folder; only generated headers
	# (build/gen: ptx.tab.h, ...) and a folder's test-local headers may not.
	for inc in $(sed -n 's|^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*|\1|p' "$f"); do
		case $inc in
		*.tab.h|*.lex.h) ok=$((ok + 1)); continue ;;
		*/*) to=${inc%%/*} ;;
		*) bad=$((bad + 1)); echo "FAIL: $f includes \"$inc\" without its folder"; continue ;;
		esac
		case " $(allowed "$from") " in
		*" $to "*) ok=$((ok + 1)) ;;
		*) bad=$((bad + 1)); echo "FAIL: $f ($from) includes $inc: $from may use only $(allowed "$from")" ;;
		esac
	done
done
# src/ holds folders only: a file at its top has no layer.
for f in src/*; do
	[ -f "$f" ] && { bad=$((bad + 1)); echo "FAIL: $f is outside every layer folder"; }
done
echo "layering: $ok passed, $bad failed"
[ "$bad" -eq 0 ]
