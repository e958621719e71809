// SPDX-License-Identifier: GPL-2.0
/*
 * The estimate and progress lines of long runs (meter.h).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "meter.h"

void kb_meter_duration(double s, char *buf, size_t len)
{
	if (s < 90)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 90 * 60)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.1f h", s / 3600);
}

void kb_progress_format(uint32_t done, uint32_t total, uint64_t elapsed_ns,
			char *buf, size_t len)
{
	char left[32];
	double eta;

	buf[0] = '\0';
	if (!done || !total)
		return;
	eta = (double)elapsed_ns * (double)(total - (done < total ? done : total)) /
	      (double)done / 1e9;
	/* only runs expected to take over a second are worth a progress line */
	if ((double)elapsed_ns / 1e9 + eta < 1.0)
		return;
	if (eta < 60)
		snprintf(left, sizeof(left), "%.1f s", eta);
	else
		kb_meter_duration(eta, left, sizeof(left));
	snprintf(buf, len, "%u/%u samples (%.0f%%), ETA %s", done, total,
		 100.0 * done / total, left);
}

void kb_meter_start(struct kb_meter *m, uint32_t samples,
		    const char *const *names, unsigned int n, bool keeps)
{
	size_t used;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->samples = samples;
	m->t0 = kb_mono_ns();
	m->tty = isatty(STDERR_FILENO);
	m->ctrl_c = keeps ? "Ctrl-C stops it and keeps what was measured" :
			    "Ctrl-C stops it; a kernel run keeps nothing";
	used = (size_t)snprintf(m->what, sizeof(m->what), "%u samples of ",
				samples);
	for (i = 0; i < n && used < sizeof(m->what); i++)
		used += (size_t)snprintf(m->what + used, sizeof(m->what) - used,
					 "%s%s", i ? (i + 1 < n ? ", " : " and ") :
					 "", names[i]);
}

void kb_meter_update(struct kb_meter *m, uint32_t done, uint32_t total)
{
	uint32_t sd;
	char line[128], when[32];
	uint64_t now, el;

	/* called every round: nothing more to do costs no clock read */
	if ((m->looked && !m->progress) || !done || !total || done > total)
		return;
	now = kb_mono_ns();
	el = now - m->t0;
	if (!m->looked) {
		/*
		 * the rate of the samples phase alone for the rest: the start
		 * (counter, probe, warm-up) is not a sample's cost
		 */
		if (!m->t1) {
			m->t1 = now;
			m->d1 = done;
			return;
		}
		if (now - m->t1 < KB_METER_LOOK_NS || done <= m->d1)
			return;
		m->looked = true;
		m->predicted_s = (double)el / 1e9 +
				 (double)(now - m->t1) / 1e9 *
				 (double)(total - done) / (double)(done - m->d1);
		if (m->predicted_s > KB_METER_LONG_S) {
			kb_meter_duration(m->predicted_s, when, sizeof(when));
			fprintf(stderr, "%s: about %s for %s (%s)\n", prog, when,
				m->what, m->ctrl_c);
		}
		m->progress = m->tty && m->predicted_s >= 1.0;
	}
	if (!m->progress || now < m->next)
		return;
	m->next = now + KB_METER_REDRAW_NS;
	/* in samples per routine: a round is one window of each */
	sd = (uint32_t)((uint64_t)done * m->samples / total);
	kb_progress_format(sd, m->samples, el, line, sizeof(line));
	if (line[0]) {
		fprintf(stderr, "\r%s: %s\033[K", prog, line);
		m->shown = true;
	}
}

void kb_meter_end(struct kb_meter *m)
{
	if (m->shown)
		fprintf(stderr, "\r\033[K");
	m->shown = false;
}
