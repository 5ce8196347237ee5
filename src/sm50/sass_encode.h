/* Building and taking apart sm_50 instruction words, driven only by the form
 * table (sass_table.h). Values travel by role; every value is the raw field
 * integer (constant offsets of ALU operands in 4-byte words, branch offsets
 * relative to the next instruction) so decode followed by encode gives the
 * same word back. */
#ifndef PTXSURF_SASS_ENCODE_H
#define PTXSURF_SASS_ENCODE_H

#include "sm50/sass_table.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct SassValues {
	bool present[SR_COUNT];     /* present[r]: v[r] holds a value */
	int64_t v[SR_COUNT];
} SassValues;

void sass_values_clear(SassValues *vals);
void sass_values_set(SassValues *vals, SassRole r, int64_t value);
void sass_values_unset(SassValues *vals, SassRole r);
bool sass_values_has(const SassValues *vals, SassRole r);
/* The value of role r, or `dflt` when it is not set. */
int64_t sass_values_get(const SassValues *vals, SassRole r, int64_t dflt);

/* Whether `value` fits field `fld` and names a valid encoding (enum values
 * without a name and without a fallback spelling are not). */
bool sass_field_accepts(const SassField *fld, int64_t value);
/* The field's value in `word` (sign-extended for SASS_FK_SIMM). */
int64_t sass_field_extract(const SassField *fld, uint64_t word);

/* Encode form `f` with `vals` into *word. Every field of the form must be set,
 * except the guard predicate, which defaults to "always" (PT, not negated).
 * Values outside a field's range and roles the form does not have are
 * errors: returns -1 with a message in err, and leaves *word alone. */
int sass_encode(const SassForm *f, const SassValues *vals, uint64_t *word,
                char *err, size_t errlen);
/* sass_encode() with the values by field position instead of by role:
 * val[i] is the value of f->fields[i] when bit i of `set` is on. No value
 * can name a role the form lacks, so only the field errors remain. */
int sass_encode_fields(const SassForm *f, const int64_t *val, uint32_t set, uint64_t *word,
                       char *err, size_t errlen);

/* The form `word` belongs to, with all its field values in *vals; NULL when
 * no form matches or a field holds an invalid value. */
const SassForm *sass_decode(uint64_t word, SassValues *vals);

#endif
