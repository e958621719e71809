// SPDX-License-Identifier: GPL-2.0
/*
 * A cache thrasher for bench/verdict/calibrate.sh: writes one byte per
 * 64-byte line over MIB mebibytes, forever (killed by the script).
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char *argv[])
{
	size_t n = (size_t)(argc > 1 ? atol(argv[1]) : 64) << 20, i;
	volatile char *p = malloc(n);

	if (!p) {
		perror("thrash: malloc");
		return 1;
	}
	for (;;)
		for (i = 0; i < n; i += 64)
			p[i]++;
}
