#include "isa/requirements.h"

#include <stdio.h>

static const ReqRow rows[] = {
#define REQ(id, feat, vf, tf, ord, vmaj, vmin, pmaj, pmin, sm, src, doc)                 \
	{ REQ_##id, #id, feat, REQ_FORM_##vf, REQ_FORM_##tf, REQ_ORDER_##ord,             \
	  PTX_VERSION_OF(vmaj, vmin), PTX_VERSION_OF(pmaj, pmin), sm, REQ_SRC_##src, doc },
#include "isa/requirements.def"
#undef REQ
};

const ReqRow *req_rows(size_t *n)
{
	*n = sizeof rows / sizeof rows[0];
	return rows;
}

const ReqRow *req_row(ReqId id)
{
	return &rows[id];
}

const char *req_source_name(ReqSource s)
{
	switch (s) {
	case REQ_SRC_DOC: return "document";
	case REQ_SRC_PTXAS: return "ptxas";
	case REQ_SRC_BOTH: return "both";
	}
	return "?";
}

const char *req_form_name(ReqForm f)
{
	switch (f) {
	case REQ_FORM_FEATURE: return "feature";
	case REQ_FORM_INSTRUCTION: return "instruction";
	case REQ_FORM_INSTRUCTION_USE: return "instruction-use";
	case REQ_FORM_MODIFIER: return "modifier";
	case REQ_FORM_MODIFIER_ON: return "modifier-on";
	case REQ_FORM_FEATURE_USE: return "feature-use";
	case REQ_FORM_MODIFIER_ON_USE: return "modifier-on-use";
	}
	return "?";
}

const char *req_subject(const ReqRow *r, ReqForm form, const char *use, char *buf, size_t size)
{
	const char *u = use ? use : "?";
	switch (form) {
	case REQ_FORM_FEATURE: snprintf(buf, size, "Feature '%s'", r->feature); break;
	case REQ_FORM_INSTRUCTION: snprintf(buf, size, "Instruction '%s'", r->feature); break;
	case REQ_FORM_INSTRUCTION_USE: snprintf(buf, size, "Instruction '%s'", u); break;
	case REQ_FORM_MODIFIER: snprintf(buf, size, "Modifier '%s'", r->feature); break;
	case REQ_FORM_MODIFIER_ON: snprintf(buf, size, "Modifier '%s' on '%s'", r->feature, u); break;
	case REQ_FORM_FEATURE_USE: snprintf(buf, size, "Feature '%s'", u); break;
	case REQ_FORM_MODIFIER_ON_USE: snprintf(buf, size, "Modifier '%s' on '%s'", r->feature, u); break;
	}
	return buf;
}
