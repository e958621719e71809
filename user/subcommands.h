/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl's subcommands (subcommands.c): the table, lookup by name and
 * the error for an unknown one.  main() (kbenchctl.c) dispatches on it.
 */
#ifndef KBENCHCTL_SUBCOMMANDS_H
#define KBENCHCTL_SUBCOMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"	/* struct subcommand */

extern const struct subcommand subcommands[];
extern const struct subcommand kb_global;	/* kbenchctl [options] */
const struct subcommand *subcommand_find(const char *name);
/* The usage error for an unknown subcommand (with the known ones). */
int unknown_subcommand(const char *name);
/*
 * The option or argument behind attribute @attr of request @cmd, with its
 * value from the request (@data, @len): "--cpu 7", "routine 'foo'".
 * Returns false when no option maps to it.  kbenchctl hands it to the
 * netlink layer (kb_nl_set_attr_namer()), which names the option of a
 * kernel error with it.
 */
bool kb_opts_name_attr(uint8_t cmd, uint16_t attr, const void *data,
		       size_t len, char *buf, size_t size);

#endif /* KBENCHCTL_SUBCOMMANDS_H */
