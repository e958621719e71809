// SPDX-License-Identifier: GPL-2.0
/*
 * A run measured in the kernel (nl/runreq.c) or by the userspace twins
 * (model/twin.c): what run, compare and sweeps call (measure.h).
 */
#include <string.h>

#include "asm.h"
#include "base.h"
#include "core.h"
#include "measure.h"
#include "nl.h"
#include "opts.h"
#include "runopts.h"
#include "runreq.h"
#include "twin.h"

/*
 * Measure @q: in the kernel, or with @user the userspace twins (the same
 * defaults as the kernel's).  0 with @r filled, or -errno (printed): the
 * module missing or no such twin is -ENOENT.
 */
static int run_measure(const struct kb_run_req *q, bool user,
		       struct kb_run *r);

/*
 * --unit core: the calibration's chains measured with the routines, in
 * the same run (core.h), then taken out of it into r->core.
 */
int kb_run_measure(const struct kb_run_req *q, bool user, struct kb_run *r)
{
	struct kb_run_req cq;
	unsigned int slot[2];
	int err;

	if (!q->unit_core) {
		err = run_measure(q, user, r);
		r->unroll = err ? 0 : q->unroll;
		return err;
	}
	err = kb_core_request("--unit core", q, &cq, slot);
	if (!err)
		err = run_measure(&cq, user, r);
	if (err)
		return err;
	err = kb_core_extract(r, slot, q->n);
	if (err) {
		kb_run_free(r);
		return err;
	}
	r->unroll = q->unroll;
	/* a run's own argument: the user's, not the calibration's */
	r->has_arg = q->nargs == 1;
	r->arg = q->nargs == 1 ? q->args[0] : 0;
	return 0;
}

static int run_measure(const struct kb_run_req *q, bool user,
		       struct kb_run *r)
{
	struct kb_nl nl;
	int err;

	if (user) {
		struct kb_twin_req tq = {
			.n = q->n,
			.cpu = q->has_cpu ? (int)q->cpu : -1,
			.samples = q->has_samples ? q->samples : KB_RUN_DEFAULT_SAMPLES,
			.iterations = q->has_iterations ? q->iterations : 0,
			.target_ns = q->has_target_ns ? q->target_ns :
				     KB_RUN_DEFAULT_TARGET_NS,
			.warmup = q->has_warmup ? q->warmup : KB_RUN_DEFAULT_WARMUP,
			.nargs = q->nargs,
			.progress = q->progress,
		};

		memcpy(tq.names, q->names, sizeof(tq.names));
		memcpy(tq.args, q->args, sizeof(tq.args));
		memcpy(tq.events, q->events, sizeof(tq.events));
		tq.nevents = q->nevents;
		err = kb_twin_run(&tq, r);
		if (err) {
			kb_run_free(r);
			return err;
		}
		r->has_arg = q->nargs == 1;
		r->arg = q->nargs == 1 ? q->args[0] : 0;
		kb_run_stamp(r);
		kb_run_env(r);
		return 0;
	}
	err = kb_nl_open(&nl);
	if (err)
		return err;
	err = kb_run_kernel(&nl, q, r);
	kb_nl_close(&nl);
	if (err)
		kb_run_free(r);
	return err;
}

int kb_run_opts_main(const struct subcommand *sc, int argc, char *argv[],
		     char *orig[], kb_run_body *body)
{
	struct kb_run_opts o;
	int err, ret;

	err = kb_run_opts_parse(sc, argc, argv, &o);
	if (!err && o.asm_.n)
		err = kb_asm_prepare(sc->name, &o.asm_);
	if (err)
		return kb_exit_status(err);
	if (o.asm_.built_only) {
		/* for another kernel: built and kept, nothing to measure here */
		kb_asm_free(&o.asm_);
		return EXIT_OK;
	}
	ret = body(sc, &o, argc, argv, orig);
	err = kb_asm_kernel_faulted(&o.asm_);
	if (err > 0) {
		fprintf(stderr, "%s %s: --asm '%s' faulted in the kernel, caught by its exception table entry: the routine returned at the fault, so the figures time nothing of it\n",
			prog, sc->name, o.asm_.code[err - 1]);
		ret = EXIT_FAIL;
	}
	kb_asm_free(&o.asm_);
	return ret;
}
