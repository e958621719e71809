// SPDX-License-Identifier: GPL-2.0
/*
 * --arg SPEC: one value, a list, or an arithmetic or geometric range.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "sweep.h"

static int fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * One number of @len characters at @s: decimal digits and an optional
 * K, M or G.  0 or -EINVAL (message in @err).
 */
static int parse_num(const char *s, size_t len, uint64_t *v, char *err,
		     size_t errlen)
{
	static const char suffix[] = "KMG";
	unsigned int shift = 0;
	uint64_t x = 0, d;
	const char *p;
	size_t i, digits = len;

	if (!len)
		return fail(err, errlen, "a value is missing");
	if (s[0] == '-')
		return fail(err, errlen, "'%.*s' is negative: values are 0 or more",
			    (int)len, s);
	p = strchr(suffix, s[len - 1]);
	if (p && s[len - 1]) {
		shift = 10 * (unsigned int)(p - suffix + 1);
		digits--;
	}
	if (!digits)
		return fail(err, errlen, "'%.*s' is not a whole number", (int)len, s);
	for (i = 0; i < digits; i++) {
		if (s[i] < '0' || s[i] > '9')
			return fail(err, errlen,
				    "'%.*s' is not a whole number (digits, then K, M or G for 1024, 1024^2, 1024^3)",
				    (int)len, s);
		d = (uint64_t)(s[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return fail(err, errlen, "'%.*s' is above 18446744073709551615",
				    (int)len, s);
		x = x * 10 + d;
	}
	if (shift && x > UINT64_MAX >> shift)
		return fail(err, errlen, "'%.*s' is above 18446744073709551615",
			    (int)len, s);
	*v = x << shift;
	return 0;
}

static int parse_list(const char *spec, struct kb_sweep *sw, char *err,
		      size_t errlen)
{
	const char *p = spec, *comma;
	unsigned int i, count = 1;
	uint64_t v;
	int ret;

	for (comma = spec; (comma = strchr(comma, ',')); comma++)
		count++;
	if (count > KB_SWEEP_MAX)
		return fail(err, errlen, "%u values: at most %d", count,
			    KB_SWEEP_MAX);
	sw->kind = count > 1 ? KB_SWEEP_LIST : KB_SWEEP_ONE;
	for (;;) {
		comma = strchr(p, ',');
		if (comma == p || (!comma && !*p))
			return fail(err, errlen, "an empty value in the list");
		ret = parse_num(p, comma ? (size_t)(comma - p) : strlen(p), &v,
				err, errlen);
		if (ret)
			return ret;
		for (i = 0; i < sw->n; i++)
			if (sw->v[i] == v)
				return fail(err, errlen, "%llu is given twice",
					    (unsigned long long)v);
		sw->v[sw->n++] = v;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int parse_range(const char *spec, const char *dots, struct kb_sweep *sw,
		       char *err, size_t errlen)
{
	const char *colon = strchr(dots + 2, ':'), *step;
	uint64_t a, b, s, v, count = 0;
	int ret;

	if (!colon)
		return fail(err, errlen,
			    "a range needs a step: %s:x2 (geometric) or %s:+1 (arithmetic)",
			    spec, spec);
	ret = parse_num(spec, (size_t)(dots - spec), &a, err, errlen);
	if (!ret)
		ret = parse_num(dots + 2, (size_t)(colon - dots - 2), &b, err,
				errlen);
	if (ret)
		return ret;
	if (a > b)
		return fail(err, errlen,
			    "the range %llu..%llu is reversed: the first value is the smallest",
			    (unsigned long long)a, (unsigned long long)b);
	step = colon + 1;
	if (*step != '+' && *step != 'x')
		return fail(err, errlen,
			    "step '%s': +S (arithmetic: add S) or xK (geometric: multiply by K)",
			    step);
	ret = parse_num(step + 1, strlen(step + 1), &s, err, errlen);
	if (ret)
		return ret;
	sw->step = s;
	if (*step == '+') {
		if (!s)
			return fail(err, errlen, "step +0 never moves: at least +1");
		sw->kind = KB_SWEEP_ARITH;
		/* (b - a) / s + 1 values, counted without wrapping */
		if ((b - a) / s < KB_SWEEP_MAX)
			count = (b - a) / s + 1;
		else
			count = UINT64_MAX;
	} else {
		if (s < 2)
			return fail(err, errlen,
				    "factor x%llu never moves: at least x2",
				    (unsigned long long)s);
		if (!a)
			return fail(err, errlen,
				    "a geometric range cannot start at 0 (0 x %llu is 0): start at 1 or more",
				    (unsigned long long)s);
		sw->kind = KB_SWEEP_GEOM;
		for (count = 0, v = a; v <= b; v *= s) {
			count++;
			if (v > b / s)
				break;
		}
	}
	if (count > KB_SWEEP_MAX)
		return fail(err, errlen,
			    "more than %d values (a larger step, or a narrower range)",
			    KB_SWEEP_MAX);
	for (v = a; sw->n < count; sw->n++) {
		sw->v[sw->n] = v;
		/* the last value may be close to UINT64_MAX: never wrap */
		if (sw->n + 1 < count)
			v = sw->kind == KB_SWEEP_ARITH ? v + s : v * s;
	}
	return 0;
}

int kb_sweep_parse(const char *spec, struct kb_sweep *sw, char *err,
		   size_t errlen)
{
	const char *dots;

	memset(sw, 0, sizeof(*sw));
	sw->spec = spec;
	if (!spec || !*spec)
		return fail(err, errlen,
			    "empty: give a value (64), a list (1,3,7) or a range with a step (64..65536:x2, 0..100:+10)");
	dots = strstr(spec, "..");
	if (!dots)
		return parse_list(spec, sw, err, errlen);
	if (strchr(spec, ','))
		return fail(err, errlen, "a list (1,3,7) or a range (1..7:+2), not both");
	return parse_range(spec, dots, sw, err, errlen);
}

static void crossing(struct kb_crossing *c, unsigned int *n, unsigned int max,
		     double low, double high, double at, bool exact, int below,
		     int above)
{
	if (*n < max)
		c[*n] = (struct kb_crossing){ low, high, at, exact, below, above };
	(*n)++;
}

unsigned int kb_sweep_crossings(const double *x, const double *d, size_t n,
				bool log, struct kb_crossing *c,
				unsigned int max)
{
	double d0 = 0, x0 = 0, at, zero[KB_SWEEP_MAX];
	unsigned int count = 0, nz = 0, z;
	size_t i;

	for (i = 0; i < n; i++) {
		if (d[i] == 0) {
			if (nz < KB_SWEEP_MAX)
				zero[nz++] = x[i];
			continue;
		}
		if (d0 != 0 && (d[i] < 0) != (d0 < 0)) {
			if (nz)
				at = zero[0];
			else if (log && x0 > 0 && x[i] > 0)
				at = exp2(log2(x0) + (log2(x[i]) - log2(x0)) *
					  d0 / (d0 - d[i]));
			else
				at = x0 + (x[i] - x0) * d0 / (d0 - d[i]);
			crossing(c, &count, max, x0, x[i], at, nz, d0 < 0 ? -1 : 1,
				 d[i] < 0 ? -1 : 1);
		} else {
			for (z = 0; z < nz; z++)
				crossing(c, &count, max, zero[z], zero[z], zero[z],
					 true, 0, 0);
		}
		nz = 0;
		d0 = d[i];
		x0 = x[i];
	}
	for (z = 0; z < nz; z++)
		crossing(c, &count, max, zero[z], zero[z], zero[z], true, 0, 0);
	return count < max ? count : max;
}

int kb_sweep_opt_parse(const struct kb_opt *o, const char *arg, void *field)
{
	char err[256];

	if (kb_sweep_parse(arg, field, err, sizeof(err)))
		return kb_opt_error(o, arg, "%s", err);
	return 0;
}
