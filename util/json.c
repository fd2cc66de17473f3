/*
 * json.c: writing a C string as a JSON string literal (see util.h): the
 * quotes around it, '"' and '\\' escaped with a backslash, control
 * characters as \u00XX, every other byte as it is (UTF-8 passes through).
 * One escaping loop, handed a sink, serves files and memory buffers.
 */
#include <stdio.h>
#include <string.h>

#include "util.h"

void json_write_str(const char *s, json_put_fn put, void *arg)
{
	char esc[8];

	put(arg, "\"", 1);
	while (*s) {
		size_t n = strcspn(s, "\"\\\x01\x02\x03\x04\x05\x06\x07\x08\x09"
				      "\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13"
				      "\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d"
				      "\x1e\x1f");
		unsigned char c;

		if (n > 0) {
			put(arg, s, n);
			s += n;
			continue;
		}
		c = (unsigned char)*s++;
		if (c == '"' || c == '\\')
			snprintf(esc, sizeof(esc), "\\%c", c);
		else
			snprintf(esc, sizeof(esc), "\\u%04x", c);
		put(arg, esc, strlen(esc));
	}
	put(arg, "\"", 1);
}

static void put_file(void *arg, const char *s, size_t n)
{
	fwrite(s, 1, n, (FILE *)arg);
}

void json_fputs_str(FILE *f, const char *s)
{
	json_write_str(s, put_file, f);
}
