// SPDX-License-Identifier: GPL-2.0
/*
 * timeit: run a command with its stdout redirected to a file and print the
 * wall time it took in milliseconds (CLOCK_MONOTONIC, microsecond
 * precision).  The test VM's busybox has neither date +%N nor a precise
 * time(1), and /proc/uptime ticks in 10 ms.
 *
 *   timeit OUTFILE COMMAND [ARGS...]    ("-" keeps stdout)
 *
 * Prints "<ms>" on stderr; exits with the command's status.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char *argv[])
{
	double t0, t1;
	pid_t pid;
	int st, fd;

	if (argc < 3) {
		fprintf(stderr, "usage: timeit OUTFILE|- COMMAND [ARGS...]\n");
		return 2;
	}
	t0 = now_ms();
	pid = fork();
	if (pid < 0) {
		perror("timeit: fork");
		return 2;
	}
	if (pid == 0) {
		if (strcmp(argv[1], "-")) {
			fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
				perror(argv[1]);
				_exit(127);
			}
			close(fd);
		}
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0) {
		perror("timeit: waitpid");
		return 2;
	}
	t1 = now_ms();
	fprintf(stderr, "%.3f\n", t1 - t0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
