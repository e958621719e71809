// SPDX-License-Identifier: GPL-2.0
/*
 * The stop flag of interrupted runs (stop.h).
 */
#include <string.h>

#include "stop.h"

volatile sig_atomic_t kb_stop_signal;

static struct sigaction stop_old[2];
static int stop_armed;

/* Async-signal-safe: one store; SA_RESETHAND made the next one fatal. */
static void stop_handler(int sig)
{
	kb_stop_signal = sig;
}

void kb_stop_arm(void)
{
	struct sigaction sa;

	if (stop_armed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stop_handler;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocking call returns, the loop then looks */
	sa.sa_flags = SA_RESETHAND;
	kb_stop_signal = 0;
	sigaction(SIGINT, &sa, &stop_old[0]);
	sigaction(SIGTERM, &sa, &stop_old[1]);
	/* a signal ignored when kbenchctl started (nohup, `cmd &`) stays so */
	if (stop_old[0].sa_handler == SIG_IGN)
		sigaction(SIGINT, &stop_old[0], NULL);
	if (stop_old[1].sa_handler == SIG_IGN)
		sigaction(SIGTERM, &stop_old[1], NULL);
	stop_armed = 1;
}

void kb_stop_disarm(void)
{
	if (!stop_armed)
		return;
	sigaction(SIGINT, &stop_old[0], NULL);
	sigaction(SIGTERM, &stop_old[1], NULL);
	stop_armed = 0;
}

int kb_stop_exit_status(void)
{
	return kb_stop_signal ? 128 + kb_stop_signal : 0;
}
