// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl output layer: one call per value, table or JSON.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "output.h"

#define OUT_DEPTH_MAX 32

static FILE *out_f;
static bool out_is_json;
static int depth;
/* Per nesting level: is it an array, has it an element yet. */
static bool level_array[OUT_DEPTH_MAX];
static bool level_used[OUT_DEPTH_MAX];
/* objects written on one line (long streams of small records) */
static bool level_inline[OUT_DEPTH_MAX];
static bool next_inline;

void out_init(FILE *f, bool json)
{
	out_f = f;
	out_is_json = json;
	depth = 0;
}

bool out_json(void)
{
	return out_is_json;
}

FILE *out_file(void)
{
	return out_f ? out_f : stdout;
}

/* One byte of a JSON string as written there (1, 2 or 6 characters). */
static size_t json_escape_char(char *dst, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char e = 0;

	switch (c) {
	case '"':  e = '"'; break;
	case '\\': e = '\\'; break;
	case '\b': e = 'b'; break;
	case '\f': e = 'f'; break;
	case '\n': e = 'n'; break;
	case '\r': e = 'r'; break;
	case '\t': e = 't'; break;
	default:
		if (c >= 0x20 && c != 0x7f) {
			dst[0] = (char)c;
			return 1;
		}
		memcpy(dst, "\\u00", 4);
		dst[4] = hex[c >> 4];
		dst[5] = hex[c & 15];
		return 6;
	}
	dst[0] = '\\';
	dst[1] = e;
	return 2;
}

void json_write_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char esc[6];

	putc('"', f);
	for (; *p; p++)
		fwrite(esc, 1, json_escape_char(esc, *p), f);
	putc('"', f);
}

void json_write_double(FILE *f, double v)
{
	char buf[40];
	int prec;

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	if (v == 0) {
		fputs("0", f);
		return;
	}
	/* integers as integers (6000, not 6e+03) */
	if (v == floor(v) && fabs(v) < 1e15) {
		fprintf(f, "%.0f", v);
		return;
	}
	/* the shortest form that reads back exactly, like repr() */
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

const char kb_digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

static void indent(void)
{
	static const char spaces[] = "\n                                                                ";
	size_t n = 1 + 2 * (size_t)depth;

	if (n > sizeof(spaces) - 1)
		n = sizeof(spaces) - 1;
	fwrite(spaces, 1, n, out_file());
}

/* Separator, indentation and "key": before a JSON value. */
static void json_key(const char *key)
{
	FILE *f = out_file();

	if (depth > 0) {
		bool in = depth <= OUT_DEPTH_MAX && level_inline[depth - 1];

		if (level_used[depth - 1])
			fputs(in ? ", " : ",", f);
		level_used[depth - 1] = true;
		if (!in)
			indent();
		if (!level_array[depth - 1]) {
			json_write_string(f, key ? key : "");
			fputs(": ", f);
		}
	}
}

static void open_level(const char *key, bool array)
{
	if (!out_is_json)
		return;
	json_key(key);
	putc(array ? '[' : '{', out_file());
	if (depth < OUT_DEPTH_MAX) {
		level_array[depth] = array;
		level_used[depth] = false;
		level_inline[depth] = next_inline;
	}
	next_inline = false;
	depth++;
}

static void close_level(void)
{
	bool array, used;

	if (!out_is_json || depth == 0)
		return;
	depth--;
	array = depth < OUT_DEPTH_MAX ? level_array[depth] : false;
	used = depth < OUT_DEPTH_MAX ? level_used[depth] : true;
	if (used && !(depth < OUT_DEPTH_MAX && level_inline[depth]))
		indent();
	putc(array ? ']' : '}', out_file());
}

void out_open_object(const char *key)
{
	open_level(key, false);
}

void out_open_object_inline(const char *key)
{
	next_inline = true;
	open_level(key, false);
	next_inline = false;
}

void out_close_object(void)
{
	close_level();
}

void out_open_array(const char *key)
{
	open_level(key, true);
}

void out_close_array(void)
{
	close_level();
}

void out_finish(void)
{
	if (!out_is_json)
		return;
	while (depth > 0)
		close_level();
	putc('\n', out_file());
}

/* Should a JSON value be written at all (a key, or inside an array)? */
static bool json_wants(const char *key)
{
	if (!out_is_json)
		return false;
	if (depth > 0 && depth <= OUT_DEPTH_MAX && level_array[depth - 1])
		return true;
	return key != NULL;
}

/* JSON: a value is to be written (true, its key written); text: false. */
static bool json_value(const char *key)
{
	if (!json_wants(key))
		return false;
	json_key(key);
	return true;
}

/* Text: with a format (none: a value only JSON has). */
static bool text_value(const char *fmt)
{
	return !out_is_json && fmt;
}

void out_uint(const char *key, const char *fmt, uint64_t v)
{
	if (json_value(key))
		fprintf(out_file(), "%llu", (unsigned long long)v);
	else if (text_value(fmt))
		fprintf(out_file(), fmt, (unsigned long long)v);
}

void out_int(const char *key, const char *fmt, int64_t v)
{
	if (json_value(key))
		fprintf(out_file(), "%lld", (long long)v);
	else if (text_value(fmt))
		fprintf(out_file(), fmt, (long long)v);
}

/* Print a non-finite value as "-" in the field width of a %f format. */
static void text_dash(const char *fmt)
{
	const char *p = strchr(fmt, '%');
	bool left;

	if (!p) {
		fputs(fmt, out_file());
		return;
	}
	fwrite(fmt, 1, (size_t)(p - fmt), out_file());
	left = *++p == '-';
	fprintf(out_file(), "%*s", (left ? -1 : 1) * atoi(p + left), "-");
	while (*p && !strchr("eEfgGaA", *p))
		p++;
	if (*p)
		fputs(p + 1, out_file());
}

void out_double(const char *key, const char *fmt, double v)
{
	if (json_value(key))
		json_write_double(out_file(), v);
	else if (text_value(fmt) && isfinite(v))
		fprintf(out_file(), fmt, v);
	else if (text_value(fmt))
		text_dash(fmt);
}

void out_string(const char *key, const char *fmt, const char *s)
{
	if (json_value(key)) {
		if (s)
			json_write_string(out_file(), s);
		else
			fputs("null", out_file());
	} else if (text_value(fmt)) {
		fprintf(out_file(), fmt, s ? s : "-");
	}
}

void out_bool(const char *key, const char *fmt, bool v)
{
	if (json_value(key))
		fputs(v ? "true" : "false", out_file());
	else if (text_value(fmt))
		fprintf(out_file(), fmt, v ? "yes" : "no");
}

void out_null(const char *key)
{
	if (json_value(key))
		fputs("null", out_file());
}

void out_text(const char *fmt, ...)
{
	va_list ap;

	if (out_is_json)
		return;
	va_start(ap, fmt);
	vfprintf(out_file(), fmt, ap);
	va_end(ap);
}

void kb_flags_json(const char *key, const struct kb_flag_name *t, uint32_t v)
{
	char hex[16];
	uint32_t known = 0;

	if (!out_json())
		return;
	out_open_array(key);
	for (; t->name; t++) {
		known |= t->bit;
		if (v & t->bit)
			out_string(NULL, NULL, t->name);
	}
	if (v & ~known) {
		snprintf(hex, sizeof(hex), "0x%x", v & ~known);
		out_string(NULL, NULL, hex);
	}
	out_close_array();
}

void kb_sweep_format(uint64_t v, bool bytes, char *buf, size_t len)
{
	static const char suffix[] = "GMK";
	unsigned int i;

	for (i = 0; bytes && i < 3 && v; i++) {
		unsigned int shift = 10 * (3 - i);

		if (!(v & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(v >> shift), suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}
