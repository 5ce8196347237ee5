#!/bin/sh
# sass-roundtrip: NVIDIA nvdisasm text reassembled by our SASS front end
# must give back the same bytes.
#
#   stg     every STG form of NVIDIA's STG page (each .cop, .sz, .E and
#           address form, the four examples) assembled by us; nvdisasm must
#           print each word exactly as our disassembler does, and its
#           listing must reassemble to the same stream.
#   forms   random words of every form of the sm_50 table
#           (tests/oracle/gen_sass_words.c): nvdisasm -b SM50 -hex -novliw,
#           reassembled.
#   ptxas   every PTX file under tests/corpus, examples, tests/oracle/cubin,
#           tests/oracle/disasm and tests/cases/encode compiled by ptxas
#           11.8 (-O3 and -O0; files it rejects are left out): the
#           nvdisasm -c -hex listing of the cubin, and the -novliw listing
#           of each .text section, reassembled and compared with the code.
#           Cubins with words outside our table are counted as skipped.
#   ours    the same for the cubins ptxsurf-as builds from those files.
#
# Tools: $PTXSURF_ORACLE_DIR/bin, then tests/oracle/fetch-nvidia-tools.sh,
# then /opt/nvidia-oracles/bin, then PATH. Without nvdisasm: SKIP, exit 77.
# Environment: B (build directory holding libptxsurf.a, default build),
# PROG (default ./ptxsurf-as, for "ours"), CC, KEEP=DIR keeps the work.
# SECTIONS (default "stg forms cubins") picks the parts to run. STEP > 1
# (check-sanitize) takes every STEP-th PTX file of the cubins part.
# Ends with "sass-roundtrip: N passed, M failed".
set -u

cd "$(dirname "$0")/../.." || exit 2
B=${B:-build}
PROG=${PROG:-./ptxsurf-as}
CC=${CC:-cc}

has_nvdisasm() { [ -n "$1" ] && [ -x "$1/nvdisasm" ]; }

find_tools() {
	if [ -n "${PTXSURF_ORACLE_DIR:-}" ] && has_nvdisasm "$PTXSURF_ORACLE_DIR/bin"; then
		echo "$PTXSURF_ORACLE_DIR/bin"; return
	fi
	if d=$(sh tests/oracle/fetch-nvidia-tools.sh 2>/dev/null) && has_nvdisasm "$d"; then
		echo "$d"; return
	fi
	if has_nvdisasm /opt/nvidia-oracles/bin; then
		echo /opt/nvidia-oracles/bin; return
	fi
	d=$(command -v nvdisasm 2>/dev/null) && dirname "$d"
}

TOOLS=$(find_tools)
if [ -z "$TOOLS" ]; then
	echo "SKIP: sass-roundtrip needs NVIDIA nvdisasm 11.8 (set PTXSURF_ORACLE_DIR," \
	     "run tests/oracle/fetch-nvidia-tools.sh, or put it on PATH)" >&2
	echo "sass-roundtrip: SKIPPED (no nvdisasm)"
	exit 77
fi
NVDISASM=$TOOLS/nvdisasm
PTXAS=
[ -x "$TOOLS/ptxas" ] && PTXAS=$TOOLS/ptxas
READELF=$(command -v readelf 2>/dev/null || true)

if [ -n "${KEEP:-}" ]; then
	WORK=$KEEP
	mkdir -p "$WORK"
else
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/sass-roundtrip.XXXXXX") || exit 2
	trap 'rm -rf "$WORK"' EXIT
fi

make -s B="$B" "$B/libptxsurf.a" >/dev/null || { echo "sass-roundtrip: cannot build $B/libptxsurf.a" >&2; exit 2; }

# The reassembler: SASS text in, raw stream out (control words kept).
# `sassrt --words CODE` exits 3 when an instruction word of raw code is not
# in the sm_50 table (such code cannot be listed for reassembly).
cat >"$WORK/sassrt.c" <<'EOF'
#include "sasm/sass_asm.h"
#include "sm50/sass_encode.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int check_words(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char w[8];
	SassValues v;
	if (f == NULL)
		return 2;
	for (long i = 0; fread(w, 1, 8, f) == 8; i++) {
		unsigned long long word = 0;
		for (int b = 7; b >= 0; b--)
			word = word << 8 | w[b];
		if (i % 4 != 0 && sass_decode(word, &v) == NULL)
			return 3;
	}
	fclose(f);
	return 0;
}
/* sassrt IN.sass OUT.bin [OUR-LISTING]; SASSRT_LAX=1 drops the alignment
 * checks (random words of the table are not aligned). */
int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--words") == 0)
		return check_words(argv[2]);
	if (argc != 3 && argc != 4)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (f == NULL)
		return 2;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = calloc((size_t)n + 2, 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		return 2;
	fclose(f);
	DiagSink d;
	diag_init(&d, argv[1], NULL, 0);
	const char *lax[] = { "sass-align", "sass-regalign" };
	DiagPolicy policy = { .disabled = lax, .ndisabled = 2 };
	if (getenv("SASSRT_LAX"))
		d.policy = &policy;
	SasmOptions o = { .cubin = false, .schedule = SASM_SCHEDULE_KEEP, .want_listing = argc == 4 };
	uint8_t *img;
	size_t len;
	char *listing = NULL;
	int rc = sasm_assemble_buffer(argv[1], buf, (size_t)n, &d, &o, &img, &len, &listing);
	DiagTextOptions to = { false, false };
	diag_render_text(&d, stderr, &to);
	diag_fini(&d);
	free(buf);
	/* everything is freed so the sanitizer build's leak checker stays quiet */
	int status = rc != 0 ? 1 : 0;
	FILE *out;
	if (status == 0 && ((out = fopen(argv[2], "wb")) == NULL || fwrite(img, 1, len, out) != len || fclose(out) != 0))
		status = 2;
	if (status == 0 && argc == 4 &&
	    ((out = fopen(argv[3], "w")) == NULL || fputs(listing, out) < 0 || fclose(out) != 0))
		status = 2;
	if (rc == 0) {
		free(img);
		free(listing);
	}
	return status;
}
EOF
"$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -O1 ${LIB_CFLAGS:-} -iquote src -o "$WORK/sassrt" "$WORK/sassrt.c" \
	"$B/libptxsurf.a" || { echo "sass-roundtrip: cannot build the reassembler" >&2; exit 2; }
"$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -O1 ${LIB_CFLAGS:-} -iquote src -o "$WORK/gen" tests/oracle/gen_sass_words.c \
	"$B/libptxsurf.a" || { echo "sass-roundtrip: cannot build the word generator" >&2; exit 2; }

passed=0 failed=0 skipped=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# reassemble LISTING EXPECTED.bin NAME [lax]: our bytes for nvdisasm's text.
reassemble() {
	lax=
	[ "${4:-}" = lax ] && lax=1
	if ! env ${lax:+SASSRT_LAX=1} "$WORK/sassrt" "$1" "$1.bin" 2>"$1.err"; then
		fail "$3: does not reassemble: $(head -n 1 "$1.err")"
	elif cmp -s "$1.bin" "$2"; then
		pass
	else
		fail "$3: reassembles to different bytes"
	fi
}

SECTIONS=${SECTIONS:-stg forms cubins}
want() { case " $SECTIONS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# ---- stg: every form of the STG page ----------------------------------------
if want stg; then
stg="$WORK/stg.sass"
{
	echo "STG.32 [R1 + 20], R3;"
	echo "STG.E [R2 + 0x1234], R5;"
	echo "STG.64 [R1 + 24], R4;"
	echo "STG.8 [R1 + 24], R4;"
	for e in "" .E; do
		for cop in "" .WB .CG .CS .WT; do
			for sz in "" .8 .U8 .S8 .16 .U16 .S16 .32 .64 .128; do
				echo "STG$e$cop$sz [R4 + 0x10], R8;"
				echo "STG$e$cop$sz [R4 - 0x20], R8;"
				echo "STG$e$cop$sz [R4 + -0x30], R8;"
				echo "STG$e$cop$sz [0x40], R8;"
				echo "STG$e$cop$sz [RZ + 0xfffff0], R8;"
				echo "STG$e$cop$sz [R4], R8;"
				echo "@!P3 STG$e$cop$sz [R6+0x7ffff0], R12 &req_1 &rd2 ?WAIT3;"
			done
		done
	done
} >"$stg"
if "$WORK/sassrt" "$stg" "$stg.bin" "$stg.ours" 2>"$stg.err"; then
	if "$NVDISASM" -b SM50 -hex -novliw "$stg.bin" >"$stg.nvd" 2>"$stg.nvd.err"; then
		# nvdisasm decodes every word to the instruction we print.
		n=$(grep -c 'STG' "$stg.nvd")
		[ "$n" -eq "$(grep -c 'STG' "$stg")" ] && pass || fail "stg: nvdisasm lists $n STG instructions"
		cmp -s "$stg.nvd" "$stg.ours" && pass || fail "stg: nvdisasm's listing differs from ours"
		reassemble "$stg.nvd" "$stg.bin" "stg listing"
	else
		fail "stg: nvdisasm rejects the stream: $(head -n 1 "$stg.nvd.err")"
	fi
else
	fail "stg: does not assemble: $(head -n 1 "$stg.err")"
fi

fi

# ---- forms: random words of every table form ----------------------------------
want forms &&
for form in $("$WORK/gen" --list); do
	"$WORK/gen" "$form" 200 7 "$WORK/$form.bin" "$WORK/$form.ours" || { fail "$form: generator"; continue; }
	if "$NVDISASM" -b SM50 -hex -novliw "$WORK/$form.bin" >"$WORK/$form.nvd" 2>/dev/null; then
		cmp -s "$WORK/$form.nvd" "$WORK/$form.ours" && pass || fail "$form: nvdisasm prints other text"
		reassemble "$WORK/$form.nvd" "$WORK/$form.bin" "$form" lax
	else
		fail "$form: nvdisasm rejects the stream"
	fi
done

# ---- cubins: ptxas's and ours ---------------------------------------------------
# check_cubin CUBIN NAME: the -c listing and each section's -novliw listing.
check_cubin() {
	cubin=$1 name=$2
	if ! "$NVDISASM" -c -hex "$cubin" >"$WORK/$name.nvd" 2>/dev/null; then
		skipped=$((skipped + 1)); return
	fi
	[ -n "$READELF" ] || return
	: >"$WORK/$name.code"
	"$READELF" -SW "$cubin" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] //p' >"$WORK/$name.sections"
	while read -r sec type addr off size rest; do
		case "$sec:$type" in .text.*:PROGBITS) ;; *) continue ;; esac
		raw="$WORK/$name$sec.bin"
		tail -c +$((0x$off + 1)) "$cubin" | head -c $((0x$size)) >"$raw"
		cat "$raw" >>"$WORK/$name.code"
		if ! "$WORK/sassrt" --words "$raw"; then
			skipped=$((skipped + 1)); continue
		fi
		"$NVDISASM" -b SM50 -hex -novliw "$raw" >"$raw.nvd" 2>/dev/null </dev/null || continue
		reassemble "$raw.nvd" "$raw" "$name$sec"
	done <"$WORK/$name.sections"
	# Relocated operands (`(.nv.surfrefDescSize), 32@lo(sym)) are not SASS
	# we assemble; a cubin without code has nothing to reassemble.
	if ! [ -s "$WORK/$name.code" ] || ! "$WORK/sassrt" --words "$WORK/$name.code" ||
	   grep -q '^\.rel\.text' "$WORK/$name.sections"; then
		skipped=$((skipped + 1)); return
	fi
	reassemble "$WORK/$name.nvd" "$WORK/$name.code" "$name cubin listing"
}

nth=0
want cubins &&
for f in tests/corpus/*.ptx examples/*.ptx tests/oracle/cubin/*.ptx tests/oracle/disasm/*.ptx tests/cases/encode/*.ptx; do
	[ -f "$f" ] || continue
	nth=$((nth + 1))
	[ $(((nth - 1) % ${STEP:-1})) -eq 0 ] || continue
	base=$(echo "$f" | sed 's|/|_|g; s|\.ptx$||')
	if [ -n "$PTXAS" ]; then
		for opt in -O3 -O0; do
			"$PTXAS" -arch=sm_50 "$opt" "$f" -o "$WORK/$base$opt.cubin" >/dev/null 2>&1 || continue
			check_cubin "$WORK/$base$opt.cubin" "$base$opt"
		done
	fi
	if [ -x "$PROG" ] && "$PROG" -o "$WORK/$base.ours.cubin" "$f" >/dev/null 2>&1; then
		check_cubin "$WORK/$base.ours.cubin" "$base.ours"
	fi
done

echo "sass-roundtrip: $passed passed, $failed failed (skipped: $skipped with words outside the sm_50 table, relocations or no code)"
[ "$failed" -eq 0 ]
