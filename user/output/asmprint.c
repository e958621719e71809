// SPDX-License-Identifier: GPL-2.0
/*
 * --asm in a run's report: the snippets, their copies an iteration, and
 * the loop's own cost, measured in the same run (the overhead routine
 * runs the very loop: asm/asm.h).
 */
#include <string.h>

#include "asmprint.h"
#include "output.h"
#include "result.h"
#include "asm.h"

void kb_asm_print(const struct kb_run *r)
{
	const char *code, *c;
	double loop;
	size_t n;
	unsigned int i;

	if (!r->unroll)
		return;
	out_open_object("asm");
	out_uint("unroll", "snippets: %llu copies in each iteration of the loop",
		 r->unroll);
	out_text("; the figures are per copy (per iteration / %u)\n",
		 r->unroll);
	out_open_array("snippets");
	for (i = 0; i < r->nres; i++) {
		code = kb_asm_code(r->res[i].routine);
		if (!code)
			code = "";
		out_open_object(NULL);
		out_string("routine", "  %s:", r->res[i].routine);
		out_string("code", NULL, code);
		/* in the text, a snippet's lines on one line, as ';' does */
		for (c = code; !out_json() && *c; c += n) {
			n = strcspn(c, "\n");
			out_text("%s%.*s", c == code ? " " : "; ", (int)n, c);
			if (c[n])
				n++;
		}
		out_text("\n");
		out_close_object();
	}
	out_close_array();
	if (r->has_overhead && r->overhead.have_stats && r->overhead.st.count) {
		loop = r->overhead.st.median;
		out_double("loop_per_iter", "  the loop alone (the empty routine's 2 instructions, measured in this run): %.3f",
			   loop);
		out_text(" %s an iteration", kb_run_unit(r));
		out_double("loop_per_copy", ", %.3f per copy",
			   loop / r->unroll);
		out_text(" (in the figures; corrected subtracts it)\n");
	}
	out_close_object();
}
