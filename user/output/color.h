/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Colour for verdicts and warnings on a terminal:
 *   green   stable; no significant difference; faster
 *   yellow  warnings: excluded samples, the reasons of a verdict, inflated
 *           userspace samples, a run cut short
 *   red     UNSTABLE; significantly slower
 * --color=auto (the default) colours when the output is a terminal, TERM
 * is not "dumb" and NO_COLOR is not set to a non-empty value
 * (https://no-color.org); --color=always and --color=never override
 * that; --json is never coloured.
 */
#ifndef KBENCHCTL_COLOR_H
#define KBENCHCTL_COLOR_H

#include <stdbool.h>
#include <stdio.h>

enum kb_color_when { KB_COLOR_AUTO, KB_COLOR_NEVER, KB_COLOR_ALWAYS };
extern const char *const kb_color_choices[];	/* indexed by the above */

enum kb_color { KB_GOOD, KB_WARN, KB_BAD };

/*
 * The decision, from its inputs: @no_color and @term are the values of
 * NO_COLOR and TERM (NULL when unset).
 */
bool kb_color_decide(int when, bool json, bool tty, const char *no_color,
		     const char *term);

/* The escape that starts @c on @f (stdout or stderr), or "". */
const char *kb_color(FILE *f, enum kb_color c);
/* The escape that ends a colour on @f, or "". */
const char *kb_color_end(FILE *f);

#endif /* KBENCHCTL_COLOR_H */
