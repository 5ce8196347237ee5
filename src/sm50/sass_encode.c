/* Table-driven encoding and decoding of sm_50 instruction words. */
#include "sm50/sass_encode.h"

#include <stdio.h>
#include <string.h>

void sass_values_clear(SassValues *vals)
{
	memset(vals, 0, sizeof *vals);
}

void sass_values_set(SassValues *vals, SassRole r, int64_t value)
{
	vals->v[r] = value;
	vals->present[r] = true;
}

void sass_values_unset(SassValues *vals, SassRole r)
{
	vals->v[r] = 0;
	vals->present[r] = false;
}

bool sass_values_has(const SassValues *vals, SassRole r)
{
	return vals->present[r];
}

int64_t sass_values_get(const SassValues *vals, SassRole r, int64_t dflt)
{
	return sass_values_has(vals, r) ? vals->v[r] : dflt;
}

static unsigned field_bits(const SassField *fld)
{
	return (unsigned)fld->width + fld->hi_width;
}

static uint64_t low_mask(unsigned bits)
{
	return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

static bool in_range(const SassField *fld, int64_t value)
{
	unsigned bits = field_bits(fld);
	if (fld->kind == SASS_FK_SIMM) {
		int64_t lim = INT64_C(1) << (bits - 1);
		return value >= -lim && value < lim;
	}
	return value >= 0 && (uint64_t)value <= low_mask(bits);
}

bool sass_field_accepts(const SassField *fld, int64_t value)
{
	if (!in_range(fld, value))
		return false;
	if (fld->kind == SASS_FK_ENUM) {
		const SassEnum *e = fld->values;
		bool named = (uint64_t)value < e->count && e->names[value] != NULL;
		return named || e->fallback != NULL;
	}
	return true;
}

int64_t sass_field_extract(const SassField *fld, uint64_t word)
{
	uint64_t raw = (word >> fld->lo) & low_mask(fld->width);
	if (fld->hi_width)
		raw |= ((word >> fld->hi_lo) & low_mask(fld->hi_width)) << fld->width;
	if (fld->kind == SASS_FK_SIMM) {
		uint64_t sign = UINT64_C(1) << (field_bits(fld) - 1);
		return (int64_t)(raw ^ sign) - (int64_t)sign;
	}
	return (int64_t)raw;
}

static uint64_t field_insert(const SassField *fld, int64_t value)
{
	uint64_t raw = (uint64_t)value & low_mask(field_bits(fld));
	uint64_t w = (raw & low_mask(fld->width)) << fld->lo;
	if (fld->hi_width)
		w |= (raw >> fld->width) << fld->hi_lo;
	return w;
}

/* The value of field `fld`, or the guard's default when it is unset;
 * -1 with a message when another field is unset. */
static int field_value(const SassForm *f, const SassField *fld, bool has, int64_t v, int64_t *value,
                       char *err, size_t errlen)
{
	if (has)
		*value = v;
	else if (fld->role == SR_PG)
		*value = 7;
	else if (fld->role == SR_PG_NOT || fld->role == SR_TRIG)
		*value = 0;     /* no guard negation; a NOP without .TRIG (pmevent) */
	else {
		snprintf(err, errlen, "%s: missing field '%s'", f->name, sass_role_name(fld->role));
		return -1;
	}
	return 0;
}

/* Checks `value` against `fld` and ors it into *w. */
static int put_field(const SassForm *f, const SassField *fld, int64_t value, uint64_t *w,
                     char *err, size_t errlen)
{
	if (!sass_field_accepts(fld, value)) {
		snprintf(err, errlen, "%s: value %lld does not fit field '%s' (%u bits%s)",
		         f->name, (long long)value, sass_role_name(fld->role),
		         field_bits(fld),
		         fld->kind == SASS_FK_SIMM ? ", signed" :
		         fld->kind == SASS_FK_ENUM ? ", or not a valid name" : "");
		return -1;
	}
	*w |= field_insert(fld, value);
	return 0;
}

int sass_encode(const SassForm *f, const SassValues *vals, uint64_t *word,
                char *err, size_t errlen)
{
	uint64_t w = f->value;
	bool used[SR_COUNT] = { false };

	for (unsigned i = 0; i < f->nfields; i++) {
		const SassField *fld = &f->fields[i];
		int64_t value;
		used[fld->role] = true;
		if (field_value(f, fld, sass_values_has(vals, fld->role), vals->v[fld->role], &value, err, errlen) != 0 ||
		    put_field(f, fld, value, &w, err, errlen) != 0)
			return -1;
	}
	for (unsigned r = 0; r < SR_COUNT; r++)
		if (vals->present[r] && !used[r]) {
			snprintf(err, errlen, "%s: form has no field '%s'", f->name,
			         sass_role_name((SassRole)r));
			return -1;
		}
	*word = w;
	return 0;
}

int sass_encode_fields(const SassForm *f, const int64_t *val, uint32_t set, uint64_t *word,
                       char *err, size_t errlen)
{
	uint64_t w = f->value;
	for (unsigned i = 0; i < f->nfields; i++) {
		const SassField *fld = &f->fields[i];
		int64_t value;
		if (field_value(f, fld, (set >> i) & 1, val[i], &value, err, errlen) != 0 ||
		    put_field(f, fld, value, &w, err, errlen) != 0)
			return -1;
	}
	*word = w;
	return 0;
}

const SassForm *sass_decode(uint64_t word, SassValues *vals)
{
	for (size_t i = 0; i < sass_form_count; i++) {
		const SassForm *f = &sass_forms[i];
		if ((word & f->mask) != f->value)
			continue;
		sass_values_clear(vals);
		for (unsigned j = 0; j < f->nfields; j++) {
			const SassField *fld = &f->fields[j];
			int64_t value = sass_field_extract(fld, word);
			if (!sass_field_accepts(fld, value))
				return NULL;
			sass_values_set(vals, fld->role, value);
		}
		return f;
	}
	return NULL;
}
