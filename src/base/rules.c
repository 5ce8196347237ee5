#include "base/rules.h"
#include "base/once.h"

#include <string.h>

static RuleInfo rules[] = {
#define RULE(name, id, level, s, f) { id, level, s, f, false },
#include "base/rules.def"
#undef RULE
};

_Static_assert(sizeof rules / sizeof rules[0] == RULE_COUNT - 1, "one row per RuleId after RULE_NONE");

bool rule_is_fatal(RuleId rule)
{
	return rule == RULE_SYNTAX || rule == RULE_LEXICAL || rule == RULE_IO;
}

const char *rule_name(RuleId rule)
{
	return rule > RULE_NONE && rule < RULE_COUNT ? rules[rule - 1].id : NULL;
}

const RuleInfo *rules_all(size_t *n)
{
	static OnceFlag fatal_marked;
	*n = sizeof rules / sizeof rules[0];
	if (once_claim(&fatal_marked)) {
		for (size_t i = 0; i < *n; i++)
			rules[i].fatal = rule_is_fatal((RuleId)(i + 1));
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
