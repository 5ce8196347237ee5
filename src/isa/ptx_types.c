#include "isa/ptx_types.h"
#include "base/word_index.h"

#include <string.h>

static const TypeInfo types[TY_COUNT] = {
	[TY_NONE] = { "", TY_NONE, TC_NONE, 0 },
	[TY_B8] = { ".b8", TY_B8, TC_BIT, 8 },
	[TY_B16] = { ".b16", TY_B16, TC_BIT, 16 },
	[TY_B32] = { ".b32", TY_B32, TC_BIT, 32 },
	[TY_B64] = { ".b64", TY_B64, TC_BIT, 64 },
	[TY_B128] = { ".b128", TY_B128, TC_BIT, 128 },
	[TY_U8] = { ".u8", TY_U8, TC_UNSIGNED, 8 },
	[TY_U16] = { ".u16", TY_U16, TC_UNSIGNED, 16 },
	[TY_U32] = { ".u32", TY_U32, TC_UNSIGNED, 32 },
	[TY_U64] = { ".u64", TY_U64, TC_UNSIGNED, 64 },
	[TY_S8] = { ".s8", TY_S8, TC_SIGNED, 8 },
	[TY_S16] = { ".s16", TY_S16, TC_SIGNED, 16 },
	[TY_S32] = { ".s32", TY_S32, TC_SIGNED, 32 },
	[TY_S64] = { ".s64", TY_S64, TC_SIGNED, 64 },
	[TY_F16] = { ".f16", TY_F16, TC_FLOAT, 16 },
	[TY_F16X2] = { ".f16x2", TY_F16X2, TC_PACKED, 32 },
	[TY_BF16] = { ".bf16", TY_BF16, TC_FLOAT, 16 },
	[TY_BF16X2] = { ".bf16x2", TY_BF16X2, TC_PACKED, 32 },
	[TY_F32] = { ".f32", TY_F32, TC_FLOAT, 32 },
	[TY_F64] = { ".f64", TY_F64, TC_FLOAT, 64 },
	[TY_PRED] = { ".pred", TY_PRED, TC_PRED, 1 },
	[TY_SURFREF] = { ".surfref", TY_SURFREF, TC_OPAQUE, 64 },
	[TY_TEXREF] = { ".texref", TY_TEXREF, TC_OPAQUE, 64 },
	[TY_SAMPLERREF] = { ".samplerref", TY_SAMPLERREF, TC_OPAQUE, 64 },
};

const TypeInfo *type_info(PtxType t)
{
	return &types[t < TY_COUNT ? t : TY_NONE];
}

PtxType type_from_word(const char *word)
{
	/* Every modifier of every instruction comes here. */
	static WordIndex ix;
	if (word[0] != '.' || !word[1])
		return TY_NONE;
	int t = WORD_INDEX_FIND(&ix, types, TypeInfo, word, word);
	return t > TY_NONE ? (PtxType)t : TY_NONE;
}

bool type_register_fits(PtxType insn, PtxType reg, FitRule rule)
{
	const TypeInfo *it = type_info(insn), *rt = type_info(reg);
	if (rt->cls == TC_PRED || rt->cls == TC_OPAQUE || rt->cls == TC_NONE)
		return insn == reg;
	if (rule == FIT_SIZE_EXACT)
		return rt->bits == it->bits;
	switch (it->cls) {
	case TC_BIT:
		return rt->bits >= it->bits;
	case TC_UNSIGNED:
	case TC_SIGNED:
		return rt->cls != TC_FLOAT && rt->bits >= it->bits;
	case TC_FLOAT:
		if (rule == FIT_VECTOR && (rt->cls == TC_UNSIGNED || rt->cls == TC_SIGNED))
			return rt->bits == it->bits;
		return (rt->cls == TC_FLOAT && rt->bits == it->bits) ||
		       (rt->cls == TC_BIT && rt->bits >= it->bits);
	default:
		return insn == reg;
	}
}
