#include "check/req_report.h"
#include "base/json.h"

#include <stdio.h>
#include <string.h>

bool rule_is_version_gate(RuleId rule)
{
	return rule == RULE_VERSION_GATE || rule == RULE_VERSION_GATE_DOC || rule == RULE_TARGET_VERSION;
}

bool rule_is_target_gate(RuleId rule)
{
	return rule == RULE_TARGET_GATE || rule == RULE_TARGET_GATE_DOC;
}

static Item *find_item(Module *m, ItemKind kind)
{
	for (Item *it = m->items; it; it = it->next)
		if (it->kind == kind)
			return it;
	return NULL;
}

/* The checker words its findings for the header the file declares ("the
 * file declares .target sm_30", ".target sm_30 declared here"); under a
 * substituted header those words would be false, so they are reworded. */
static const char *reword(DiagSink *s, const char *msg, const char *from, const char *to)
{
	const char *p = strstr(msg, from);
	if (!p)
		return msg;
	size_t n = strlen(msg) - strlen(from) + strlen(to);
	char *out = arena_alloc(&s->arena, n + 1);
	snprintf(out, n + 1, "%.*s%s%s", (int)(p - msg), msg, to, p + strlen(from));
	return out;
}

static void reword_probe(DiagSink *s, Diag *from)
{
	for (Diag *d = from; d; d = d->next) {
		d->msg = reword(s, d->msg, "the file declares", "checked as");
		for (Diag *n = d->notes; n; n = n->next)
			n->msg = reword(s, n->msg, " declared here", " checked in place of this line");
	}
}

bool check_module_as(Module *m, DiagSink *sink, const CheckOptions *opt, PtxVersion v, const TargetInfo *t)
{
	Item *ver = find_item(m, IT_VERSION);
	Item *tgt = find_item(m, IT_TARGET);
	if (!ver || !tgt || tgt->u.target.n == 0)
		return false;
	/* Swap the header in place and restore it: the checker reads only the
	 * AST, so this is exactly "the same file with another header". */
	char text[8];
	ptx_version_str(v, text, sizeof text);
	int major = ver->u.version.major, minor = ver->u.version.minor;
	const char *vtext = ver->u.version.text, *tname = tgt->u.target.names[0];
	ver->u.version.major = PTX_VERSION_MAJOR(v);
	ver->u.version.minor = PTX_VERSION_MINOR(v);
	ver->u.version.text = text;
	tgt->u.target.names[0] = t->name;
	Diag *last = sink->tail;
	check_module(m, sink, opt);
	reword_probe(sink, last ? last->next : sink->head);
	ver->u.version.major = major;
	ver->u.version.minor = minor;
	ver->u.version.text = vtext;
	tgt->u.target.names[0] = tname;
	return true;
}

typedef enum GateKind { GATE_VERSION, GATE_TARGET } GateKind;

/* Number of gate errors of one kind when checking as (v, t); the
 * diagnostics stay in `keep` when it is given. */
static unsigned gate_errors(Module *m, const CheckOptions *opt, PtxVersion v, const TargetInfo *t,
			    GateKind kind, DiagSink *keep)
{
	DiagSink scratch;
	DiagSink *s = keep;
	if (!s) {
		diag_init(&scratch, "", NULL, 0);
		s = &scratch;
	}
	check_module_as(m, s, opt, v, t);
	unsigned n = 0;
	for (const Diag *d = s->head; d; d = d->next)
		if (d->sev == SEV_ERROR &&
		    (kind == GATE_VERSION ? rule_is_version_gate(d->id) : rule_is_target_gate(d->id)))
			n++;
	if (!keep)
		diag_fini(&scratch);
	return n;
}

/* Plain targets are ordered by sm and gates say "sm_N or higher", so a
 * binary search finds the first that passes. Family targets (sm_90a,
 * sm_100f) are not monotone (wgmma passes on sm_90a, not on sm_100a) and are
 * scanned in order; they are chosen only when no plain target will do. */
static const TargetInfo *first_passing_target(Module *m, const CheckOptions *opt, PtxVersion newest,
					      char family, const TargetInfo **below)
{
	size_t n;
	const TargetInfo *all = ptx_targets(&n);
	const TargetInfo *cand[128];
	size_t k = 0;
	for (size_t i = 0; i < n && k < 128; i++)
		if (all[i].family == family)
			cand[k++] = &all[i];
	/* sort by sm (the table lists sm_88 after sm_87, but both by number) */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && cand[j - 1]->sm > cand[j]->sm; j--) {
			const TargetInfo *x = cand[j];
			cand[j] = cand[j - 1];
			cand[j - 1] = x;
		}
	size_t lo = 0;
	if (family == 0) {
		size_t hi = k;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (gate_errors(m, opt, newest, cand[mid], GATE_TARGET, NULL) == 0)
				hi = mid;
			else
				lo = mid + 1;
		}
	} else {
		while (lo < k && gate_errors(m, opt, newest, cand[lo], GATE_TARGET, NULL) != 0)
			lo++;
	}
	if (lo == k)
		return NULL;
	*below = lo > 0 ? cand[lo - 1] : NULL;
	return cand[lo];
}

/* Version gates are monotone in the version, so a binary search over the
 * legal versions finds the first one that passes. */
PtxVersion req_min_version_for(Module *m, const CheckOptions *opt, const TargetInfo *t)
{
	size_t nv;
	const PtxVersion *vers = ptx_versions(&nv);
	size_t lo = 0, hi = nv;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (gate_errors(m, opt, vers[mid], t, GATE_VERSION, NULL) == 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo == nv ? 0 : vers[lo];
}

void req_report_compute(Module *m, const char *filename, const char *src, size_t len,
			const CheckOptions *opt, ReqReport *r)
{
	memset(r, 0, sizeof *r);
	diag_init(&r->version_reasons, filename, src, len);
	diag_init(&r->target_reasons, filename, src, len);
	if (!find_item(m, IT_VERSION) || !find_item(m, IT_TARGET)) {
		r->why = "the module has no .version or .target line";
		return;
	}
	PtxVersion newest = ptx_version_newest();
	const TargetInfo *below = NULL, *t = NULL;
	static const char families[] = { 0, 'a', 'f', 'b' };
	for (size_t i = 0; i < sizeof families && !t; i++)
		t = first_passing_target(m, opt, newest, families[i], &below);
	if (!t) {
		r->why = "no target satisfies the module's target requirements";
		return;
	}
	r->min_target = t;
	if (below)
		gate_errors(m, opt, newest, below, GATE_TARGET, &r->target_reasons);

	r->min_version = req_min_version_for(m, opt, t);
	if (!r->min_version) {
		r->why = "no PTX ISA version satisfies the module's version requirements";
		return;
	}
	size_t nv;
	const PtxVersion *vers = ptx_versions(&nv);
	for (size_t i = 1; i < nv; i++)
		if (vers[i] == r->min_version)
			gate_errors(m, opt, vers[i - 1], t, GATE_VERSION, &r->version_reasons);
	r->ok = true;
}

void req_report_fini(ReqReport *r)
{
	diag_fini(&r->version_reasons);
	diag_fini(&r->target_reasons);
}

/* Gate messages end in "(checked as .version X)" naming the probe one step
 * below; the report states the requirement, so that part is dropped. */
static int message_len(const char *msg)
{
	const char *p = strstr(msg, " (checked as");
	return p ? (int)(p - msg) : (int)strlen(msg);
}

static void print_reasons(DiagSink *s, const char *what, bool (*is_gate)(RuleId), FILE *out)
{
	size_t n;
	Diag **v = diag_sorted(s, &n);
	for (size_t i = 0; i < n; i++)
		if (v[i]->sev == SEV_ERROR && is_gate(v[i]->id))
			fprintf(out, "%s:%d:%d: %s: %.*s [%s]\n", s->filename, v[i]->loc.first_line,
				v[i]->loc.first_column, what, message_len(v[i]->msg), v[i]->msg, v[i]->rule);
}

void req_report_print_text(const ReqReport *r, FILE *out)
{
	char buf[8];
	if (!r->ok) {
		fprintf(out, "%s: cannot compute requirements: %s\n", r->version_reasons.filename, r->why);
		return;
	}
	fprintf(out, ".version %s\n.target %s\n", ptx_version_str(r->min_version, buf, sizeof buf),
		r->min_target->name);
	print_reasons((DiagSink *)&r->version_reasons, "needs .version", rule_is_version_gate, out);
	print_reasons((DiagSink *)&r->target_reasons, "needs .target", rule_is_target_gate, out);
}

static void json_reasons(DiagSink *s, bool (*is_gate)(RuleId), FILE *out)
{
	size_t n, k = 0;
	Diag **v = diag_sorted(s, &n);
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		if (v[i]->sev != SEV_ERROR || !is_gate(v[i]->id))
			continue;
		fprintf(out, "%s\n    { \"line\": %d, \"column\": %d, \"rule\": ", k++ ? "," : "",
			v[i]->loc.first_line, v[i]->loc.first_column);
		json_string(out, v[i]->rule);
		fputs(", \"message\": ", out);
		char msg[1024];
		snprintf(msg, sizeof msg, "%.*s", message_len(v[i]->msg), v[i]->msg);
		json_string(out, msg);
		fputs(" }", out);
	}
	fputs(k ? "\n  ]" : "]", out);
}

void req_report_print_json(const ReqReport *r, const char *filename, FILE *out)
{
	char buf[8];
	fputs("{\n  \"file\": ", out);
	json_string(out, filename);
	if (!r->ok) {
		fputs(",\n  \"error\": ", out);
		json_string(out, r->why);
		fputs("\n}\n", out);
		return;
	}
	fprintf(out, ",\n  \"version\": \"%s\",\n  \"target\": \"%s\",\n  \"version_reasons\": ",
		ptx_version_str(r->min_version, buf, sizeof buf), r->min_target->name);
	json_reasons((DiagSink *)&r->version_reasons, rule_is_version_gate, out);
	fputs(",\n  \"target_reasons\": ", out);
	json_reasons((DiagSink *)&r->target_reasons, rule_is_target_gate, out);
	fputs("\n}\n", out);
}
