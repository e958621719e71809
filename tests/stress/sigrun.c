// SPDX-License-Identifier: GPL-2.0
/*
 * sigrun: start COMMAND, send it SIGINT or SIGKILL (alternating) after a
 * random delay, and check it dies of that signal within a bound - COUNT
 * times.  A shell cannot do this for SIGINT: background jobs of a
 * non-interactive shell start with SIGINT ignored.  Prints TAP diagnostics
 * and exits 0 only if every round passed.
 *
 *   sigrun COUNT MAX_DELAY_MS BOUND_MS COMMAND [ARGS...]
 *
 * With SIGRUN_AFTER=FILE in the environment the random delay starts when
 * the number in FILE (a module's counter in sysfs) has changed since the
 * fork, not at the fork: a slow machine (the debug kernel on a loaded
 * host) can take longer than MAX_DELAY_MS to get COMMAND that far.  A
 * round whose FILE does not change within 60 s fails.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The number in @path, or -1. */
static long long read_count(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "re");

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Wait up to 60 s for @path's number to differ from @before. */
static int wait_change(const char *path, long long before)
{
	long long t0 = now_ms();

	while (now_ms() - t0 < 60000) {
		if (read_count(path) != before)
			return 0;
		usleep(10000);
	}
	return -1;
}

int main(int argc, char *argv[])
{
	const char *after = getenv("SIGRUN_AFTER");
	int count, max_delay, bound, i, ok = 0, slow = 0;
	unsigned int seed = 1;

	if (argc < 5) {
		fprintf(stderr, "usage: sigrun COUNT MAX_DELAY_MS BOUND_MS COMMAND [ARGS...]\n");
		return 2;
	}
	count = atoi(argv[1]);
	max_delay = atoi(argv[2]);
	bound = atoi(argv[3]);
	for (i = 0; i < count; i++) {
		int sig = i % 2 ? SIGKILL : SIGINT, status;
		long long t0, dt, before = after ? read_count(after) : 0;
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			signal(SIGINT, SIG_DFL);
			execvp(argv[4], argv + 4);
			_exit(127);
		}
		if (after && wait_change(after, before)) {
			printf("# round %d: %s still %lld after 60 s\n", i, after,
			       before);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			continue;
		}
		usleep((useconds_t)(rand_r(&seed) % (max_delay + 1)) * 1000);
		t0 = now_ms();
		kill(pid, sig);
		if (waitpid(pid, &status, 0) < 0) {
			perror("waitpid");
			return 1;
		}
		dt = now_ms() - t0;
		if (dt > bound)
			slow++;
		if (WIFSIGNALED(status) && WTERMSIG(status) == sig && dt <= bound)
			ok++;
		else
			printf("# round %d: %s, status 0x%x, %lld ms\n", i,
			       sig == SIGINT ? "SIGINT" : "SIGKILL", status, dt);
	}
	printf("# sigrun: %d of %d runs died of their signal within %d ms (%d slower)\n",
	       ok, count, bound, slow);
	return ok == count ? 0 : 1;
}
