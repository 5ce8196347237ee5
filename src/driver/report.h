/* Rendering the diagnostic sinks of one run: GCC-style text on stderr, or
 * one JSON / SARIF 2.1.0 document for all input files. */
#ifndef PTXSURF_REPORT_H
#define PTXSURF_REPORT_H

#include "base/diag.h"

#include <stdbool.h>
#include <stdio.h>

typedef enum ReportFormat { REPORT_TEXT, REPORT_JSON, REPORT_SARIF } ReportFormat;

typedef struct Report {
	ReportFormat format;
	FILE *out;          /* text: stderr; json/sarif: the document */
	bool color;
	unsigned nfiles;
	unsigned nresults;
} Report;

void report_begin(Report *r, ReportFormat format, FILE *out, bool color);
void report_file(Report *r, DiagSink *sink);
void report_end(Report *r);

#endif
