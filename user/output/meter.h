/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long a run will take, and how far it is, on stderr: one estimate
 * line when a run looks like taking over KB_METER_LONG_S (in pipes too:
 * it is one line, never on stdout), and on a terminal only a progress
 * line rewritten in place and cleared at the end.  Fed with the windows
 * done of the samples phase, by libkbench's progress callback (--user)
 * or the module's PROGRESS_NTF (kernel).
 */
#ifndef KBENCHCTL_METER_H
#define KBENCHCTL_METER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A run predicted to take longer than this gets the estimate line. */
#define KB_METER_LONG_S		10.0
/* The prediction is made once, after this much of the samples phase. */
#define KB_METER_LOOK_NS	200000000ULL
/* The progress line: runs predicted over a second, redrawn this often. */
#define KB_METER_REDRAW_NS	250000000ULL

struct kb_meter {
	char what[128];		/* "10000000 samples of add_chain" */
	const char *ctrl_c;	/* what Ctrl-C does, for the estimate */
	uint32_t samples;	/* asked, per routine */
	uint64_t t0, next;	/* start; next redraw */
	uint64_t t1;		/* the first report of samples taken ... */
	uint32_t d1;		/* ... and the windows it counted */
	bool tty;		/* stderr is a terminal */
	bool looked;		/* the prediction was made */
	bool progress;		/* it asked for a progress line */
	bool shown;		/* a progress line is on the terminal */
	double predicted_s;	/* the whole run, predicted (0: not yet) */
};

/*
 * Start @m for a run of @samples per routine of the @n routines @names;
 * @keeps: Ctrl-C keeps what was measured (--user), else it ends the run.
 */
void kb_meter_start(struct kb_meter *m, uint32_t samples,
		    const char *const *names, unsigned int n, bool keeps);
/* @done of @total windows of the samples phase are taken. */
void kb_meter_update(struct kb_meter *m, uint32_t done, uint32_t total);
/* The run is over: the progress line cleared. */
void kb_meter_end(struct kb_meter *m);
/*
 * "12345/100000 samples (12%), ETA 3.2 s" into @buf (ETA in minutes or
 * hours from a minute on); "" for a run under a second or nothing done.
 */
void kb_progress_format(uint32_t done, uint32_t total, uint64_t elapsed_ns,
			char *buf, size_t len);
/* "7 min", "42 s", "1.5 h" into @buf. */
void kb_meter_duration(double s, char *buf, size_t len);

#endif /* KBENCHCTL_METER_H */
