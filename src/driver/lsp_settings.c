/* The language server's settings (docs/lsp.md): rules mode, target, PTX
 * ISA version and CUDA release, from the client or a `// ptxsurf:`
 * comment, validated the way the library takes them. */
#include "driver/lsp_internal.h"

#include <stdio.h>
#include <string.h>

static bool set_str(char *dst, size_t size, const char *v, size_t n)
{
	if (n >= size)
		return false;
	memcpy(dst, v, n);
	dst[n] = 0;
	return true;
}

bool lsp_setting(LspSettings *st, const char *key, size_t keylen, const char *val, size_t vallen)
{
	char v[32];
	if (!set_str(v, sizeof v, val, vallen))
		return false;
#define KEY(k) (keylen == sizeof k - 1 && memcmp(key, k, keylen) == 0)
	/* a scratch context validates values the way the library will take them */
	ptxsurf_context *probe = ptxsurf_context_create();
	if (!probe)
		return false;
	bool ok = false;
	if (KEY("rules")) {
		ok = strcmp(v, "strict") == 0 || strcmp(v, "ptxas") == 0;
		if (ok)
			st->rules = strcmp(v, "ptxas") == 0 ? PTXSURF_RULES_PTXAS : PTXSURF_RULES_STRICT;
	} else if (KEY("target")) {
		ok = !*v || ptxsurf_set_target(probe, v) == PTXSURF_OK;
		ok = ok && set_str(st->target, sizeof st->target, v, vallen);
	} else if (KEY("ptx-version") || KEY("ptxVersion")) {
		ok = !*v || ptxsurf_set_ptx_version(probe, v) == PTXSURF_OK;
		ok = ok && set_str(st->ptx_version, sizeof st->ptx_version, v, vallen);
	} else if (KEY("cuda")) {
		ok = !*v || ptxsurf_set_cuda_release(probe, v) == PTXSURF_OK;
		ok = ok && set_str(st->cuda, sizeof st->cuda, v, vallen);
	}
#undef KEY
	ptxsurf_context_destroy(probe);
	return ok;
}

bool lsp_settings_apply(LspSettings *st, const JsonValue *obj, char *err, size_t errlen)
{
	if (!obj || obj->kind == JSON_NULL)
		return true;
	if (obj->kind != JSON_OBJECT) {
		snprintf(err, errlen, "the ptxsurf settings must be an object");
		return false;
	}
	LspSettings next = *st;
	for (size_t i = 0; i < obj->len; i++) {
		const char *k = obj->keys[i], *v = json_str(obj->items[i]);
		if (!v || !lsp_setting(&next, k, strlen(k), v, strlen(v))) {
			snprintf(err, errlen, "ptxsurf setting '%.40s' does not take that value (rules: strict|ptxas, "
				 "target: sm_NN, ptxVersion: X.Y, cuda: X.Y)", k);
			return false;
		}
	}
	*st = next;
	return true;
}
