/* Unit tests of the sm_50 form table, encoder, control words and
 * disassembler. The example words are ptxas 11.8 output from the project's
 * encoding notes; their texts are what nvdisasm prints for them. */
#include <check.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm50/sass_ctrl.h"
#include "sm50/sass_disasm.h"
#include "sm50/sass_encode.h"
#include "sm50/sass_table.h"
#include "check_main.h"

/* ---- table consistency ---------------------------------------------------- */

static uint64_t field_bits(const SassField *fld)
{
	uint64_t m = ((UINT64_C(1) << fld->width) - 1) << fld->lo;
	if (fld->hi_width)
		m |= ((UINT64_C(1) << fld->hi_width) - 1) << fld->hi_lo;
	return m;
}

/* Every bit of a form is either fixed by the mask or owned by one field. */
START_TEST(test_table_bits_partitioned)
{
	for (size_t i = 0; i < sass_form_count; i++) {
		const SassForm *f = &sass_forms[i];
		uint64_t owned = 0;
		for (unsigned j = 0; j < f->nfields; j++) {
			uint64_t m = field_bits(&f->fields[j]);
			ck_assert_msg((owned & m) == 0, "%s: field %u overlaps", f->name, j);
			owned |= m;
		}
		ck_assert_msg((owned & f->mask) == 0, "%s: field inside the mask", f->name);
		ck_assert_msg((owned | f->mask) == ~UINT64_C(0), "%s: bits with no owner", f->name);
		ck_assert_msg((f->value & ~f->mask) == 0, "%s: value outside the mask", f->name);
	}
}
END_TEST

/* No word can belong to two forms. */
START_TEST(test_table_forms_disjoint)
{
	for (size_t i = 0; i < sass_form_count; i++)
		for (size_t j = i + 1; j < sass_form_count; j++) {
			const SassForm *a = &sass_forms[i], *b = &sass_forms[j];
			uint64_t common = a->mask & b->mask;
			ck_assert_msg(((a->value ^ b->value) & common) != 0,
			              "%s and %s overlap", a->name, b->name);
		}
}
END_TEST

START_TEST(test_table_names_unique)
{
	for (size_t i = 0; i < sass_form_count; i++) {
		ck_assert_ptr_eq(sass_form_by_name(sass_forms[i].name), &sass_forms[i]);
		for (unsigned j = 0; j < sass_forms[i].nfields; j++)
			for (unsigned k = j + 1; k < sass_forms[i].nfields; k++)
				ck_assert_int_ne(sass_forms[i].fields[j].role, sass_forms[i].fields[k].role);
	}
	ck_assert_ptr_null(sass_form_by_name("NO_SUCH_FORM"));
}
END_TEST

/* ---- example words ------------------------------------------------------- */

typedef struct Example {
	uint64_t word;
	const char *form;
	const char *text;        /* with guard, without ';' */
} Example;

static const Example examples[] = {
	{ 0xeb3c053000e70404, "SUST_D", "SUST.D.BA.1D.128.TRAP [R4], R4, 0x53" },
	{ 0xeb2c058000170200, "SUST_P", "SUST.P.1D.R.TRAP [R2], R0, 0x58" },
	{ 0xeb3c058000870200, "SUST_D", "SUST.D.BA.1D.U8.TRAP [R2], R0, 0x58" },
	{ 0xeb2c056600370402, "SUST_P", "SUST.P.2D.RG.TRAP [R4], R2, 0x56" },
	{ 0xeb3a058a00c70400, "SUST_D", "SUST.D.BA.3D [R4], R0, 0x58" },
	{ 0xeb38056600c70203, "SUST_D", "SUST.D.BA.2D.IGN [R2], R3, 0x56" },
	{ 0xeb3c056400c70200, "SUST_D", "SUST.D.BA.1D_ARRAY.TRAP [R2], R0, 0x56" },
	{ 0xeb34010000870500, "SUST_D_R", "SUST.D.BA.1D.U8.TRAP [R5], R0, R2" },
	{ 0xeb1c053000c70400, "SULD_D", "SULD.D.BA.1D.TRAP R0, [R4], 0x53" },
	{ 0xeb18058800e70404, "SULD_D", "SULD.D.BA.2D_ARRAY.128.IGN R4, [R4], 0x58" },
	{ 0xeb1a057600c70400, "SULD_D", "SULD.D.BA.2D R0, [R4], 0x57" },
	{ 0xeb1c058003d70202, "SULD_D", "SULD.D.BA.1D.CV.64.TRAP R2, [R2], 0x58" },
	{ 0xeb14000000870500, "SULD_D_R", "SULD.D.BA.1D.U8.TRAP R0, [R5], R0" },
	{ 0xeb5c058000a70002, "SURED_D", "SURED.D.BA.1D.ADD.U64.TRAP [R0], R2, 0x58" },
	{ 0xeb5c058001970200, "SURED_D", "SURED.D.BA.1D.MIN.S32.TRAP [R2], R0, 0x58" },
	{ 0xeb5c058001670200, "SURED_D", "SURED.D.1D.MIN.SD32.TRAP [R2], R0, 0x58" },
	{ 0xeb52010006880900, "SURED_D_R", "@!P0 SURED.D.BA.1D.OR [R9], R0, R2" },
	{ 0xdf48058080470000, "TXQ", "TXQ R0, R0, TEX_HEADER_DIMENSION, 0x58, 0x1" },
	{ 0xdf50000080470404, "TXQ_B", "TXQ.B R4, R4, TEX_HEADER_DIMENSION, 0x0, 0x1" },
	{ 0xeedc200000070200, "STG", "STG.E [R2], R0" },
	{ 0xeedc2fffffc70200, "STG", "STG.E [R2+-0x4], R0" },
	{ 0xeedc27ffff870200, "STG", "STG.E [R2+0x7ffff8], R0" },
	{ 0xeedc280000070200, "STG", "STG.E [R2+-0x800000], R0" },
	{ 0xeed8600000070200, "STG", "STG.E.CG.U8 [R2], R0" },
	{ 0xeedca00000070200, "STG", "STG.E.CS [R2], R0" },
	{ 0xeedce00000070200, "STG", "STG.E.WT [R2], R0" },
	{ 0xeede200000070204, "STG", "STG.E.128 [R2], R4" },
	{ 0xeedd200000870402, "STG", "STG.E.64 [R4+0x8], R2" },
	{ 0xeedc000001070200, "STG", "STG [R2+0x10], R0" },
	{ 0xeedc2000000702ff, "STG", "STG.E [R2], RZ" },
	{ 0xeedc200000000200, "STG", "@P0 STG.E [R2], R0" },
	{ 0x4c98078000870001, "MOV_C", "MOV R1, c[0x0][0x20]" },
	{ 0x5c9807800ff70003, "MOV_R", "MOV R3, RZ" },
	{ 0x010000000557f000, "MOV32I", "MOV32I R0, 0x55" },
	{ 0xf0c8000002170000, "S2R", "S2R R0, SR_TID.X" },
	{ 0x1c00000000770200, "IADD32I", "IADD32I R0, R2, 0x7" },
	{ 0x4c18810005070002, "ISCADD_C", "ISCADD R2.CC, R0, c[0x0][0x140], 0x2" },
	{ 0x4c10080005170303, "IADD_C", "IADD.X R3, R3, c[0x0][0x144]" },
	{ 0x3848000000270000, "SHL_I", "SHL R0, R0, 0x2" },
	{ 0x3828000001e70003, "SHR_I", "SHR.U32 R3, R0, 0x1e" },
	{ 0x5b007f8000370005, "XMAD_R", "XMAD R5, R0, R3, RZ" },
	{ 0x4e00000000270200, "XMAD_C", "XMAD R0, R2, c[0x0] [0x8], R0" },
	{ 0xef95000014070202, "LDC", "LDC.64 R2, c[0x0][R2+0x140]" },
	{ 0xeed4a00000070404, "LDG", "LDG.E.CI R4, [R4]" },
	{ 0xe30000000007000f, "EXIT", "EXIT" },
	{ 0x50b0000000070f00, "NOP", "NOP" },
	{ 0xf0f0000034370000, "DEPBAR", "DEPBAR.LE SB5, 0x3" },
	{ 0xf0f0000000070002, "DEPBAR", "DEPBAR {1}" },
	{ 0x5b6403800ff70707, "ISETP_R", "ISETP.EQ.U32.AND P0, PT, R7, RZ, PT" },
	{ 0x040000fffff70000, "LOP32I", "LOP32I.AND R0, R0, 0xfffff" },
};

/* Forms beyond the encoding notes: words ptxas 11.8 emitted for sm_50 when
 * compiling the project's PTX corpus, with nvdisasm's text for them. */
static const Example extra_examples[] = {
	{ 0x5bd801c00ff70707, "LEA_HI_R", "LEA.HI.X P0, R7, R7, RZ, R3" },
	{ 0x5bd780000ff70706, "LEA_R", "LEA R6.CC, R7, RZ" },
	{ 0x50900380e0070007, "PSETP", "PSETP.AND.AND P0, PT, P0, PT, PT" },
	{ 0x5ce0000000573a06, "I2I_R", "I2I.S32.S32 R6, R5" },
	{ 0x36f8054000270904, "SHF_L_I", "SHF.L.U64 R4, R9, 0x2, R10" },
	{ 0x5ca0000000670506, "SEL_R", "SEL R6, R5, R6, P0" },
	{ 0x5cc0052000970000, "IADD3_R", "IADD3.RS R0, R0, R9, R10" },
	{ 0x3800000080070502, "BFE_I", "BFE.U32 R2, R5, 0x800" },
	{ 0x36f0028080870404, "BFI_I", "BFI R4, R4, 0x808, R5" },
	{ 0x5c21038000670707, "IMNMX_R", "IMNMX R7, R7, R6, PT" },
	{ 0x5c20078000270708, "IMNMX_R", "IMNMX.U32 R8, R7, R2, !PT" },
	{ 0x3829000001f70607, "SHR_I", "SHR R7, R6, 0x1f" },
	{ 0x5c47020000870008, "LOP_R", "LOP.OR R8, R0, R8" },
	{ 0x4f107f8000270203, "XMAD_C", "XMAD.MRG R3, R2, c[0x0] [0x8].H1, RZ" },
	/* ---- decoder-only forms ptxas emits (words of ptxas 11.8 cubins) ---- */
	{ 0x5c38030000470004, "IMUL_R", "IMUL R4, R0, R4" },
	{ 0x5c38008000470000, "IMUL_R", "IMUL.U32.U32.HI R0, R0, R4" },
	{ 0x5c38038000870000, "IMUL_R", "IMUL.HI R0, R0, R8" },
	{ 0x1f00000000c70404, "IMUL32I", "IMUL32I.U32.U32 R4, R4, 0xc" },
	{ 0x1fe000000807190a, "IMUL32I", "IMUL32I.HI R10, R25, 0x80" },
	{ 0x5a21000000570404, "IMAD_R", "IMAD R4, R4, R5, R0" },
	{ 0x5200000800170404, "IMAD_RC", "IMAD.U32.U32 R4, R4, R0, c[0x2][0x4]" },
	{ 0x5221000800370202, "IMAD_RC", "IMAD R2, R2, R0, c[0x2][0xc]" },
	{ 0x5be7000601e71100, "LOP3_R", "LOP3.LUT R0, R17, R30, R0, 0x60" },
	{ 0x3cec01000ff70000, "LOP3_I", "LOP3.LUT R0, R0, 0xff, R2, 0xec" },
	{ 0xe290000004800000, "SSY", "SSY 0x50" },
	{ 0xe2a000002b000000, "PBK", "PBK 0x2b8" },
	{ 0xf0f800000000000f, "SYNC", "@P0 SYNC" },
	{ 0xf0f800000007000f, "SYNC", "SYNC" },
	{ 0xe34000000008000f, "BRK", "@!P0 BRK" },
	{ 0x364a020000270704, "ICMP_I", "ICMP.NE.U32 R4, R7, 0x2, R4" },
	{ 0x4b44020005470606, "ICMP_C", "ICMP.EQ.U32 R6, R6, c[0x0][0x150], R4" },
	{ 0x50880380e0075000, "PSET", "PSET.AND.AND R0, P5, PT, PT" },
	/* issue 15 (misc): ISET, from ptxas 11.8 -O3 cubins (set, istypep, isspacep) */
	{ 0x4b540b8005170a09, "ISET_C", "ISET.EQ.U32.X.AND R9, R10, c[0x0][0x144], PT" },
	{ 0x5b5d038000270006, "ISET_R", "ISET.GE.AND R6, R0, R2, PT" },
	{ 0x3652038004d70005, "ISET_I", "ISET.LT.U32.AND R5, R0, 0x4d, PT" },
	/* sim4: ptxas 11.8's compact texture forms and CSETP (tex-bound, tex-bindless, int-mul-hi-s64) */
	{ 0xd8300530a0270208, "TEXS", "TEXS R10, R8, R2, R2, 0x53, 2D, RGBA" },
	{ 0xd8700520a0870a08, "TEXS", "TEXS.LL R10, R8, R10, R8, 0x52, 2D, RGBA" },
	{ 0xd8f00530a0270808, "TEXS", "TEXS R10, R8, R8, R2, 0x53, ARRAY_2D, RGBA" },
	{ 0xd9500520a0270208, "TEXS", "TEXS R10, R8, R2, R2, 0x52, 3D, RGBA" },
	{ 0xda100520aff70408, "TLDS", "TLDS.LZ R10, R8, R4, 0x52, 1D, RGBA" },
	{ 0xdf200530a0270208, "TLD4S", "TLD4S.B R10, R8, R2, R2, 0x53" },
	{ 0x50a0038000071507, "CSETP", "CSETP.SFT.AND P0, PT, CC, PT" },
	{ 0x5424006060670500, "VABSDIFF", "VABSDIFF.U32.U32.ACC R0, R5, R6, R0" },
	{ 0x5467006060670505, "VABSDIFF", "VABSDIFF.SD.ACC R5, R5, R6, R0" },
	{ 0x5b54200000270008, "ISET_R", "ISET.EQ.U32.OR R8, R0, R2, P0" },
	{ 0x4b5913800537000b, "ISET_C", "ISET.BF.GT.AND R11, R0, c[0x0][0x14c], PT" },
	{ 0xef17707c30170200, "SHFL_II", "SHFL.IDX PT, R0, R2, 0x1, 0x1c1f" },
	/* fnptr: ptxas 11.8's call through a register (PRET at 0: target 0x10) */
	{ 0xe270000000800040, "PRET", "PRET 0x10" },
	{ 0xe2500ffff807030f, "BRX", "BRX R3 -0x80" },
	{ 0xe2500fffe207030f, "BRX", "BRX R3 -0x1e0" },
	/* divrn: div.rn.f32 / rcp.rn.f32, from ptxas 11.8 -O3 cubins */
	{ 0x5c88000000670400, "FCHK_R", "FCHK.DIVIDE P0, R4, R6" },
	{ 0x4c88000005571c00, "FCHK_C", "FCHK.DIVIDE P0, R28, c[0x0][0x154]" },
	{ 0x388800437f071c00, "FCHK_I", "FCHK.DIVIDE P0, R28, 255" },
	/* an integer immediate converted (rodinia backprop, ptxas 11.8 -O3) */
	{ 0x38b8010000470a0b, "I2F_I", "I2F.F32.U32.RP R11, 0x4" },
	{ 0x30cc03ff80070409, "FSET_I", "FSET.GTU.FTZ.AND R9, |R4|, +INF , PT" },
	{ 0x30cd83ff800705ff, "FSET_I", "FSET.NEU.FTZ.AND RZ.CC, |R5|, +INF , PT" },
	{ 0x588d038000870908, "FSET_R", "FSET.NEU.FTZ.AND R8, R9, R8, PT" },
	{ 0x5be003bc809708ff, "LOP3_P_R", "LOP3.LUT.NZ P0, RZ, R8, R9, R7, 0xc8" },
	{ 0x5be103bf805708ff, "LOP3_P_R", "LOP3.LUT.NZ P1, RZ, R8, R5, R7, 0xf8" },
	{ 0x16ec080000070e09, "ISCADD32I", "ISCADD32I R9, R14, -0x3f800000, 0x17" },
	/* r2p14: R2P of the predicates, from ptxas 11.8 -O3 cubins (r2p-predicate-bits,
	 * predicate-bits); P2R of them as nvdisasm 11.8 prints the word */
	{ 0x38f0000000b70000, "R2P_PR", "R2P PR, R0, 0xb" },
	{ 0x38f0020000670400, "R2P_PR", "R2P PR, R4.B1, 0x6" },
	{ 0x38f0040000370400, "R2P_PR", "R2P PR, R4.B2, 0x3" },
	{ 0x38f0000007f70400, "R2P_PR", "R2P PR, R4, 0x7f" },
	{ 0x38e8060000370203, "P2R_PR", "P2R.B3 R3, PR, R2, 0x3" },
	{ 0x38e8010000f7ff23, "P2R_CC", "P2R R35, CC, RZ, 0xf" },
};

/* A slot without reuse flags, barriers or anything that changes the text. */
enum { QUIET_SLOT = 0x7e0 };

static void check_example(const Example *ex, uint64_t addr, const char *want)
{
	SassValues vals;
	const SassForm *f = sass_decode(ex->word, &vals);
	ck_assert_msg(f != NULL, "%016llx does not decode", (unsigned long long)ex->word);
	ck_assert_str_eq(f->name, ex->form);

	char guard[16], text[160], full[200];
	ck_assert_int_ge(sass_format_guard(&vals, guard, sizeof guard), 0);
	ck_assert_int_ge(sass_format_insn(f, &vals, QUIET_SLOT, addr, text, sizeof text), 0);
	snprintf(full, sizeof full, "%s%s", guard, text);
	ck_assert_str_eq(full, want);

	uint64_t again = 0;
	char err[160];
	ck_assert_msg(sass_encode(f, &vals, &again, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(again == ex->word, "%s re-encodes as %016llx", want,
	              (unsigned long long)again);
}

START_TEST(test_examples_decode_and_reencode)
{
	for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
		check_example(&examples[i], 0, examples[i].text);
}
END_TEST

START_TEST(test_extra_examples)
{
	for (size_t i = 0; i < sizeof extra_examples / sizeof extra_examples[0]; i++)
		check_example(&extra_examples[i], 0, extra_examples[i].text);
}
END_TEST

/* BRA to itself: the offset is relative to the next instruction. */
START_TEST(test_bra_self)
{
	const Example bra = { 0xe2400fffff87000f, "BRA", NULL };
	check_example(&bra, 0x30, "BRA 0x30");
	check_example(&bra, 0x8, "BRA 0x8");
}
END_TEST

/* The operand reuse flags print as .reuse; on TXQ they are the phase. */
START_TEST(test_reuse_and_phase)
{
	SassValues vals;
	char text[160];
	const SassForm *f = sass_decode(0x5c10000000370002, &vals);
	ck_assert_ptr_nonnull(f);
	sass_format_insn(f, &vals, QUIET_SLOT | 3u << 17, 0, text, sizeof text);
	ck_assert_str_eq(text, "IADD R2, R0.reuse, R3.reuse");
	f = sass_decode(0xdf48058080470000, &vals);
	ck_assert_ptr_nonnull(f);
	sass_format_insn(f, &vals, QUIET_SLOT | 1u << 17, 0, text, sizeof text);
	ck_assert_str_eq(text, "TXQ.T R0, R0, TEX_HEADER_DIMENSION, 0x58, 0x1");
	sass_format_insn(f, &vals, QUIET_SLOT | 2u << 17, 0, text, sizeof text);
	ck_assert_str_eq(text, "TXQ.P R0, R0, TEX_HEADER_DIMENSION, 0x58, 0x1");
}
END_TEST

/* ---- encoder errors ------------------------------------------------------- */

static SassValues stg_values(void)
{
	SassValues v;
	sass_values_clear(&v);
	sass_values_set(&v, SR_SIZE, 4);
	sass_values_set(&v, SR_COP, 0);
	sass_values_set(&v, SR_E, 1);
	sass_values_set(&v, SR_IMM, 0);
	sass_values_set(&v, SR_RA, 2);
	sass_values_set(&v, SR_RB, 0);
	return v;
}

START_TEST(test_encode_stg_default_guard)
{
	SassValues v = stg_values();
	uint64_t w = 0;
	char err[160];
	ck_assert_int_eq(sass_encode(sass_form_by_name("STG"), &v, &w, err, sizeof err), 0);
	ck_assert_uint_eq(w, 0xeedc200000070200);
}
END_TEST

START_TEST(test_encode_range_errors)
{
	const SassForm *stg = sass_form_by_name("STG");
	char err[160];
	uint64_t w = 0x1234;

	SassValues v = stg_values();
	sass_values_set(&v, SR_IMM, 0x800000);           /* one past the signed 24-bit range */
	ck_assert_int_eq(sass_encode(stg, &v, &w, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "imm"));
	ck_assert_uint_eq(w, 0x1234);                     /* untouched on error */

	sass_values_set(&v, SR_IMM, -0x800000);          /* the lowest value fits */
	ck_assert_int_eq(sass_encode(stg, &v, &w, err, sizeof err), 0);
	ck_assert_uint_eq(w, 0xeedc280000070200);

	v = stg_values();
	sass_values_set(&v, SR_RA, 256);
	ck_assert_int_eq(sass_encode(stg, &v, &w, err, sizeof err), -1);
	v = stg_values();
	sass_values_set(&v, SR_RB, -1);
	ck_assert_int_eq(sass_encode(stg, &v, &w, err, sizeof err), -1);
	v = stg_values();
	sass_values_set(&v, SR_PG, 8);
	ck_assert_int_eq(sass_encode(stg, &v, &w, err, sizeof err), -1);
	v = stg_values();
	sass_values_set(&v, SR_COP, 4);
	ck_assert_int_eq(sass_encode(stg, &v, &w, err, sizeof err), -1);
}
END_TEST

START_TEST(test_encode_missing_and_foreign_fields)
{
	const SassForm *stg = sass_form_by_name("STG");
	char err[160];
	uint64_t w;
	SassValues v = stg_values();
	sass_values_unset(&v, SR_RB);
	ck_assert_int_eq(sass_encode(stg, &v, &w, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "missing"));

	v = stg_values();
	sass_values_set(&v, SR_SUIDX, 3);                /* STG has no surface index */
	ck_assert_int_eq(sass_encode(stg, &v, &w, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "suidx"));
}
END_TEST

/* Enum values without a spelling are not encodings. */
START_TEST(test_encode_invalid_enum)
{
	const SassForm *txq = sass_form_by_name("TXQ");
	SassValues v;
	uint64_t w;
	char err[160];
	ck_assert_ptr_nonnull(sass_decode(0xdf48058080470000, &v));
	sass_values_set(&v, SR_QUERY, 3);
	ck_assert_int_eq(sass_encode(txq, &v, &w, err, sizeof err), -1);
	sass_values_set(&v, SR_QUERY, 2);
	ck_assert_int_eq(sass_encode(txq, &v, &w, err, sizeof err), 0);
}
END_TEST

/* The ALU immediate is 20-bit signed across bits 38:20 and 56. */
START_TEST(test_encode_split_immediate)
{
	const SassForm *f = sass_form_by_name("IADD_I");
	SassValues v, back;
	uint64_t w;
	char err[160], text[160];
	sass_values_clear(&v);
	sass_values_set(&v, SR_SAT, 0);
	sass_values_set(&v, SR_NEG, 0);
	sass_values_set(&v, SR_CC, 0);
	sass_values_set(&v, SR_X, 0);
	sass_values_set(&v, SR_IMM, -3);
	sass_values_set(&v, SR_RA, 0);
	sass_values_set(&v, SR_RD, 2);
	ck_assert_int_eq(sass_encode(f, &v, &w, err, sizeof err), 0);
	ck_assert_uint_eq(w, 0x3910007fffd70002);
	ck_assert_ptr_eq(sass_decode(w, &back), f);
	ck_assert_int_eq(back.v[SR_IMM], -3);
	sass_format_insn(f, &back, QUIET_SLOT, 0, text, sizeof text);
	ck_assert_str_eq(text, "IADD R2, R0, -0x3");
	sass_values_set(&v, SR_IMM, 0x80000);
	ck_assert_int_eq(sass_encode(f, &v, &w, err, sizeof err), -1);
}
END_TEST

/* ---- control words ----------------------------------------------------------- */

static void check_slot_text(uint32_t slot, const char *want)
{
	SassCtrl c;
	char buf[16];
	sass_ctrl_unpack_slot(slot, &c);
	ck_assert_int_eq(sass_ctrl_format(&c, buf, sizeof buf), (int)strlen(want));
	ck_assert_str_eq(buf, want);
}

START_TEST(test_ctrl_examples)
{
	uint32_t s[3];
	sass_ctrl_unpack_word(0x001fc400fe2007f6, s);
	check_slot_text(s[0], "--:-:-:-:6");
	check_slot_text(s[1], "--:-:-:-:1");
	check_slot_text(s[2], "--:-:-:-:1");
	ck_assert_uint_eq(sass_ctrl_pack_word(s), 0x001fc400fe2007f6);

	sass_ctrl_unpack_word(0x001fc800fc2007b1, s);
	check_slot_text(s[0], "--:-:5:-:1");
	check_slot_text(s[1], "--:-:-:Y:1");
	check_slot_text(s[2], "--:-:-:-:2");
	ck_assert_uint_eq(sass_ctrl_pack_word(s), 0x001fc800fc2007b1);

	/* Three alignment NOPs. */
	sass_ctrl_unpack_word(0x001f8000fc0007e0, s);
	for (int i = 0; i < 3; i++)
		check_slot_text(s[i], "--:-:-:Y:0");
}
END_TEST

START_TEST(test_ctrl_parse)
{
	SassCtrl c;
	uint32_t slot;
	ck_assert_int_eq(sass_ctrl_parse("03:1:0:Y:f", &c), 0);
	ck_assert_uint_eq(c.wait, 3);
	ck_assert_uint_eq(c.rbar, 1);
	ck_assert_uint_eq(c.wbar, 0);
	ck_assert_uint_eq(c.yield, 0);
	ck_assert_uint_eq(c.stall, 15);
	ck_assert_int_eq(sass_ctrl_pack_slot(&c, &slot), 0);
	ck_assert_uint_eq(slot, 0x190f);

	ck_assert_int_eq(sass_ctrl_parse("--:-:5:-:1", &c), 0);
	ck_assert_int_eq(sass_ctrl_pack_slot(&c, &slot), 0);
	ck_assert_uint_eq(slot, 0x7b1);

	const char *bad[] = { "", "03:1:0:Y", "03:1:0:Y:fx", "40:1:0:Y:f", "03:7:0:Y:f",
	                      "03:1:0:y:f", "03;1:0:Y:f", "0g:1:0:Y:f", "03:1:0:Y:g" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(sass_ctrl_parse(bad[i], &c) == -1, "accepted '%s'", bad[i]);
}
END_TEST

/* Every slot value survives unpack/pack, and every reuse-free slot
 * survives format/parse. */
START_TEST(test_ctrl_round_trip_all_slots)
{
	/* Plain comparisons in the loop: a ck_assert per slot would dominate
	 * the run time. */
	unsigned long bad = 0, first_bad = 0;
	for (uint32_t slot = 0; slot < (1u << 21); slot++) {
		SassCtrl c, d;
		uint32_t again = ~0u;
		char buf[16];
		bool ok;
		sass_ctrl_unpack_slot(slot, &c);
		ok = sass_ctrl_pack_slot(&c, &again) == 0 && again == slot;
		if (ok && slot <= SASS_CTRL_SCHED_MASK)
			ok = sass_ctrl_format(&c, buf, sizeof buf) == 10 &&
			     sass_ctrl_parse(buf, &d) == 0 &&
			     sass_ctrl_pack_slot(&d, &again) == 0 && again == slot;
		if (!ok && bad++ == 0)
			first_bad = slot;
	}
	ck_assert_msg(bad == 0, "%lu slots do not round-trip, first 0x%lx", bad, first_bad);
	uint32_t s[3] = { 0x1fffff, 0, 0x12345 }, t[3];
	sass_ctrl_unpack_word(sass_ctrl_pack_word(s), t);
	ck_assert_uint_eq(t[0], s[0]);
	ck_assert_uint_eq(t[1], s[1]);
	ck_assert_uint_eq(t[2], s[2]);
	ck_assert_uint_eq(sass_ctrl_pack_word(s) >> 63, 0);
}
END_TEST

START_TEST(test_ctrl_pack_range)
{
	SassCtrl c = sass_ctrl_default(16);
	uint32_t slot;
	ck_assert_int_eq(sass_ctrl_pack_slot(&c, &slot), -1);
	c = sass_ctrl_default(1);
	c.wait = 0x40;
	ck_assert_int_eq(sass_ctrl_pack_slot(&c, &slot), -1);
	c = sass_ctrl_default(1);
	c.reuse = 0x10;
	ck_assert_int_eq(sass_ctrl_pack_slot(&c, &slot), -1);
	c = sass_ctrl_default(1);
	ck_assert_int_eq(sass_ctrl_pack_slot(&c, &slot), 0);
	ck_assert_uint_eq(slot, 0x7f1);
}
END_TEST

/* ---- the listing ------------------------------------------------------------ */

static char *disasm_to_string(const uint64_t *words, size_t n, uint64_t base, int *rc,
                              char *err, size_t errlen)
{
	uint8_t *bytes = malloc(n * 8 + 1);
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++)
			bytes[8 * i + b] = (uint8_t)(words[i] >> (8 * b));
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	*rc = sass_disasm_stream(bytes, n * 8, base, f, err, errlen);
	fclose(f);
	free(bytes);
	return out;
}

/* Captured from `nvdisasm -b SM50 -hex -novliw` for the same words. */
START_TEST(test_stream_matches_nvdisasm)
{
	const uint64_t words[] = {
		0x001fc400fe2007f6, 0x4c98078000870001, 0x5c9807800ff70003, 0x010000000557f000,
		0x001fc800fc2007b1, 0xdf48058080470000, 0xe2400fffff87000f, 0xe30000000007000f,
	};
	const char *want =
		"\t.headerflags    @\"EF_CUDA_SM50 EF_CUDA_PTX_SM(EF_CUDA_SM50)\"\n"
		"                                                                                  /* 0x001fc400fe2007f6 */\n"
		"        /*0008*/                   MOV R1, c[0x0][0x20] ;                         /* 0x4c98078000870001 */\n"
		"        /*0010*/                   MOV R3, RZ ;                                   /* 0x5c9807800ff70003 */\n"
		"        /*0018*/                   MOV32I R0, 0x55 ;                              /* 0x010000000557f000 */\n"
		"                                                                                  /* 0x001fc800fc2007b1 */\n"
		"        /*0028*/                   TXQ R0, R0, TEX_HEADER_DIMENSION, 0x58, 0x1 ;  /* 0xdf48058080470000 */\n"
		"        /*0030*/                   BRA 0x30 ;                                     /* 0xe2400fffff87000f */\n"
		"        /*0038*/                   EXIT ;                                         /* 0xe30000000007000f */\n";
	int rc;
	char err[160];
	char *got = disasm_to_string(words, 8, 0, &rc, err, sizeof err);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(got, want);
	free(got);
}
END_TEST

/* Guards sit in the gap before the opcode but still count for the column;
 * addresses wider than four digits shift the opcode. */
START_TEST(test_stream_guard_and_address_width)
{
	const uint64_t words[] = {
		0x001f8000fc0007e1, 0x1c7fffffffff0200, 0xeedc200000000200, 0xeb52010006880900,
	};
	const char *want =
		"\t.headerflags    @\"EF_CUDA_SM50 EF_CUDA_PTX_SM(EF_CUDA_SM50)\"\n"
		"                                                                          /* 0x001f8000fc0007e1 */\n"
		"        /*10008*/              @!PT IADD32I.SAT.X R0.CC, R2, -0x1 ;       /* 0x1c7fffffffff0200 */\n"
		"        /*10010*/               @P0 STG.E [R2], R0;                       /* 0xeedc200000000200 */\n"
		"        /*10018*/              @!P0 SURED.D.BA.1D.OR [R9], R0, R2;        /* 0xeb52010006880900 */\n";
	int rc;
	char err[160];
	char *got = disasm_to_string(words, 4, 0x10000, &rc, err, sizeof err);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(got, want);
	free(got);
}
END_TEST

START_TEST(test_stream_errors)
{
	int rc;
	char err[160];
	const uint64_t partial[] = { 0x001f8000fc0007e0, 0xe30000000007000f };
	char *got = disasm_to_string(partial, 2, 0, &rc, err, sizeof err);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(got, "");
	free(got);

	/* An undefined opcode. */
	const uint64_t unknown[] = { 0x001f8000fc0007e0, 0xffffffffffffffff,
	                             0x50b0000000070f00, 0x50b0000000070f00 };
	got = disasm_to_string(unknown, 4, 0, &rc, err, sizeof err);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(strstr(err, "0x00000008"));
	free(got);

	/* A write barrier on a fixed-latency MOV (slot 0x7c1: wbar 6). */
	const uint64_t barrier[] = { 0x001f8000fc0007c1, 0x4c98078000870001,
	                             0x50b0000000070f00, 0x50b0000000070f00 };
	got = disasm_to_string(barrier, 4, 0, &rc, err, sizeof err);
	ck_assert_int_eq(rc, -1);
	free(got);
}
END_TEST

/* Random bytes must be rejected or listed, never crash. */
START_TEST(test_stream_random_bytes)
{
	uint64_t state = 0x2545f4914f6cdd1d;
	enum { GROUPS = 64 };
	uint64_t words[4 * GROUPS];
	for (int round = 0; round < 2000; round++) {
		for (size_t i = 0; i < 4 * GROUPS; i++) {
			state ^= state << 13;
			state ^= state >> 7;
			state ^= state << 17;
			words[i] = state;
			/* Half of the instruction words get a known opcode so that
			 * the printers, not just the decoder, see random fields. */
			if (i % 4 && (state & 1))
				words[i] = (state & ~sass_forms[(state >> 8) % sass_form_count].mask) |
				           sass_forms[(state >> 8) % sass_form_count].value;
			else if (i % 4 == 0)
				words[i] &= 0x7fffffffffffffff;
		}
		int rc;
		char err[160];
		char *got = disasm_to_string(words, 4 * GROUPS, (uint64_t)round << 5, &rc, err, sizeof err);
		ck_assert(rc == 0 || rc == -1);
		free(got);
	}
	/* Every single-instruction stream: decode, print, re-encode. */
	for (int round = 0; round < 50000; round++) {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		const SassForm *f = &sass_forms[round % sass_form_count];
		uint64_t w = (state & ~f->mask) | f->value, again;
		SassValues v;
		char text[160], err[160];
		const SassForm *g = sass_decode(w, &v);
		if (g == NULL)
			continue;
		ck_assert_ptr_eq(g, f);
		ck_assert_int_ge(sass_format_insn(g, &v, (uint32_t)state & 0x1fffff, state, text,
		                                  sizeof text), 0);
		ck_assert_int_eq(sass_encode(g, &v, &again, err, sizeof err), 0);
		ck_assert_uint_eq(again, w);
	}
}
END_TEST

static Suite *sass_suite(void)
{
	Suite *s = suite_create("sass");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, test_table_bits_partitioned);
	tcase_add_test(tc, test_table_forms_disjoint);
	tcase_add_test(tc, test_table_names_unique);
	suite_add_tcase(s, tc);

	tc = tcase_create("examples");
	tcase_add_test(tc, test_examples_decode_and_reencode);
	tcase_add_test(tc, test_extra_examples);
	tcase_add_test(tc, test_bra_self);
	tcase_add_test(tc, test_reuse_and_phase);
	suite_add_tcase(s, tc);

	tc = tcase_create("encode");
	tcase_add_test(tc, test_encode_stg_default_guard);
	tcase_add_test(tc, test_encode_range_errors);
	tcase_add_test(tc, test_encode_missing_and_foreign_fields);
	tcase_add_test(tc, test_encode_invalid_enum);
	tcase_add_test(tc, test_encode_split_immediate);
	suite_add_tcase(s, tc);

	tc = tcase_create("ctrl");
	tcase_add_test(tc, test_ctrl_examples);
	tcase_add_test(tc, test_ctrl_parse);
	tcase_add_test(tc, test_ctrl_round_trip_all_slots);
	tcase_add_test(tc, test_ctrl_pack_range);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("listing");
	tcase_add_test(tc, test_stream_matches_nvdisasm);
	tcase_add_test(tc, test_stream_guard_and_address_width);
	tcase_add_test(tc, test_stream_errors);
	tcase_add_test(tc, test_stream_random_bytes);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(sass_suite)
