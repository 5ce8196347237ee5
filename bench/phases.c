/* phases FILE: CPU seconds of ptxsurf-as's front end taken apart, for the
 * "where the time goes" table of bench/run.sh. Prints
 * "LEX_SECONDS PARSE_SECONDS TOKENS":
 *   lex:   the scanner alone (lexer/ptx.l with interning, number values and
 *          locations), every token read and dropped;
 *   parse: the scanner and the parser building each top-level item's AST
 *          (ptx_parse_stream, the LAC-free parser --check starts with), with
 *          no checking.
 * Built by bench/run.sh against the project's library. */
#include "base/diag.h"
#include "base/input.h"
#include "front/parse.h"
#include "ptx.tab.h"
#define YYSTYPE PTX_STYPE
#define YYLTYPE SrcLoc
#include "ptx.lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ptx_lex(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner);
void ptx_lex_keywords(ParseState *ps);

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void drop_item(void *ctx, const Item *it)
{
	(void)ctx;
	(void)it;
}

static double time_lex(const InputFile *in, char *buf, long *tokens)
{
	memcpy(buf, in->data, in->len + 2);
	Module m;
	module_init(&m, in->name);
	DiagSink d;
	diag_init(&d, in->name, in->data, in->len);
	ParseState ps = { .mod = &m, .diag = &d, .arena = &m.arena };
	intern_init(&ps.names, &m.arena);
	ptx_lex_keywords(&ps);
	double t0 = cpu_now();
	yyscan_t scanner;
	if (ptx_lex_init_extra(&ps, &scanner) != 0) {
		fprintf(stderr, "phases: cannot initialise the scanner\n");
		exit(2);
	}
	ptx__scan_buffer(buf, in->len + 2, scanner);
	YYSTYPE value;
	SrcLoc loc = { 1, 1, 1, 1 };
	*tokens = 0;
	while (ptx_lex(&value, &loc, scanner))
		++*tokens;
	ptx_lex_destroy(scanner);
	double t = cpu_now() - t0;
	intern_fini(&ps.names);
	diag_fini(&d);
	module_fini(&m);
	return t;
}

static double time_parse(const InputFile *in, char *buf)
{
	memcpy(buf, in->data, in->len + 2);
	Module m;
	module_init(&m, in->name);
	DiagSink d;
	diag_init(&d, in->name, in->data, in->len);
	double t0 = cpu_now();
	int rc = ptx_parse_stream(&m, &d, buf, in->len, drop_item, NULL, true);
	double t = cpu_now() - t0;
	if (rc != 0) {
		fprintf(stderr, "phases: %s does not parse cleanly\n", in->name);
		exit(1);
	}
	diag_fini(&d);
	module_fini(&m);
	return t;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: phases FILE.ptx\n");
		return 2;
	}
	InputFile in;
	char err[512];
	if (input_read(&in, argv[1], err, sizeof err) != 0) {
		fprintf(stderr, "phases: %s\n", err);
		return 2;
	}
	char *buf = malloc(in.len + 2);
	if (!buf)
		return 2;
	long tokens;
	double lex = time_lex(&in, buf, &tokens);
	double parse = time_parse(&in, buf);
	printf("%.3f %.3f %ld\n", lex, parse, tokens);
	free(buf);
	input_free(&in);
	return 0;
}
