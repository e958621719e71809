// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl option tables: the parser, the range checks, the --help lines
 * and the names of options in the kernel's error messages.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kbench.h>

#include "color.h"
#include "opts.h"
#include "output.h"

#define KB_OPTS_MAX	64
#define KB_OPT_VAL_BASE	0x100	/* getopt value of row i: base + i */
#define USAGE_COLUMN	25	/* where the help text starts */
#define USAGE_WIDTH	79

struct kb_common_opts kb_common;

const struct kb_opt kb_common_table[] = {
	{ .name = "json", .short_name = 'j', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct kb_common_opts, json),
	  .help = "one JSON document on stdout (keys in JSON.md)" },
	{ .name = "color", .kind = KB_OPT_CHOICE, .metavar = "WHEN",
	  .choices = kb_color_choices, KB_OPT_FIELD(struct kb_common_opts, color),
	  .help = "colour verdicts and warnings", .def = "auto: on a terminal, without NO_COLOR" },
	{ .name = "help", .short_name = 'h', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct kb_common_opts, help),
	  .help = "this help" },
	{ NULL }
};

/* the subcommand being parsed, for messages */
static const char *cur_sub;

int kb_opt_error(const struct kb_opt *o, const char *arg, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return kb_arg_error(cur_sub, "--%s%s%s: %s", o->name, arg ? " " : "",
			    arg ? (*arg ? arg : "''") : "", msg);
}

static bool is_int_kind(const struct kb_opt *o)
{
	return o->kind == KB_OPT_U32 || o->kind == KB_OPT_U64;
}

static bool has_range(const struct kb_opt *o)
{
	return o->min != 0 || o->max != 0;
}

/* "1 to 16777216", "at least 0", "0 to 4294967295" */
static void range_text(const struct kb_opt *o, char *buf, size_t len)
{
	if (is_int_kind(o) && !has_range(o))
		snprintf(buf, len, "0 to %s", o->kind == KB_OPT_U32 ?
			 "4294967295" : "18446744073709551615");
	else if (o->kind == KB_OPT_DOUBLE && o->max == 0)
		snprintf(buf, len, "at least %g", o->min);
	else if (o->kind == KB_OPT_DOUBLE)
		snprintf(buf, len, "%g to %g", o->min, o->max);
	else
		snprintf(buf, len, "%.0f to %.0f", o->min, o->max);
}

static int parse_int(const struct kb_opt *o, const char *arg, void *field)
{
	uint64_t tmax = o->kind == KB_OPT_U32 ? UINT32_MAX : UINT64_MAX;
	unsigned long long v;
	const char *p = arg;
	bool neg = *p == '-';
	char range[64];
	char *end;

	range_text(o, range, sizeof(range));
	if (neg)
		p++;
	if (*p < '0' || *p > '9')
		return kb_opt_error(o, arg, "not a whole number (%s)", range);
	errno = 0;
	v = strtoull(p, &end, 10);
	if (*end)
		return kb_opt_error(o, arg, "not a whole number (%s)", range);
	if (neg && v)
		return kb_opt_error(o, arg, "at least %.0f", o->min);
	if (errno == ERANGE || v > tmax)
		return kb_opt_error(o, arg, "at most %llu", (unsigned long long)
				    (has_range(o) ? (uint64_t)o->max : tmax));
	if (has_range(o) && (double)v > o->max)
		return kb_opt_error(o, arg, "at most %.0f", o->max);
	if ((double)v < o->min)
		return kb_opt_error(o, arg, "at least %.0f", o->min);
	if (o->kind == KB_OPT_U32)
		*(uint32_t *)field = (uint32_t)v;
	else
		*(uint64_t *)field = v;
	return 0;
}

static int parse_dbl(const struct kb_opt *o, const char *arg, void *field)
{
	char range[64];
	double v;

	range_text(o, range, sizeof(range));
	if (parse_double(arg, &v))
		return kb_opt_error(o, arg, "not a number (%s)", range);
	if (v < o->min)
		return kb_opt_error(o, arg, "at least %g", o->min);
	if (o->max != 0 && v > o->max)
		return kb_opt_error(o, arg, "at most %g", o->max);
	*(double *)field = v;
	return 0;
}

static void choices_text(const struct kb_opt *o, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; o->choices[i]; i++)
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
					 "%s%s", i ? (o->choices[i + 1] ? ", " : " or ") : "",
					 o->choices[i]);
}

static int parse_choice(const struct kb_opt *o, const char *arg, void *field)
{
	char list[128];
	int i;

	for (i = 0; o->choices[i]; i++) {
		if (!strcmp(o->choices[i], arg)) {
			*(int *)field = i;
			return 0;
		}
	}
	choices_text(o, list, sizeof(list));
	return kb_opt_error(o, arg, "want %s", list);
}

int kb_opt_parse_value(const struct kb_opt *o, const char *arg, void *field)
{
	switch (o->kind) {
	case KB_OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case KB_OPT_U32:
	case KB_OPT_U64:
		return parse_int(o, arg, field);
	case KB_OPT_DOUBLE:
		return parse_dbl(o, arg, field);
	case KB_OPT_STRING:
		*(const char **)field = arg;
		return 0;
	case KB_OPT_CHOICE:
		return parse_choice(o, arg, field);
	}
	return -EINVAL;
}

/* Store @arg (NULL for flags) into @o's field of @base. */
static int opt_set(const struct kb_opt *o, const char *arg, void *base)
{
	void *field = (char *)base + o->off;
	int err;

	err = o->parse ? o->parse(o, arg, field) :
			 kb_opt_parse_value(o, arg, field);
	if (!err && o->given)
		*(bool *)((char *)base + o->given - 1) = true;
	return err;
}

static bool row_in(const struct kb_opt *o, const struct subcommand *sc)
{
	return !o->in || (o->in & sc->opts_in);
}

struct rowset {
	const struct kb_opt *o[KB_OPTS_MAX];
	void *base[KB_OPTS_MAX];
	size_t n;
};

/* The rows @sc takes: the common ones first, then its table's. */
static void rows_of(const struct subcommand *sc, void *target,
		    struct rowset *rs)
{
	const struct kb_opt *o;

	rs->n = 0;
	for (o = kb_common_table; o->name && rs->n < KB_OPTS_MAX; o++) {
		rs->o[rs->n] = o;
		rs->base[rs->n++] = &kb_common;
	}
	for (o = sc->opts; o && o->name && rs->n < KB_OPTS_MAX; o++) {
		if (!row_in(o, sc))
			continue;
		rs->o[rs->n] = o;
		rs->base[rs->n++] = target;
	}
}

unsigned int kb_edit_distance(const char *a, const char *b)
{
	unsigned int d[65], i, j, prev, tmp;
	size_t la = strlen(a), lb = strlen(b);

	if (la > 64 || lb > 64)
		return 9;
	for (j = 0; j <= lb; j++)
		d[j] = j;
	for (i = 1; i <= la; i++) {
		prev = d[0];
		d[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = d[j];
			d[j] = a[i - 1] == b[j - 1] ? prev :
			       1 + (prev < d[j] ? (prev < d[j - 1] ? prev : d[j - 1]) :
					       (d[j] < d[j - 1] ? d[j] : d[j - 1]));
			prev = tmp;
		}
	}
	return d[lb] > 9 ? 9 : d[lb];
}

/* An unknown or ambiguous long option: say which ones it could be. */
static int unknown_option(const struct subcommand *sc, const struct rowset *rs,
			  const char *word)
{
	char name[64], list[256] = "";
	const char *best = NULL;
	unsigned int best_d = 3, d, nprefix = 0;
	size_t len, used = 0, i;

	snprintf(name, sizeof(name), "%s", word + 2);
	name[strcspn(name, "=")] = '\0';
	len = strlen(name);
	for (i = 0; i < rs->n; i++) {
		if (len && !strncmp(rs->o[i]->name, name, len)) {
			nprefix++;
			used += (size_t)snprintf(list + used, used < sizeof(list) ?
						 sizeof(list) - used : 0, "%s--%s",
						 used ? ", " : "", rs->o[i]->name);
		}
		d = kb_edit_distance(name, rs->o[i]->name);
		if (d < best_d) {
			best_d = d;
			best = rs->o[i]->name;
		}
	}
	if (nprefix > 1)
		return kb_arg_error(sc->name, "ambiguous option '--%s': %s", name,
				    list);
	if (best)
		return kb_arg_error(sc->name, "unknown option '--%s' (did you mean --%s?)",
				    name, best);
	usage_error(sc->name, "unknown option '--%s'", name);
	return -EINVAL;
}

int kb_opts_parse(const struct subcommand *sc, int argc, char *argv[],
		  void *target, int *first)
{
	struct option longopts[KB_OPTS_MAX + 1];
	char shortopts[3 * KB_OPTS_MAX + 4];
	struct rowset rs;
	size_t i, ns = 0;
	int c;

	cur_sub = sc->name;
	rows_of(sc, target, &rs);
	/* the global options end at the subcommand's name */
	if (!sc->name)
		shortopts[ns++] = '+';
	shortopts[ns++] = ':';
	for (i = 0; i < rs.n; i++) {
		const struct kb_opt *o = rs.o[i];
		bool arg = o->kind != KB_OPT_FLAG;

		longopts[i] = (struct option){ o->name,
			arg ? required_argument : no_argument, NULL,
			KB_OPT_VAL_BASE + (int)i };
		if (o->short_name) {
			shortopts[ns++] = o->short_name;
			if (arg)
				shortopts[ns++] = ':';
		}
		/* defaults of the subcommand's own fields */
		if (rs.base[i] != &kb_common && o->def && !o->given)
			opt_set(o, o->def, rs.base[i]);
	}
	longopts[rs.n] = (struct option){ 0 };
	shortopts[ns] = '\0';

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct kb_opt *o = NULL;
		void *base = NULL;

		if (c == '?' || c == ':') {
			/* optopt: the row's value, the short option, or 0 */
			for (i = 0; i < rs.n && optopt; i++)
				if (optopt == KB_OPT_VAL_BASE + (int)i ||
				    optopt == rs.o[i]->short_name)
					o = rs.o[i];
			if (c == ':' && o)
				return kb_arg_error(sc->name, "--%s needs a value (--%s %s)",
						    o->name, o->name, o->metavar);
			if (o)
				return kb_arg_error(sc->name, "--%s takes no value",
						    o->name);
			if (optopt) {
				usage_error(sc->name, "unknown option '-%c'", optopt);
				return -EINVAL;
			}
			return unknown_option(sc, &rs, argv[optind - 1]);
		}
		for (i = 0; i < rs.n; i++) {
			if (c == KB_OPT_VAL_BASE + (int)i ||
			    (c < KB_OPT_VAL_BASE && c == rs.o[i]->short_name)) {
				o = rs.o[i];
				base = rs.base[i];
				break;
			}
		}
		if (!o || opt_set(o, optarg, base))
			return -EINVAL;
		if (kb_common.help) {
			kb_common.help = false;
			subcommand_usage(stdout, sc);
			return 1;
		}
		if (kb_common.json && !opt_json) {
			opt_json = true;
			out_init(stdout, true);
		}
		opt_color = kb_common.color;
	}
	*first = optind;
	return 0;
}

/* Append "; text" or " (text" to an extras list. */
static void extra(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
}

/* Write @text from column @col, wrapped at USAGE_WIDTH and indented. */
static void wrap(FILE *f, const char *text, size_t col)
{
	const char *p = text;

	while (*p) {
		size_t room = USAGE_WIDTH - col, n = strlen(p);

		if (n > room) {
			n = room;
			while (n && p[n] != ' ')
				n--;
			if (!n)
				n = strcspn(p, " ");
		}
		fprintf(f, "%.*s", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
		if (*p) {
			fprintf(f, "\n%*s", USAGE_COLUMN, "");
			col = USAGE_COLUMN;
		}
	}
	fputc('\n', f);
}

static void usage_row(FILE *f, const struct kb_opt *o)
{
	char left[48], extras[256] = "", tmp[128], text[512];

	snprintf(left, sizeof(left), "%c%c%c --%s%s%s",
		 o->short_name ? '-' : ' ', o->short_name ? o->short_name : ' ',
		 o->short_name ? ',' : ' ', o->name, o->metavar ? " " : "",
		 o->metavar ? o->metavar : "");
	if ((is_int_kind(o) && has_range(o)) || o->kind == KB_OPT_DOUBLE) {
		range_text(o, tmp, sizeof(tmp));
		extra(extras, sizeof(extras), tmp);
	}
	if (o->info_param) {
		snprintf(tmp, sizeof(tmp), "in the kernel at most %s", o->info_param);
		if (o->info_scale > 1)
			snprintf(tmp + strlen(tmp), sizeof(tmp) - strlen(tmp),
				 " x %u", o->info_scale);
		extra(extras, sizeof(extras), tmp);
	}
	if (o->choices) {
		choices_text(o, tmp, sizeof(tmp));
		extra(extras, sizeof(extras), tmp);
	}
	if (o->def) {
		snprintf(tmp, sizeof(tmp), "default: %s", o->def);
		extra(extras, sizeof(extras), tmp);
	}
	snprintf(text, sizeof(text), "%s%s%s%s", o->help, extras[0] ? " (" : "",
		 extras, extras[0] ? ")" : "");
	fprintf(f, "  %-*s", USAGE_COLUMN - 3, left);
	if (strlen(left) > USAGE_COLUMN - 3) {
		fprintf(f, "\n%*s", USAGE_COLUMN, "");
	} else {
		fputc(' ', f);
	}
	wrap(f, text, USAGE_COLUMN);
}

void kb_opts_usage(FILE *f, const struct subcommand *sc)
{
	const struct kb_opt *o;

	for (o = sc->opts; o && o->name; o++)
		if (row_in(o, sc))
			usage_row(f, o);
	for (o = kb_common_table; o->name; o++)
		usage_row(f, o);
}

void subcommand_usage(FILE *f, const struct subcommand *sc)
{
	const struct subcommand *s;

	/* the description as a sentence */
	fprintf(f, "Usage: %s %s\n\n%c%s%s\n", prog, sc->synopsis,
		toupper((unsigned char)sc->description[0]), sc->description + 1,
		sc->name ? "." : "");
	if (!sc->name) {
		fprintf(f, "\nSubcommands:\n");
		for (s = sc->subs; s && s->name; s++)
			fprintf(f, "  %-9s %s\n", s->name, s->description);
	}
	fprintf(f, "\nOptions:\n");
	kb_opts_usage(f, sc);
	if (sc->notes)
		fprintf(f, "\n%s", sc->notes);
}

int kb_opts_check_info(const struct kb_opt *t, unsigned int in,
		       const void *target, const uint32_t *info_u32,
		       size_t ninfo)
{
	const struct kb_opt *o;

	for (o = t; o->name; o++) {
		const char *base = target;
		uint64_t v, max;
		char arg[24], scale[16];

		if ((o->in && !(o->in & in)) || !o->info_max ||
		    o->info_max >= ninfo || !info_u32[o->info_max] ||
		    o->kind != KB_OPT_U32 ||
		    (o->given && !*(const bool *)(base + o->given - 1)))
			continue;
		v = *(const uint32_t *)(base + o->off);
		max = (uint64_t)info_u32[o->info_max] *
		      (o->info_scale ? o->info_scale : 1);
		if (v <= max)
			continue;
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)v);
		snprintf(scale, sizeof(scale), " x %u", o->info_scale);
		return kb_opt_error(o, arg, "at most %llu (module parameter %s%s)",
				    (unsigned long long)max, o->info_param,
				    o->info_scale > 1 ? scale : "");
	}
	return 0;
}

int kb_opts_parse_noargs(const struct subcommand *sc, int argc, char *argv[],
			 void *target)
{
	int first, err;

	err = kb_opts_parse(sc, argc, argv, target, &first);
	if (err)
		return err;
	if (first < argc)
		return kb_arg_error(sc->name, "unexpected argument '%s' (%s takes no arguments)",
				    argv[first], sc->name);
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
