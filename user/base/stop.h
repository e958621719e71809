/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ctrl-C (SIGINT) and SIGTERM during a measurement: the first one asks
 * the sampling loop to stop at the next round (libkbench reads the flag
 * between rounds) and keeps what was measured; the second one ends the
 * process at once, as it would without kbenchctl's handler.
 */
#ifndef KBENCHCTL_STOP_H
#define KBENCHCTL_STOP_H

#include <signal.h>

/* The signal that asked the run to stop, 0: none (set by the handler). */
extern volatile sig_atomic_t kb_stop_signal;

/* Catch SIGINT and SIGTERM from now on (once each: then the default). */
void kb_stop_arm(void);
/* The dispositions before kb_stop_arm() again. */
void kb_stop_disarm(void);
/* 128 + the signal that stopped the run (130 for Ctrl-C), 0: none. */
int kb_stop_exit_status(void);

#endif /* KBENCHCTL_STOP_H */
