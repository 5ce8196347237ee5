#include "base/rules.h"
#include "base/once.h"

#include <string.h>

static RuleInfo rules[] = {
#define RULE(id, level, s, f) { id, level, s, f, false },
#include "base/rules.def"
#undef RULE
};

static bool is_fatal(const char *id)
{
	return strcmp(id, "syntax") == 0 || strcmp(id, "lexical") == 0 || strcmp(id, "io") == 0;
}

bool rule_is_fatal(const char *id)
{
	return id && is_fatal(id);
}

const RuleInfo *rules_all(size_t *n)
{
	static OnceFlag fatal_marked;
	*n = sizeof rules / sizeof rules[0];
	if (once_claim(&fatal_marked)) {
		for (size_t i = 0; i < *n; i++)
			rules[i].fatal = is_fatal(rules[i].id);
		once_done(&fatal_marked);
	}
	return rules;
}

int rule_index(const char *id)
{
	if (!id)
		return -1;
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (strcmp(rules[i].id, id) == 0)
			return (int)i;
	return -1;
}

const RuleInfo *rule_find(const char *id)
{
	int i = rule_index(id);
	return i < 0 ? NULL : &rules[i];
}
