/* The installed library, as a program that links it through pkg-config
 * sees it: only include/ptxsurf.h. Prints "libapi: N passed, N failed". */
#include <ptxsurf.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define EXPECT(cond, ...)                                               \
	do {                                                            \
		if (cond) {                                             \
			passed++;                                       \
		} else {                                                \
			failed++;                                       \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                            \
			putchar('\n');                                  \
		}                                                       \
	} while (0)

static const char clean_kernel[] =
	".version 6.0\n.target sm_50\n.address_size 64\n"
	".visible .entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<3>;\n\t.reg .b32 %r<3>;\n"
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";

/* .f16x2 needs sm_53: a target-gate error with a note at the .target */
static const char f16x2_kernel[] =
	".version 4.2\n.target sm_52\n.address_size 64\n"
	".entry k()\n{\n\t.reg .f16x2 %x<2>;\n\tret;\n}\n";

static const char syntax_error[] = ".version 6.0\n.target sm_50\n.entry k( {\n";

static const ptxsurf_diagnostic *first_with_rule(const ptxsurf_result *r, const char *rule)
{
	for (size_t i = 0; i < ptxsurf_result_diagnostic_count(r); i++) {
		const ptxsurf_diagnostic *d = ptxsurf_result_diagnostic(r, i);
		if (strcmp(ptxsurf_diagnostic_rule(d), rule) == 0)
			return d;
	}
	return NULL;
}

static void test_version(void)
{
	int major = -1, minor = -1, patch = -1;
	const char *v = ptxsurf_version(&major, &minor, &patch);
	char want[32];
	snprintf(want, sizeof want, "%d.%d.%d", PTXSURF_VERSION_MAJOR, PTXSURF_VERSION_MINOR, PTXSURF_VERSION_PATCH);
	EXPECT(strcmp(v, want) == 0, "runtime %s, header %s", v, want);
	EXPECT(major == PTXSURF_VERSION_MAJOR && minor == PTXSURF_VERSION_MINOR && patch == PTXSURF_VERSION_PATCH,
	       "%d.%d.%d", major, minor, patch);
	EXPECT(ptxsurf_version(NULL, NULL, NULL) == v, "same string");
}

static void test_options(ptxsurf_context *ctx)
{
	EXPECT(ptxsurf_set_rules(ctx, (ptxsurf_rules)7) == PTXSURF_ERROR_INVALID, "bad rules mode");
	EXPECT(strstr(ptxsurf_context_error(ctx), "rules mode"), "message: %s", ptxsurf_context_error(ctx));
	EXPECT(ptxsurf_set_ptx_version(ctx, "12.9") == PTXSURF_ERROR_INVALID, "bad version");
	EXPECT(ptxsurf_set_ptx_version(ctx, "7.x") == PTXSURF_ERROR_INVALID, "bad version");
	EXPECT(ptxsurf_set_target(ctx, "sm_49x") == PTXSURF_ERROR_INVALID, "bad target");
	EXPECT(ptxsurf_set_cuda_release(ctx, "3.7") == PTXSURF_ERROR_INVALID, "bad release");
	EXPECT(ptxsurf_set_rule_enabled(ctx, "no-such-rule", 0) == PTXSURF_ERROR_INVALID, "bad rule");
	EXPECT(ptxsurf_set_warning_as_error(ctx, "no-such-rule") == PTXSURF_ERROR_INVALID, "bad rule");
	EXPECT(ptxsurf_set_rules(ctx, PTXSURF_RULES_PTXAS) == PTXSURF_OK, "ptxas mode");
	EXPECT(ptxsurf_context_error(ctx)[0] == 0, "error cleared: %s", ptxsurf_context_error(ctx));
	EXPECT(ptxsurf_set_rules(ctx, PTXSURF_RULES_STRICT) == PTXSURF_OK, "strict mode");
	ptxsurf_result *r = NULL;
	EXPECT(ptxsurf_check(ctx, "x.ptx", NULL, 5, &r) == PTXSURF_ERROR_INVALID && !r, "NULL text");
	EXPECT(ptxsurf_check(ctx, "x.ptx", "", 0, NULL) == PTXSURF_ERROR_INVALID, "NULL result");
}

static void test_clean(ptxsurf_context *ctx)
{
	ptxsurf_result *r = NULL;
	EXPECT(ptxsurf_check(ctx, "clean.ptx", clean_kernel, strlen(clean_kernel), &r) == PTXSURF_OK, "check");
	EXPECT(r && ptxsurf_result_error_count(r) == 0, "errors %u", ptxsurf_result_error_count(r));
	EXPECT(ptxsurf_result_diagnostic_count(r) == 0, "diagnostics %zu", ptxsurf_result_diagnostic_count(r));
	size_t n = 1;
	EXPECT(ptxsurf_result_image(r, &n) == NULL && n == 0, "a check assembles nothing");
	char *text = ptxsurf_result_text(r, 0);
	EXPECT(text && text[0] == 0, "no text: %s", text ? text : "(null)");
	ptxsurf_free(text);
	ptxsurf_result_free(r);
}

static void test_diagnostics(ptxsurf_context *ctx)
{
	ptxsurf_result *r = NULL;
	/* not NUL-terminated: the library must stop at len */
	size_t len = strlen(f16x2_kernel);
	char *copy = malloc(len);
	memcpy(copy, f16x2_kernel, len);
	EXPECT(ptxsurf_check(ctx, "f16.ptx", copy, len, &r) == PTXSURF_OK, "check");
	free(copy);
	EXPECT(ptxsurf_result_error_count(r) == 1, "errors %u", ptxsurf_result_error_count(r));
	const ptxsurf_diagnostic *d = first_with_rule(r, "target-gate");
	EXPECT(d != NULL, "a target-gate diagnostic");
	if (d) {
		ptxsurf_range g = ptxsurf_diagnostic_range(d);
		EXPECT(ptxsurf_diagnostic_severity(d) == PTXSURF_SEVERITY_ERROR, "severity");
		EXPECT(g.first_line == 6 && g.first_column == 7 && g.last_line == 6 && g.last_column == 13,
		       "range %d:%d-%d:%d", g.first_line, g.first_column, g.last_line, g.last_column);
		EXPECT(strstr(ptxsurf_diagnostic_message(d), "requires .target sm_53"), "message %s",
		       ptxsurf_diagnostic_message(d));
		EXPECT(ptxsurf_diagnostic_note_count(d) == 1, "notes %zu", ptxsurf_diagnostic_note_count(d));
		const ptxsurf_diagnostic *note = ptxsurf_diagnostic_note(d, 0);
		EXPECT(note && ptxsurf_diagnostic_severity(note) == PTXSURF_SEVERITY_NOTE, "note severity");
		EXPECT(note && ptxsurf_diagnostic_range(note).first_line == 2, "note line");
		EXPECT(note && strstr(ptxsurf_diagnostic_message(note), "sm_52"), "note text");
		EXPECT(ptxsurf_diagnostic_note(d, 1) == NULL, "one note only");
	}
	EXPECT(ptxsurf_result_diagnostic(r, 99) == NULL, "index past the end");
	char *text = ptxsurf_result_text(r, 0);
	EXPECT(text && strstr(text, "f16.ptx:6:7: error: ") && strstr(text, "[target-gate]") &&
	       strstr(text, "note: .target sm_52 declared here"), "text: %s", text ? text : "(null)");
	ptxsurf_free(text);
	ptxsurf_result_free(r);

	EXPECT(ptxsurf_check(ctx, "syntax.ptx", syntax_error, strlen(syntax_error), &r) == PTXSURF_OK, "check");
	EXPECT(first_with_rule(r, "syntax") != NULL, "a syntax error");
	ptxsurf_result_free(r);
}

static void test_overrides(void)
{
	ptxsurf_context *ctx = ptxsurf_context_create();
	ptxsurf_result *r = NULL;
	/* checked as sm_53 the .f16x2 register is fine */
	EXPECT(ptxsurf_set_target(ctx, "sm_53") == PTXSURF_OK, "target");
	EXPECT(ptxsurf_check(ctx, "f16.ptx", f16x2_kernel, strlen(f16x2_kernel), &r) == PTXSURF_OK, "check");
	EXPECT(ptxsurf_result_error_count(r) == 0, "as sm_53: %u errors", ptxsurf_result_error_count(r));
	ptxsurf_result_free(r);
	/* CUDA 9.0 knows PTX ISA up to 6.0; the clean kernel is 6.0, so checked as 7.0 it fails */
	EXPECT(ptxsurf_set_target(ctx, NULL) == PTXSURF_OK, "own target");
	EXPECT(ptxsurf_set_ptx_version(ctx, "7.0") == PTXSURF_OK, "version");
	EXPECT(ptxsurf_set_cuda_release(ctx, "9.0") == PTXSURF_OK, "release");
	EXPECT(ptxsurf_check(ctx, "c.ptx", clean_kernel, strlen(clean_kernel), &r) == PTXSURF_OK, "check");
	EXPECT(first_with_rule(r, "cuda-version") != NULL, "cuda-version error");
	ptxsurf_result_free(r);
	/* -Wno-target-gate: gone; -Werror keeps it an error */
	ptxsurf_set_ptx_version(ctx, NULL);
	ptxsurf_set_cuda_release(ctx, NULL);
	EXPECT(ptxsurf_set_rule_enabled(ctx, "target-gate", 0) == PTXSURF_OK, "disable");
	EXPECT(ptxsurf_check(ctx, "f16.ptx", f16x2_kernel, strlen(f16x2_kernel), &r) == PTXSURF_OK, "check");
	EXPECT(ptxsurf_result_error_count(r) == 0, "disabled rule: %u errors", ptxsurf_result_error_count(r));
	ptxsurf_result_free(r);
	EXPECT(ptxsurf_set_rule_enabled(ctx, "target-gate", 1) == PTXSURF_OK, "enable");
	EXPECT(ptxsurf_check(ctx, "f16.ptx", f16x2_kernel, strlen(f16x2_kernel), &r) == PTXSURF_OK, "check");
	EXPECT(ptxsurf_result_error_count(r) == 1, "enabled again: %u errors", ptxsurf_result_error_count(r));
	ptxsurf_result_free(r);
	/* --max-errors */
	char many[4096] = ".version 6.0\n.target sm_50\n.address_size 64\n.entry k()\n{\n";
	for (int i = 0; i < 5; i++)
		strcat(many, "\tbogus.op %r1;\n");
	strcat(many, "\tret;\n}\n");
	ptxsurf_set_max_errors(ctx, 2);
	EXPECT(ptxsurf_check(ctx, "many.ptx", many, strlen(many), &r) == PTXSURF_OK, "check");
	EXPECT(ptxsurf_result_truncated(r) && ptxsurf_result_diagnostic_count(r) <= 2 &&
	       ptxsurf_result_error_count(r) >= 5, "kept %zu of %u", ptxsurf_result_diagnostic_count(r),
	       ptxsurf_result_error_count(r));
	ptxsurf_result_free(r);
	ptxsurf_context_destroy(ctx);
}

static void test_requirements(ptxsurf_context *ctx)
{
	ptxsurf_requirements *q = NULL;
	ptxsurf_result *diags = NULL;
	EXPECT(ptxsurf_requirements_compute(ctx, "f16.ptx", f16x2_kernel, strlen(f16x2_kernel), &q, &diags) ==
	       PTXSURF_OK, "requirements: %s", ptxsurf_context_error(ctx));
	EXPECT(!diags, "no parse diagnostics");
	EXPECT(ptxsurf_requirements_ok(q), "ok: %s", ptxsurf_requirements_why(q));
	const char *v = ptxsurf_requirements_min_version(q), *t = ptxsurf_requirements_min_target(q);
	EXPECT(t && strcmp(t, "sm_53") == 0, "min target %s", t ? t : "(null)");
	EXPECT(v && strcmp(v, "4.2") == 0, "min version %s", v ? v : "(null)");
	const ptxsurf_result *why = ptxsurf_requirements_target_reasons(q);
	EXPECT(first_with_rule(why, "target-gate") != NULL, "the forcing line");
	EXPECT(why && ptxsurf_result_diagnostic_count(why) >= 1 &&
	       ptxsurf_diagnostic_range(ptxsurf_result_diagnostic(why, 0)).first_line == 6, "line 6");
	ptxsurf_requirements_free(q);
	q = NULL;
	EXPECT(ptxsurf_requirements_compute(ctx, "s.ptx", syntax_error, strlen(syntax_error), &q, &diags) ==
	       PTXSURF_ERROR_INPUT && !q, "a module that does not parse");
	EXPECT(diags && first_with_rule(diags, "syntax"), "its syntax error");
	ptxsurf_result_free(diags);
}

static void test_fix(ptxsurf_context *ctx)
{
	static const char src[] = "// header comment\r\n.version 8.5 // too new\r\n.target sm_50\r\n"
				  ".address_size 64\r\n.entry k()\r\n{\r\n\tret;\r\n}";
	char *fixed = NULL;
	size_t n = 0;
	ptxsurf_result *diags = NULL;
	EXPECT(ptxsurf_fix_version(ctx, "fix.ptx", src, strlen(src), 0, &fixed, &n, &diags) == PTXSURF_OK,
	       "fix: %s", ptxsurf_context_error(ctx));
	/* sm_50 needs .version 4.0; every other byte stays, CRLFs and the missing final newline too */
	const char *want = "// header comment\r\n.version 4.0 // too new\r\n.target sm_50\r\n";
	EXPECT(fixed && strncmp(fixed, want, strlen(want)) == 0 && n == strlen(src) &&
	       strcmp(fixed + n - 3, "\r\n}") == 0, "fixed: %s", fixed ? fixed : "(null)");
	ptxsurf_free(fixed);
	ptxsurf_result_free(diags);
	EXPECT(ptxsurf_fix_version(ctx, "fix.ptx", src, strlen(src), 1, &fixed, &n, NULL) == PTXSURF_OK, "fix target");
	/* nothing needs more than sm_10, which .address_size 64 needs .version 2.3 with */
	EXPECT(fixed && strstr(fixed, ".version 2.3 //") && strstr(fixed, ".target sm_10\r\n"), "fixed: %s", fixed ? fixed : "(null)");
	ptxsurf_free(fixed);
	static const char headless[] = ".entry k()\n{\n\tret;\n}\n";
	EXPECT(ptxsurf_fix_version(ctx, "h.ptx", headless, strlen(headless), 0, &fixed, &n, &diags) ==
	       PTXSURF_ERROR_INPUT && !fixed, "no header to fix");
	EXPECT(first_with_rule(diags, "module-header") != NULL, "module-header");
	ptxsurf_result_free(diags);
}

static void test_assemble(ptxsurf_context *ctx)
{
	ptxsurf_result *r = NULL;
	EXPECT(ptxsurf_assemble(ctx, "k.ptx", clean_kernel, strlen(clean_kernel), PTXSURF_FORMAT_CUBIN, 1, &r) ==
	       PTXSURF_OK, "assemble");
	size_t n = 0;
	const uint8_t *img = ptxsurf_result_image(r, &n);
	EXPECT(img && n > 64 && memcmp(img, "\177ELF", 4) == 0, "a cubin of %zu bytes", n);
	const char *listing = ptxsurf_result_listing(r);
	EXPECT(listing && strstr(listing, "Function : k") && strstr(listing, "EXIT"), "listing %s",
	       listing ? listing : "(null)");
	ptxsurf_result_free(r);

	EXPECT(ptxsurf_assemble(ctx, "k.ptx", clean_kernel, strlen(clean_kernel), PTXSURF_FORMAT_RAW, 0, &r) ==
	       PTXSURF_OK, "raw");
	img = ptxsurf_result_image(r, &n);
	EXPECT(img && n % 32 == 0 && n > 0 && !ptxsurf_result_listing(r), "raw code of %zu bytes", n);
	char *text = NULL;
	size_t tn = 0;
	EXPECT(ptxsurf_disassemble(ctx, img, n, &text, &tn) == PTXSURF_OK, "disassemble: %s",
	       ptxsurf_context_error(ctx));
	EXPECT(text && tn == strlen(text) && strstr(text, "EXIT") && strstr(text, "S2R"), "text %s",
	       text ? text : "(null)");
	ptxsurf_free(text);
	ptxsurf_result_free(r);

	static const uint8_t junk[] = { 1, 2, 3 };
	EXPECT(ptxsurf_disassemble(ctx, junk, sizeof junk, &text, &tn) == PTXSURF_ERROR_INPUT && !text,
	       "three bytes are no code");
	EXPECT(ptxsurf_context_error(ctx)[0] != 0, "and it says why");
	EXPECT(ptxsurf_assemble(ctx, "f.ptx", f16x2_kernel, strlen(f16x2_kernel), PTXSURF_FORMAT_CUBIN, 1, &r) ==
	       PTXSURF_OK, "assemble a bad module");
	EXPECT(ptxsurf_result_error_count(r) == 1 && !ptxsurf_result_image(r, &n) && n == 0 &&
	       !ptxsurf_result_listing(r), "no code from a module with errors");
	ptxsurf_result_free(r);
	EXPECT(ptxsurf_assemble(ctx, "k.ptx", clean_kernel, strlen(clean_kernel), (ptxsurf_format)9, 0, &r) ==
	       PTXSURF_ERROR_INVALID, "bad format");
}

static void test_file(ptxsurf_context *ctx, const char *path)
{
	ptxsurf_result *r = NULL;
	EXPECT(ptxsurf_check_file(ctx, "/nonexistent/dir/k.ptx", &r) == PTXSURF_ERROR_IO && !r, "missing file");
	EXPECT(strstr(ptxsurf_context_error(ctx), "/nonexistent/dir/k.ptx"), "names it: %s",
	       ptxsurf_context_error(ctx));
	FILE *f = fopen(path, "w");
	fputs(f16x2_kernel, f);
	fclose(f);
	EXPECT(ptxsurf_check_file(ctx, path, &r) == PTXSURF_OK, "file");
	EXPECT(ptxsurf_result_error_count(r) == 1, "errors %u", ptxsurf_result_error_count(r));
	char *text = ptxsurf_result_text(r, 0);
	EXPECT(text && strncmp(text, path, strlen(path)) == 0, "file name in %s", text ? text : "(null)");
	ptxsurf_free(text);
	ptxsurf_result_free(r);
	remove(path);
}

/* Two threads, a context each, the same work: the answers must be those
 * of one thread alone. */
typedef struct Worker {
	unsigned errors, images, rounds;
	size_t image_len;
	int bad;
} Worker;

static void *work(void *arg)
{
	Worker *w = arg;
	ptxsurf_context *ctx = ptxsurf_context_create();
	if (!ctx) {
		w->bad++;
		return NULL;
	}
	ptxsurf_set_rules(ctx, PTXSURF_RULES_PTXAS);
	for (unsigned i = 0; i < w->rounds; i++) {
		ptxsurf_result *r = NULL;
		if (ptxsurf_check(ctx, "f16.ptx", f16x2_kernel, strlen(f16x2_kernel), &r) != PTXSURF_OK) {
			w->bad++;
			continue;
		}
		w->errors += ptxsurf_result_error_count(r);
		ptxsurf_result_free(r);
		if (ptxsurf_assemble(ctx, "k.ptx", clean_kernel, strlen(clean_kernel), PTXSURF_FORMAT_CUBIN, 1, &r) !=
		    PTXSURF_OK) {
			w->bad++;
			continue;
		}
		size_t n;
		if (ptxsurf_result_image(r, &n)) {
			w->images++;
			if (w->image_len && w->image_len != n)
				w->bad++;
			w->image_len = n;
		}
		ptxsurf_result_free(r);
	}
	ptxsurf_context_destroy(ctx);
	return NULL;
}

static void test_threads(void)
{
	enum { ROUNDS = 40 };
	Worker w[2] = { { .rounds = ROUNDS }, { .rounds = ROUNDS } };
	pthread_t t[2];
	int started = 0;
	for (int i = 0; i < 2; i++)
		started += pthread_create(&t[i], NULL, work, &w[i]) == 0;
	EXPECT(started == 2, "two threads");
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 2; i++) {
		EXPECT(w[i].bad == 0, "thread %d: %d bad calls", i, w[i].bad);
		EXPECT(w[i].errors == ROUNDS && w[i].images == ROUNDS, "thread %d: %u errors, %u images", i,
		       w[i].errors, w[i].images);
	}
	EXPECT(w[0].image_len == w[1].image_len, "the same cubin size");
}

int main(int argc, char **argv)
{
	test_version();
	ptxsurf_context *ctx = ptxsurf_context_create();
	EXPECT(ctx != NULL, "context");
	if (!ctx)
		return 1;
	/* the threads first: every table is still unbuilt */
	test_threads();
	test_options(ctx);
	test_clean(ctx);
	test_diagnostics(ctx);
	test_overrides();
	test_requirements(ctx);
	test_fix(ctx);
	test_assemble(ctx);
	test_file(ctx, argc > 1 ? argv[1] : "libapi-test.ptx");
	ptxsurf_context_destroy(ctx);
	printf("libapi: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
