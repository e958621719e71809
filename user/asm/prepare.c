// SPDX-License-Identifier: GPL-2.0
/*
 * --asm CODE (asm.h): where the snippets go - built and registered as
 * userspace routines (asm.c), or built into a module and loaded (kmod.c) -
 * and undone again.  Neither builder calls the other; this file calls
 * both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "base.h"
#include "twin.h"

/* The snippets measured now, for the report (kb_asm_code()). */
static const struct kb_asm *asm_live;

void kb_asm_free(struct kb_asm *a)
{
	char cmd[4200];

	if (asm_live == a)
		asm_live = NULL;
	kb_asm_user_free(a);
	kb_asm_kernel_unload(a);
	if (a->tmp && a->kernel) {
		/* kbuild's outputs too: the directory is ours (mkdtemp) */
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", a->dir);
		if (system(cmd))
			fprintf(stderr, "%s: --asm: could not remove %s\n", prog,
				a->dir);
		a->tmp = false;
	}
}

const char *kb_asm_code(const char *routine)
{
	unsigned int i;

	for (i = 0; asm_live && i < asm_live->n; i++)
		if (!strcmp(routine, kb_asm_name(i)))
			return asm_live->code[i];
	return NULL;
}

int kb_asm_prepare(const char *sub, struct kb_asm *a)
{
	struct kb_twin t = { 0 };
	unsigned int i;
	int err;

	asm_live = a;
	if (a->kernel) {
		err = kb_asm_kernel_build(sub, a);
		if (err)
			kb_asm_free(a);
		return err;
	}
	err = kb_asm_build(sub, a);
	for (i = 0; !err && !a->built_only && i < a->n; i++) {
		t.name = kb_asm_name(i);
		t.desc = a->code[i];
		t.run = a->run[i];
		t.ptr = a->scratch[i];
		err = kb_twin_register(&t);
	}
	if (err)
		kb_asm_free(a);
	return err;
}
