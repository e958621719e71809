// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the saved-result loader (user/results/load.c over json-c): any input
 * must either load - with every routine's arrays consistent - or fail with
 * a message naming the file and then a line:column (a syntax error) or a
 * key path (a schema error); never crash, hang, leak or
 * read out of bounds (built with AddressSanitizer).  tests/fuzz/resfile.sh
 * builds it with clang (with every user/ and user/lib/ file but
 * kbenchctl.c, which holds main()) and runs it for a fixed number of
 * inputs from a seed corpus of real result files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "resfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb_resfile rf;
	char err[768];
	size_t i, k;

	if (kb_resfile_parse((const char *)data, size, "fuzz.json", &rf, err,
			     sizeof(err))) {
		/* every error names the file, then where: "fuzz.json:L:C: ..."
		 * or "fuzz.json: PATH: ..." */
		if (strncmp(err, "fuzz.json:", 10) || strlen(err) < 13)
			abort();
		return 0;
	}
	for (i = 0; i < rf.nruns; i++)
		for (k = 0; k < rf.runs[i].run.nres; k++) {
			const struct kb_result *r = &rf.runs[i].run.res[k];

			if (r->n && (!r->net || !r->sflags))
				abort();
			/* touch every sample: ASan checks the bounds */
			if (r->n && r->net[r->n - 1] == 0x5a5a5a5a5a5a5a5aLL &&
			    r->sflags[r->n - 1] == 0x5a5a5a5aU)
				fputs("", stderr);
		}
	kb_resfile_free(&rf);
	return 0;
}
