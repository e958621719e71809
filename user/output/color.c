// SPDX-License-Identifier: GPL-2.0
/*
 * Colour on a terminal (see color.h for when and which).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"
#include "base.h"

const char *const kb_color_choices[] = { "auto", "never", "always", NULL };

bool kb_color_decide(int when, bool json, bool tty, const char *no_color,
		     const char *term)
{
	if (json || when == KB_COLOR_NEVER)
		return false;
	if (when == KB_COLOR_ALWAYS)
		return true;
	return tty && !(no_color && *no_color) &&
	       !(term && !strcmp(term, "dumb"));
}

/* Decided on first use, after every option has been read. */
static bool color_on(FILE *f)
{
	static int on[2] = { -1, -1 };
	int fd = f == stderr ? 2 : 1;

	if (on[fd - 1] < 0)
		on[fd - 1] = kb_color_decide(opt_color,
					     fd == 1 && opt_json, isatty(fd),
					     getenv("NO_COLOR"), getenv("TERM"));
	return on[fd - 1];
}

const char *kb_color(FILE *f, enum kb_color c)
{
	static const char *const esc[] = {
		[KB_GOOD] = "\033[32m", [KB_WARN] = "\033[33m",
		[KB_BAD] = "\033[1;31m",
	};

	return color_on(f) ? esc[c] : "";
}

const char *kb_color_end(FILE *f)
{
	return color_on(f) ? "\033[0m" : "";
}
