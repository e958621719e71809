// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl baseline: what the kernel's own primitives cost here (the
 * routines prim_* of the companion module kbench_prims.ko), their
 * userspace counterparts (--user: the u_* twins), or both side by side
 * (--all), as one table by category (model/prims.c).  Each primitive is
 * a run of its own, so that N adapts to it; the figure per call is the
 * median per iteration minus the empty loop's (the run's corrected
 * median), with the median's 95% CI shifted alike, and the run's verdict.
 * A row the kernel lacks is shown as missing, with why and how to get it:
 * never left out of a table that looks whole.
 *
 * With --cpus LIST the rows that sharing contends (the locks, atomics and
 * refcounts: one lock or line shared by every CPU, kb_prim_contended())
 * are each one concurrent run on every CPU of LIST at once, the way run
 * --cpus does it; their figure is the CPUs' median of each CPU's
 * corrected median.  The other rows are measured as usual, alone on the
 * first CPU of LIST, and say so.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "measure.h"
#include "nl.h"
#include "opts.h"
#include "output.h"
#include "prims.h"
#include "report.h"
#include "resfile.h"
#include "result.h"
#include "runopts.h"
#include "stats.h"
#include "svg.h"
#include "twin.h"
#include "verdict.h"

/* the window a run aims at, unless --target-ns: room for slow primitives */
#define BL_DEFAULT_TARGET_NS	100000
#define BL_DESC_MAX		128
#define BL_STR_(x)		#x
#define BL_STR(x)		BL_STR_(x)

struct baseline_opts {
	bool user, all, verbose;
	const char *match;
	uint32_t samples, cpu, target_ns, skew_ns;
	bool has_samples, has_cpu, has_target_ns, has_skew_ns;
	const char *save, *svg;
	struct kb_cpus_sel cpus;	/* --cpus: the contended rows at once */
};

const struct kb_opt kb_baseline_table[] = {
	{ .name = "user", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct baseline_opts, user),
	  .help = "the userspace counterparts instead (libkbench; no module needed)" },
	{ .name = "all", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct baseline_opts, all),
	  .help = "the kernel's primitives and their userspace counterparts side by side" },
	{ .name = "match", .kind = KB_OPT_STRING, .metavar = "GLOB[,GLOB...]",
	  KB_OPT_FIELD(struct baseline_opts, match),
	  .help = "only the rows whose name, category or routine matches a glob" },
	{ .name = "samples", .kind = KB_OPT_U32, .metavar = "N",
	  .min = 1, .max = 1000000,
	  KB_OPT_FIELD(struct baseline_opts, samples),
	  KB_OPT_GIVEN(struct baseline_opts, has_samples),
	  .help = "samples per primitive", .def = BL_STR(KB_RUN_DEFAULT_SAMPLES) },
	{ .name = "cpu", .kind = KB_OPT_U32, .metavar = "N",
	  .parse = kb_opt_parse_cpu,
	  KB_OPT_FIELD(struct baseline_opts, cpu),
	  KB_OPT_GIVEN(struct baseline_opts, has_cpu),
	  .help = "CPU to run on",
	  .def = "the kernel's choice; with --user the current CPU" },
	{ .name = "cpus", .kind = KB_OPT_STRING, .metavar = "LIST|all",
	  .parse = kb_opt_parse_cpus,
	  KB_OPT_FIELD(struct baseline_opts, cpus),
	  .help = "the locking and atomics rows contended: each one run on all these CPUs at once (0,1 or 0-3), sharing one lock or line; the other rows alone on the first" },
	{ .name = "skew-ns", .kind = KB_OPT_U32, .metavar = "NS",
	  .min = 1, .max = 20000000,
	  KB_OPT_FIELD(struct baseline_opts, skew_ns),
	  KB_OPT_GIVEN(struct baseline_opts, has_skew_ns),
	  .help = "with --cpus: a sample whose windows started further apart than this is flagged skew on every CPU (as run --cpus)",
	  .def = "the module's target-ns / 8; --user: a tenth of the mean window" },
	{ .name = "target-ns", .kind = KB_OPT_U32, .metavar = "N",
	  .min = 100, .max = 20000000,
	  KB_OPT_FIELD(struct baseline_opts, target_ns),
	  KB_OPT_GIVEN(struct baseline_opts, has_target_ns),
	  .help = "the window each sample aims at, in ns",
	  .def = BL_STR(BL_DEFAULT_TARGET_NS) },
	{ .name = "save", .kind = KB_OPT_STRING, .metavar = "FILE|NAME",
	  KB_OPT_FIELD(struct baseline_opts, save),
	  .help = "also write every run with its samples (diff, history, export read it)" },
	{ .name = "svg", .kind = KB_OPT_STRING, .metavar = "FILE",
	  KB_OPT_FIELD(struct baseline_opts, svg),
	  .help = "also write a bar chart of the figures per call to FILE" },
	{ .name = "verbose", .short_name = 'v', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct baseline_opts, verbose),
	  .help = "under each row what one call does and which kernel configuration changes it" },
	{ NULL }
};

/* One side of a row: the kernel's routine or the userspace twin. */
/* A CPU of a contended side: its figures per call, in ticks. */
struct bl_cpu {
	bool valid;
	double per_call, ci_lo, ci_hi;
	struct kb_stability v;
};

struct bl_side {
	const char *routine;	/* NULL: the row has none on this side */
	const char *absent;	/* not measurable here: why, and how to get it */
	bool done, failed;
	/* measured at once on --cpus: cr, and pc[cr.nr] the CPUs' figures */
	bool contended;
	struct kb_cpus_run cr;
	struct bl_cpu *pc;
	char desc[BL_DESC_MAX];
	struct kb_run_req q;
	struct kb_run r;
	/* the figures per call: corrected median and its CI, in ticks */
	double per_call, ci_lo, ci_hi, ns;
	unsigned int calls;	/* of the primitive per iteration (0: one) */
	struct kb_stability v;
};

struct bl_row {
	const struct kb_prim *p;
	struct bl_side k, u;
};

/* The kernel's routines (ROUTINE_GET): names and descriptions. */
struct bl_registered {
	char (*name)[KBENCH_NAME_MAX + 1];
	char (*desc)[BL_DESC_MAX];
	size_t n, cap;
	size_t prims;		/* of them prim_* */
};

static int registered_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct bl_registered *g = arg;
	const char *name = kb_str(tb[KBENCH_A_ROUTINE_NAME], "");

	(void)nlh;
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 64;
		void *nn = realloc(g->name, cap * sizeof(*g->name));
		void *nd;

		if (!nn)
			return -ENOMEM;
		g->name = nn;
		nd = realloc(g->desc, cap * sizeof(*g->desc));
		if (!nd)
			return -ENOMEM;
		g->desc = nd;
		g->cap = cap;
	}
	snprintf(g->name[g->n], sizeof(g->name[0]), "%s", name);
	snprintf(g->desc[g->n], sizeof(g->desc[0]), "%s",
		 kb_str(tb[KBENCH_A_ROUTINE_DESC], ""));
	if (!strncmp(name, KB_PRIMS_PREFIX, strlen(KB_PRIMS_PREFIX)))
		g->prims++;
	g->n++;
	return 0;
}

static int registered_get(struct bl_registered *g)
{
	struct kb_nl nl;
	int err;

	g->n = g->prims = 0;
	err = kb_nl_open(&nl);
	if (err)
		return err;
	err = kb_nl_request(&nl, kb_nl_msg(&nl, KBENCH_CMD_ROUTINE_GET, true),
			    KBENCH_A_ROUTINE_MAX, registered_cb, g);
	kb_nl_close(&nl);
	return err;
}

static const char *registered_desc(const struct bl_registered *g,
				   const char *name)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (!strcmp(g->name[i], name))
			return g->desc[i];
	return NULL;
}

/* modprobe KB_PRIMS_MODULE, quietly: whether it exited 0. */
static bool prims_modprobe(void)
{
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return false;
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execlp("modprobe", "modprobe", "-q", KB_PRIMS_MODULE, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return false;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

/*
 * The kernel's primitives: loaded, or loaded now by modprobe.  0, or
 * -ENOENT after a message naming the module and how to load it.
 */
static int prims_registered(struct bl_registered *g)
{
	int err = registered_get(g);

	if (err)
		return err;
	if (!g->prims && prims_modprobe()) {
		err = registered_get(g);
		if (err)
			return err;
	}
	if (g->prims)
		return 0;
	fprintf(stderr, "%s baseline: the kernel's primitives are not loaded: no routine " KB_PRIMS_PREFIX "* is registered.  They are the companion module " KB_PRIMS_MODULE ".ko: 'modprobe " KB_PRIMS_MODULE "' (make install or DKMS installs it), or 'insmod kmod/" KB_PRIMS_MODULE ".ko' from a build (modprobe " KB_PRIMS_MODULE " failed here); 'kbenchctl baseline --user' needs no module\n",
		prog);
	return -ENOENT;
}

/* Each element of --match matches some row: 0, or -EINVAL printed. */
static int match_check(const char *pattern)
{
	char pat[128];
	const char *s, *e;
	size_t len, i;
	bool any;

	for (s = pattern; *s; s = *e ? e + 1 : e) {
		e = strchr(s, ',');
		if (!e)
			e = s + strlen(s);
		len = (size_t)(e - s);
		if (!len || len >= sizeof(pat))
			return kb_arg_error("baseline", "--match '%s': an empty or over-long element (a comma-separated list of globs)",
					    pattern);
		memcpy(pat, s, len);
		pat[len] = '\0';
		any = false;
		for (i = 0; i < kb_prims_n && !any; i++)
			any = kb_prim_match(&kb_prims[i], pat);
		if (!any) {
			const char *cat[32];
			size_t nc = kb_prim_categories(cat, 32), c;
			char cats[512] = "";
			size_t off = 0;

			for (c = 0; c < nc && off < sizeof(cats); c++)
				off += (size_t)snprintf(cats + off, sizeof(cats) - off,
							"%s%s", c ? ", " : "", cat[c]);
			return kb_arg_error("baseline", "--match '%s': no primitive is called '%s' or matches it (categories: %s; 'kbenchctl baseline --user -v' or 'kbenchctl list' shows the rows)",
					    pattern, pat, cats);
		}
	}
	return 0;
}

/* @r's figures per call (@calls an iteration): the corrected median, its CI */
static void run_figures(const struct kb_run *r, unsigned int calls,
			double *per_call, double *ci_lo, double *ci_hi)
{
	const struct kb_result *x = &r->res[0];
	double c = calls > 1 ? calls : 1;
	double shift;

	*per_call = (double)x->corr_median_milli / 1000.0;
	shift = x->st.median - *per_call;
	*ci_lo = (x->st.ci_lo - shift) / c;
	*ci_hi = (x->st.ci_hi - shift) / c;
	*per_call /= c;
}

static void side_figures(struct bl_side *s)
{
	run_figures(&s->r, s->calls, &s->per_call, &s->ci_lo, &s->ci_hi);
	s->ns = s->r.counter_hz ? s->per_call * 1e9 / (double)s->r.counter_hz :
				  NAN;
	kb_result_stability(&s->r, &s->r.res[0], &s->v);
}

/*
 * A contended side's figures: per call the CPUs' median of their
 * corrected medians (run --cpus's headline), the interval from the lowest
 * CPU's CI bound to the highest's, stable when every CPU's run is.
 */
static void cpus_figures(struct bl_side *s)
{
	struct kb_cpus_run *cr = &s->cr;
	double *v = calloc(cr->nr, sizeof(*v));
	unsigned int c, n = 0;

	s->ci_lo = INFINITY;
	s->ci_hi = -INFINITY;
	memset(&s->v, 0, sizeof(s->v));
	s->v.stable = true;
	for (c = 0; c < cr->nr; c++) {
		struct bl_cpu *p = &s->pc[c];
		const struct kb_run *r = &cr->run[c];

		p->valid = r->nres && r->res[0].valid;
		if (!p->valid) {
			s->v.stable = false;
			if (s->v.nreasons < 10) {
				snprintf(s->v.buf[s->v.nreasons], sizeof(s->v.buf[0]),
					 "CPU %u: no valid sample", r->cpu);
				s->v.nreasons++;
			}
			continue;
		}
		run_figures(r, s->calls, &p->per_call, &p->ci_lo, &p->ci_hi);
		kb_result_stability(r, &r->res[0], &p->v);
		if (v)
			v[n++] = p->per_call;
		s->ci_lo = fmin(s->ci_lo, p->ci_lo);
		s->ci_hi = fmax(s->ci_hi, p->ci_hi);
		if (!p->v.stable) {
			s->v.stable = false;
			if (s->v.nreasons < 10 && p->v.nreasons) {
				snprintf(s->v.buf[s->v.nreasons], sizeof(s->v.buf[0]),
					 "CPU %u: %s", r->cpu, p->v.reason[0]);
				s->v.nreasons++;
			}
		}
	}
	for (c = 0; c < s->v.nreasons; c++)
		s->v.reason[c] = s->v.buf[c];
	qsort(v, n, sizeof(*v), kb_cmp_double);
	s->per_call = n ? kb_median_sorted(v, n) : NAN;
	s->ns = cr->run[0].counter_hz ?
		s->per_call * 1e9 / (double)cr->run[0].counter_hz : NAN;
	free(v);
}

/*
 * The contended side @s at once on the @nr @cpus: 0, or -errno (printed;
 * the row is marked).
 */
static int side_measure_cpus(struct bl_side *s, bool user, unsigned int nr,
			     const int32_t *cpus)
{
	unsigned int c, valid = 0;
	int err;

	s->q.has_cpu = false;
	s->contended = true;
	err = kb_cpus_at_once(&s->q, user, nr, cpus, &s->cr);
	if (err) {
		s->failed = true;
		return err;
	}
	s->pc = calloc(s->cr.nr, sizeof(*s->pc));
	if (!s->pc) {
		fprintf(stderr, "%s: out of memory\n", prog);
		s->failed = true;
		return -ENOMEM;
	}
	for (c = 0; c < s->cr.nr; c++) {
		if (kb_run_analyze(&s->cr.run[c])) {
			fprintf(stderr, "%s: out of memory\n", prog);
			s->failed = true;
			return -ENOMEM;
		}
		valid += s->cr.run[c].nres && s->cr.run[c].res[0].valid;
	}
	if (!valid) {
		kb_report_no_valid(&s->cr.run[0], stderr);
		s->failed = true;
		return -ENODATA;
	}
	s->done = true;
	cpus_figures(s);
	return 0;
}

/*
 * Measure one side of a row, at once on the @nr @cpus when it is
 * contended (@nr 0: alone): 0, or -errno (printed; the row is marked).
 */
static int side_measure(struct bl_side *s, const struct baseline_opts *o,
			bool user, bool contended, unsigned int nr,
			const int32_t *cpus)
{
	struct kb_run_req *q = &s->q;
	int err;

	memset(q, 0, sizeof(*q));
	q->names[0] = s->routine;
	q->n = 1;
	q->has_samples = o->has_samples;
	q->samples = o->samples;
	q->has_cpu = o->has_cpu;
	q->cpu = o->cpu;
	q->has_target_ns = true;
	q->target_ns = o->has_target_ns ? o->target_ns : BL_DEFAULT_TARGET_NS;
	q->has_skew_ns = o->has_skew_ns;
	q->skew_ns = o->skew_ns;
	if (nr && contended)
		return side_measure_cpus(s, user, nr, cpus);
	q->has_skew_ns = false;
	if (nr) {	/* alone, on the first CPU of --cpus */
		q->has_cpu = true;
		q->cpu = (uint32_t)cpus[0];
	}
	err = kb_run_measure(q, user, &s->r);
	if (err) {
		s->failed = true;
		return err;
	}
	if (kb_run_analyze(&s->r)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		s->failed = true;
		return -ENOMEM;
	}
	if (kb_report_no_valid(&s->r, stderr)) {
		s->failed = true;
		return -ENODATA;
	}
	s->done = true;
	side_figures(s);
	return 0;
}

/* A contended side's CPUs and start skew (JSON), and a line of text. */
static void cpus_print(const struct bl_side *s)
{
	const struct kb_cpus_run *cr = &s->cr;
	unsigned int c;

	out_open_array("per_cpu");
	for (c = 0; c < cr->nr; c++) {
		const struct bl_cpu *p = &s->pc[c];
		const struct kb_run *r = &cr->run[c];

		out_open_object(NULL);
		out_uint("cpu", NULL, r->cpu);
		if (p->valid) {
			out_double("ticks_per_call", NULL, p->per_call);
			out_double("ci_lo_ticks", NULL, p->ci_lo);
			out_double("ci_hi_ticks", NULL, p->ci_hi);
			out_string("verdict", NULL, p->v.stable ? "stable" : "unstable");
			out_double("median_ticks_per_iter", NULL, r->res[0].st.median);
		} else {
			out_bool("failed", NULL, true);
		}
		out_uint("iterations", NULL, r->iterations);
		out_uint("samples", NULL, r->nres ? r->res[0].samples : 0);
		out_uint("valid", NULL, r->nres ? r->res[0].valid : 0);
		out_uint("excluded_skew", NULL, r->nres ? r->res[0].excl[8] : 0);
		if (!r->user)	/* for kbenchctl samples */
			out_uint("run_id", NULL, r->run_id);
		out_close_object();
	}
	out_close_array();
	out_open_object("skew");
	out_uint("median_ticks", NULL, cr->skew_median);
	out_uint("max_ticks", NULL, cr->skew_max);
	out_uint("bound_ticks", NULL, cr->skew_bound);
	out_uint("flagged", NULL, cr->skew_flagged);
	out_uint("samples", NULL, cr->skew_samples);
	out_close_object();
}

/* Under a contended row: each CPU's figure and the start skew, as text. */
static void cpus_line(const struct bl_side *s)
{
	const struct kb_cpus_run *cr = &s->cr;
	unsigned int c;

	out_text("      %s at once:", s->routine);
	for (c = 0; c < cr->nr; c++) {
		if (s->pc[c].valid)
			out_text(" cpu %u %.3f", cr->run[c].cpu, s->pc[c].per_call);
		else
			out_text(" cpu %u -", cr->run[c].cpu);
	}
	out_text(" ticks/call; start skew median %llu ticks, %u of %u samples flagged skew\n",
		 (unsigned long long)cr->skew_median, cr->skew_flagged,
		 cr->skew_samples);
}

static void side_print(const char *key, const struct bl_side *s,
		       bool with_cpus)
{
	char ci[48];

	out_open_object(key);
	out_string("routine", NULL, s->routine);
	if (s->absent) {
		out_text("%12s %10s  %-24s %s", "-", "-", "-", "missing");
		out_string("missing", NULL, s->absent);
		out_close_object();
		return;
	}
	if (!s->done) {
		out_text("%12s %10s  %-24s %s", "-", "-", "-", "failed");
		out_bool("failed", NULL, true);
		if (with_cpus)
			out_bool("contended", NULL, s->contended);
		if (s->pc)	/* every CPU's samples and the skew: why */
			cpus_print(s);
		out_close_object();
		return;
	}
	out_double("ticks_per_call", "%12.3f", s->per_call);
	out_double("ns_per_call", " %10.3f", s->ns);
	snprintf(ci, sizeof(ci), "[%.3f, %.3f]", s->ci_lo, s->ci_hi);
	out_text("  %-24s", ci);
	out_double("ci_lo_ticks", NULL, s->ci_lo);
	out_double("ci_hi_ticks", NULL, s->ci_hi);
	out_string("verdict", " %s", s->v.stable ? "stable" : "unstable");
	out_open_array("reasons");
	for (unsigned int i = 0; i < s->v.nreasons; i++)
		out_string(NULL, NULL, s->v.reason[i]);
	out_close_array();
	if (s->contended) {
		const struct kb_cpus_run *cr = &s->cr;
		double *m = calloc(cr->nr, sizeof(*m));
		uint64_t samples = 0, valid = 0;
		unsigned int c, n = 0;

		out_text(" (contended, %u CPUs)", cr->nr);
		for (c = 0; c < cr->nr; c++) {
			if (!cr->run[c].nres)
				continue;
			samples += cr->run[c].res[0].samples;
			valid += cr->run[c].res[0].valid;
			if (m && s->pc[c].valid)
				m[n++] = cr->run[c].res[0].st.median;
		}
		qsort(m, n, sizeof(*m), kb_cmp_double);
		out_double("median_ticks_per_iter", NULL,
			   n ? kb_median_sorted(m, n) : NAN);
		free(m);
		out_uint("calls_per_iter", NULL, s->calls > 1 ? s->calls : 1);
		out_uint("iterations", NULL, cr->run[0].iterations);
		out_uint("samples", NULL, samples);
		out_uint("valid", NULL, valid);
	} else {
		if (with_cpus)
			out_text(" (alone on CPU %u)", s->r.cpu);
		out_double("median_ticks_per_iter", NULL, s->r.res[0].st.median);
		out_uint("calls_per_iter", NULL, s->calls > 1 ? s->calls : 1);
		out_uint("iterations", NULL, s->r.iterations);
		out_uint("samples", NULL, s->r.res[0].samples);
		out_uint("valid", NULL, s->r.res[0].valid);
	}
	out_string("description", NULL, s->desc);
	out_bool("contended", NULL, s->contended);
	if (s->contended)
		cpus_print(s);
	else
		out_uint("cpu", NULL, s->r.cpu);
	out_close_object();
}

/* The first side measured: the run whose counter and CPU the header names. */
static const struct kb_run *first_run(const struct bl_row *rows, size_t n,
				      bool user)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct bl_side *s = user ? &rows[i].u : &rows[i].k;

		if (s->done)
			return s->contended ? &s->cr.run[0] : &s->r;
	}
	return NULL;
}

static void header_side(const char *key, const char *what,
			const struct kb_run *r)
{
	out_open_object(key);
	if (r) {
		out_text("%s: ", what);
		if (!r->user)
			out_string("kernel", "%s, ", r->kernel);
		out_uint("cpu", "cpu %llu, ", r->cpu);
		out_string("counter", "%s", r->counter);
		out_double("counter_mhz", " at %.3f MHz\n", (double)r->counter_hz / 1e6);
	}
	out_close_object();
}

static void notes_side(const struct bl_row *rows, size_t n, bool user)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct bl_side *s = user ? &rows[i].u : &rows[i].k;

		if (!s->routine)
			continue;
		if (s->absent)
			out_text("  %s: missing: %s\n", s->routine, s->absent);
		else if (s->failed && s->pc)
			out_text("  %s: failed: no CPU had a valid sample (%u of %u samples flagged skew: the CPUs' windows did not start together; a larger --skew-ns allows more)\n",
				 s->routine, s->cr.skew_flagged, s->cr.skew_samples);
		else if (s->done && !s->v.stable && s->v.nreasons)
			out_text("  %s: unstable: %s\n", s->routine, s->v.reason[0]);
	}
}

static void table_print(const struct bl_row *rows, size_t n,
			const struct baseline_opts *o, size_t measured,
			size_t wanted, unsigned int nr, const int32_t *cpus)
{
	bool kern = !o->user, user = o->user || o->all;
	const char *cat = NULL;
	char list[256];
	size_t i;

	out_open_object(NULL);
	if (kern)
		header_side("kernel_run", "kernel primitives", first_run(rows, n, false));
	if (user)
		header_side("user_run", "userspace counterparts", first_run(rows, n, true));
	out_text("per call: the median per iteration minus the empty loop's (divided by the calls an iteration makes); its 95%% CI (order statistics of the samples, widened for their serial dependence)\n");
	if (nr) {
		kb_cpulist_format(&o->cpus.set, list, sizeof(list));
		out_open_array("cpus");
		for (unsigned int c = 0; c < nr; c++)
			out_uint(NULL, NULL, (uint64_t)cpus[c]);
		out_close_array();
		out_text("contended: the locking and atomics rows ran on CPUs %s at once, one lock or line shared by all (as run --cpus): per call the CPUs' median of each CPU's corrected median, the CI from the lowest CPU's bound to the highest's; the other rows alone on CPU %d\n",
			 list, cpus[0]);
	}
	out_text("%-24s", "primitive");
	if (kern)
		out_text(" %-28s %12s %10s  %-24s %s", "kernel routine", "ticks/call",
			 "ns/call", "95% CI (ticks)", "verdict");
	if (user)
		out_text("%s%-28s %12s %10s  %-24s %s", kern ? " | " : " ",
			 "userspace", "ticks/call", "ns/call", "95% CI (ticks)",
			 "verdict");
	out_text("\n");
	out_open_array("rows");
	for (i = 0; i < n; i++) {
		const struct bl_row *w = &rows[i];

		if (!cat || strcmp(cat, w->p->category)) {
			cat = w->p->category;
			out_text("%s\n", cat);
		}
		out_open_object(NULL);
		out_string("category", NULL, w->p->category);
		out_string("primitive", "  %-22s", w->p->name);
		out_string("configs", NULL, w->p->configs);
		if (kern) {
			out_text(" %-28s ", w->k.routine ? w->k.routine : "-");
			if (w->k.routine)
				side_print("kernel", &w->k, nr);
			else
				out_text("%12s %10s  %-24s %s", "-", "-", "-",
					 "(userspace only)");
		}
		if (user) {
			out_text("%s%-28s ", kern ? " | " : " ",
				 w->u.routine ? w->u.routine : "-");
			if (w->u.routine)
				side_print("user", &w->u, nr);
			else
				out_text("%12s %10s  %-24s %s", "-", "-", "-", "-");
		}
		out_text("\n");
		if (kern && w->k.pc)
			cpus_line(&w->k);
		if (user && w->u.pc)
			cpus_line(&w->u);
		if (o->verbose) {
			if (kern && w->k.routine && w->k.desc[0])
				out_text("      kernel: %s\n", w->k.desc);
			if (user && w->u.routine && w->u.desc[0])
				out_text("      userspace: %s\n", w->u.desc);
			out_text("      changed by: %s\n", w->p->configs);
			if ((kern && w->k.contended) || (user && w->u.contended))
				out_text("      contended: its one lock or line shared by the %u CPUs at once (an \"uncontended\" above is the usual run's)\n",
					 nr);
		}
		out_close_object();
	}
	out_close_array();
	out_uint("measured", "%llu", measured);
	out_uint("wanted", " of %llu routine", wanted);
	out_text("%s measured", wanted == 1 ? "" : "s");
	out_uint("missing", NULL, wanted - measured);
	if (measured < wanted)
		out_text("; %llu NOT measured (below):\n",
			 (unsigned long long)(wanted - measured));
	else
		out_text("\n");
	if (kern)
		notes_side(rows, n, false);
	if (user)
		notes_side(rows, n, true);
	out_close_object();
	out_finish();
}

/* Every side measured, as one result file (one run per primitive). */
static int save_all(const char *arg, struct bl_row *rows, size_t n,
		    int argc, char *argv[])
{
	struct kb_saved_run *s;
	struct kb_meta meta;
	const struct kb_run *env = NULL;
	size_t i, k = 0;
	bool kernel = false;
	int cpu = -1, err;

	s = calloc(2 * n + 1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct bl_side *sd[2] = { &rows[i].k, &rows[i].u };

		for (unsigned int j = 0; j < 2; j++) {
			if (!sd[j]->done)
				continue;
			/*
			 * a contended side is saved as run --cpus A..K saves a
			 * point: every CPU's samples in one run, ncpus the CPUs
			 */
			if (sd[j]->contended) {
				err = kb_cpus_merge(&sd[j]->cr, &sd[j]->r);
				sd[j]->contended = false;
				if (err) {
					sd[j]->done = false;
					fprintf(stderr, "%s: out of memory\n", prog);
					free(s);
					return err;
				}
				sd[j]->r.has_ncpus = true;
				err = kb_run_analyze(&sd[j]->r);
				if (err) {
					fprintf(stderr, "%s: out of memory\n", prog);
					free(s);
					return err;
				}
			}
			kb_saved_run_init(&s[k], &sd[j]->r, &sd[j]->q);
			s[k].analyzed = true;
			if (!env) {
				env = &sd[j]->r;
				cpu = (int)sd[j]->r.cpu;
			}
			kernel |= !sd[j]->r.user;
			k++;
		}
	}
	memset(&meta, 0, sizeof(meta));
	kb_meta_collect(&meta, kernel, cpu, argc, argv);
	if (env && env->has_env)
		kb_meta_add_env(&meta, &env->env);
	err = kb_resfile_save(arg, &meta, s, k);
	free(s);
	return err;
}

/* A bar per side measured: the figure per call and its CI, in ns. */
static int svg_all(const char *path, const struct bl_row *rows, size_t n)
{
	struct kb_svg_bar *b = calloc(2 * n + 1, sizeof(*b));
	size_t i, k = 0;
	int err;

	if (!b) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct bl_side *sd[2] = { &rows[i].k, &rows[i].u };

		for (unsigned int j = 0; j < 2; j++) {
			const struct bl_side *s = sd[j];
			double scale;

			if (!s->done)
				continue;
			scale = s->per_call != 0 ? s->ns / s->per_call :
				1e9 / (double)(s->contended ? s->cr.run[0].counter_hz :
							     s->r.counter_hz);
			b[k].group = rows[i].p->category;
			b[k].label = s->routine;
			b[k].user = j == 1;
			b[k].value = s->ns;
			b[k].lo = s->ci_lo * scale;
			b[k].hi = s->ci_hi * scale;
			k++;
		}
	}
	err = kb_svg_write_bars(path, "kbench baseline: ns per call (median minus the empty loop, 95% CI)",
				b, k);
	free(b);
	return err;
}

static void rows_free(struct bl_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct bl_side *sd[2] = { &rows[i].k, &rows[i].u };

		for (unsigned int j = 0; j < 2; j++) {
			if (sd[j]->cr.run)
				kb_cpus_run_free(&sd[j]->cr);
			else if (sd[j]->done || sd[j]->failed)
				kb_run_free(&sd[j]->r);
			free(sd[j]->pc);
		}
	}
	free(rows);
}

int baseline_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct baseline_opts o = { 0 };
	struct bl_registered g = { 0 };
	size_t n = 0, i, wanted = 0, measured = 0;
	bool kern, user, failed = false;
	struct bl_row *rows;
	int32_t *cpus = NULL;
	unsigned int nr = 0, c;
	int err, ret = EXIT_OK;

	err = kb_opts_parse_noargs(sc, argc, argv, &o);
	if (err)
		return kb_exit_status(err);
	if (o.user && o.all)
		return kb_exit_status(kb_arg_error(sc->name, "--user and --all exclude each other (--all includes the userspace counterparts)"));
	if (o.cpus.spec) {
		char list[256];

		if (o.cpus.hi)
			return kb_exit_status(kb_arg_error(sc->name, "--cpus %s: a CPU list here (0,1 or 0-3), not CPU counts A..K (run ROUTINE --cpus A..K sweeps the count)",
							   o.cpus.spec));
		if (o.has_cpu)
			return kb_exit_status(kb_arg_error(sc->name, "--cpus and --cpu exclude each other: --cpu N measures every row alone on CPU N, --cpus LIST the contended rows on all of LIST at once (and the others alone on its first CPU)"));
		kb_cpulist_format(&o.cpus.set, list, sizeof(list));
		if (kb_cpuset_count(&o.cpus.set) < 2)
			return kb_exit_status(kb_arg_error(sc->name, "--cpus %s: contention needs at least two CPUs (CPUs %s given; list two or more online CPUs, as 0,1, or use --cpu N to measure alone)",
							   o.cpus.spec, list));
	}
	if (o.has_skew_ns && !o.cpus.spec)
		return kb_exit_status(kb_arg_error(sc->name, "--skew-ns bounds a contended run: it goes with --cpus"));
	if (o.match) {
		err = match_check(o.match);
		if (err)
			return kb_exit_status(err);
	}
	if (o.cpus.spec) {
		cpus = calloc(kb_cpuset_count(&o.cpus.set), sizeof(*cpus));
		if (!cpus) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return EXIT_FAIL;
		}
		for (c = 0; c < KB_CPUS_MAX; c++)
			if (kb_cpuset_has(&o.cpus.set, c))
				cpus[nr++] = (int32_t)c;
	}
	kern = !o.user;
	user = o.user || o.all;
	rows = calloc(kb_prims_n, sizeof(*rows));
	if (!rows) {
		fprintf(stderr, "%s: out of memory\n", prog);
		free(cpus);
		return EXIT_FAIL;
	}
	for (i = 0; i < kb_prims_n; i++) {
		const struct kb_prim *p = &kb_prims[i];

		if (!kb_prim_match(p, o.match))
			continue;
		if (!(kern && p->kernel) && !(user && p->user))
			continue;
		rows[n].p = p;
		rows[n].k.routine = kern ? p->kernel : NULL;
		rows[n].u.routine = user ? p->user : NULL;
		n++;
	}
	if (!n) {
		ret = kb_exit_status(kb_arg_error(sc->name, "--match '%s': no %s row matches (the %s side has none)",
						  o.match, kern ? "kernel" : "userspace",
						  kern ? "kernel" : "userspace"));
		goto out_free;
	}
	if (kern) {
		err = prims_registered(&g);
		if (err) {
			ret = kb_exit_status(err);
			goto out_free;
		}
	}
	/* what is missing is known before anything is measured */
	for (i = 0; i < n; i++) {
		struct bl_side *k = &rows[i].k, *u = &rows[i].u;
		const char *d;

		if (k->routine) {
			wanted++;
			d = registered_desc(&g, k->routine);
			if (d)
				snprintf(k->desc, sizeof(k->desc), "%s", d);
			/*
			 * calls per iteration, when the module's description
			 * says so (a module of an older kbench made one)
			 */
			if (d && kb_prim_kernel_calls(rows[i].p) > 1 &&
			    strtoul(d, NULL, 10) == kb_prim_kernel_calls(rows[i].p))
				k->calls = kb_prim_kernel_calls(rows[i].p);
			if (!d)
				k->absent = rows[i].p->absent ? rows[i].p->absent :
					"not registered by the loaded " KB_PRIMS_MODULE " (built from an older kbench: rebuild and reload it)";
		}
		if (u->routine) {
			const struct kb_twin *t = kb_twin_find(u->routine);

			wanted++;
			if (t)
				snprintf(u->desc, sizeof(u->desc), "%s", t->desc);
		}
	}
	for (i = 0; i < n; i++) {
		struct bl_side *k = &rows[i].k, *u = &rows[i].u;
		bool cont = kb_prim_contended(rows[i].p);

		if (k->routine && !k->absent) {
			if (side_measure(k, &o, false, cont, nr, cpus))
				failed = true;
			else
				measured++;
		}
		if (u->routine) {
			if (side_measure(u, &o, true, cont, nr, cpus))
				failed = true;
			else
				measured++;
		}
	}
	if (!measured) {
		fprintf(stderr, "%s baseline: nothing measured: every selected primitive is missing on this kernel or failed (see above)\n",
			prog);
		for (i = 0; i < n; i++)
			if (rows[i].k.absent)
				fprintf(stderr, "  %s: %s\n", rows[i].k.routine,
					rows[i].k.absent);
		ret = EXIT_FAIL;
		goto out_free;
	}
	table_print(rows, n, &o, measured, wanted, nr, cpus);
	if (measured < wanted)
		fprintf(stderr, "%s baseline: %zu of %zu routine%s not measured: %s\n",
			prog, wanted - measured, wanted, wanted == 1 ? "" : "s",
			failed ? "some failed (see above)" :
				 "missing on this kernel (the table says why)");
	if (failed)
		ret = EXIT_FAIL;
	if (o.save && save_all(o.save, rows, n, argc, argv) && ret == EXIT_OK)
		ret = EXIT_FAIL;
	if (o.svg && svg_all(o.svg, rows, n) && ret == EXIT_OK)
		ret = EXIT_FAIL;
out_free:
	free(g.name);
	free(g.desc);
	free(cpus);
	rows_free(rows, n);
	return ret;
}
