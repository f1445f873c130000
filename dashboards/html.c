#include "dashboards/html.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Colours carry the meaning; the words in each cell say it too, for colour-blind readers. */
static const char page_css[] =
	"body{font:14px/1.35 system-ui,sans-serif;margin:1em;color:#222}"
	"a{color:#0645ad}nav{margin-bottom:.8em}nav a{margin-right:1em}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{border:1px solid #bbb;padding:3px 6px;vertical-align:top;text-align:left}"
	"th{background:#eee;white-space:nowrap}td.trend{max-width:30em}"
	".pass{background:#b9e4bd}.fail{background:#f4a3a3}.known{background:#ffd37a}"
	".infra,.aborted,.running,.none,.inconclusive{background:#d6d6d6;color:#444}"
	".found{background:#9cc6f2}.range{background:#cfe2f8}"
	"code{font:12px monospace}code.answer{background:#1a5fb4;color:#fff;padding:0 2px}"
	"code.likely{outline:1px dashed #1a5fb4}"
	".oc{display:inline-block;min-width:1.2em;margin-right:1px;text-align:center;"
	"font:bold 11px/1.5 monospace}.op{background:#b9e4bd}.of{background:#f4a3a3}"
	".oh{background:#a01c1c;color:#fff}.oi{background:#d6d6d6;color:#444}"
	"td.cell{min-width:7em;font-size:12px}td.cell .st{font-weight:bold;text-transform:uppercase}"
	".runs a{margin-right:3px}.vn{color:#800}.ki{color:#7a4b00}.cc{color:#800;font-weight:bold}"
	".reg-new{color:#b00;font-weight:bold}.reg-since{color:#b00}.reg-ok{color:#2a6e2e}"
	".reg-none{color:#666}.src-lava{font-size:85%}"
	"pre{background:#f6f6f6;border:1px solid #ccc;padding:.5em;overflow:auto;max-height:20em}"
	"pre.console-tail{max-height:none}"
	"svg{display:block;margin:.3em 0}svg text{font:11px sans-serif}"
	".cycle{border-top:2px solid #999;margin-top:1em}"
	"small{color:#555}";

/* The _unlocked calls: a page belongs to one thread, and stdio locking was a tenth of the time. */
void html_raw(FILE *f, const char *s)
{
	fputs_unlocked(s, f);
}

void html_long(FILE *f, long v)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		*--p = '-';
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

void html_num(FILE *f, double v)
{
	long tenths;

	if (!isfinite(v) || fabs(v) > 1e15) {
		fprintf(f, "%g", v);
		return;
	}
	tenths = lround(v * 10);
	if (tenths < 0 && tenths > -10)
		fputc_unlocked('-', f);
	html_long(f, tenths / 10);
	if (tenths % 10) {
		fputc_unlocked('.', f);
		fputc_unlocked((char)('0' + labs(tenths % 10)), f);
	}
}

void html_rawf(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
}

static const char *entity_of(char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

void html_text(FILE *f, const char *s)
{
	const char *run = s;

	if (!s)
		return;
	/* Copy runs of plain characters in one fwrite: pages are mostly plain text. */
	for (; *s; s++) {
		const char *entity = entity_of(*s);

		if (!entity)
			continue;
		fwrite_unlocked(run, 1, (size_t)(s - run), f);
		fputs_unlocked(entity, f);
		run = s + 1;
	}
	fwrite_unlocked(run, 1, (size_t)(s - run), f);
}

static bool url_safe(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("/._~-", c) != NULL;
}

void html_url(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (url_safe(c))
			fputc_unlocked(c, f);
		else
			fprintf(f, "%%%02X", c);
	}
}

FILE *html_page_open(const char *out_dir, const char *rel_path, const char *title,
		     const char *root, struct rig_err *err)
{
	char path[4096];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", out_dir, rel_path) >= (int)sizeof(path)) {
		rig_err_set(err, RIG_EXIT_USAGE, "dashboard: path too long: %s/%s", out_dir, rel_path);
		return NULL;
	}
	f = fopen(path, "w");
	if (!f) {
		rig_err_set(err, RIG_EXIT_INFRA, "dashboard: cannot write %s: %s", path, strerror(errno));
		return NULL;
	}
	/* Pages are written in many small pieces: a larger buffer means fewer write calls. */
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	html_raw(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<meta name=\"viewport\" content=\"width=device-width\"><title>");
	html_text(f, title);
	html_rawf(f, "</title><style>%s</style></head><body>\n<nav><a href=\"%sindex.html\">"
		     "all boards</a></nav>\n", page_css, root);
	return f;
}

int html_page_close(FILE *f, const char *rel_path, struct rig_err *err)
{
	bool failed;

	html_raw(f, "\n</body></html>\n");
	failed = ferror(f) != 0;
	if (fclose(f) != 0 || failed)
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: cannot write %s: %s", rel_path,
				   strerror(errno));
	return 0;
}

/* FNV-1a: names cut to fit still differ by their whole text. */
static uint64_t name_hash(const char *name)
{
	uint64_t h = 14695981039346656037ULL;

	for (; name && *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ULL;
	return h;
}

void html_file_stem(const char *name, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0, full = 0;

	if (size == 0)
		return;
	for (const char *p = name; p && *p; p++) {
		unsigned char c = (unsigned char)*p;
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '-' || (c == '.' && p != name);
		char enc[3] = { (char)c, 0, 0 };
		size_t len = 1;

		if (!keep) {
			enc[0] = '_';
			enc[1] = hex[c >> 4];
			enc[2] = hex[c & 15];
			len = 3;
		}
		for (size_t i = 0; i < len; i++, full++)
			if (full + 1 < size)
				buf[n++] = enc[i];
	}
	if (full + 1 > size && size > 18) {
		/* Cut: "~" (never produced above) and the hash of the whole name. */
		uint64_t h = name_hash(name);

		n = size - 18;
		buf[n++] = '~';
		for (int i = 15; i >= 0; i--)
			buf[n++] = hex[(h >> (4 * i)) & 15];
	}
	if (n == 0 && size > 1)
		buf[n++] = '_';
	buf[n] = '\0';
}

/* Split an absolute path into its components, dropping "." and resolving ".." lexically. */
static size_t split_path(char *path, char **parts, size_t max)
{
	size_t n = 0;

	for (char *save = NULL, *p = strtok_r(path, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0) {
			n -= n > 0;
			continue;
		}
		if (n == max)
			return max + 1;
		parts[n++] = p;
	}
	return n;
}

static int append(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > size)
		return -1;
	memcpy(buf + *len, s, n + 1);
	*len += n;
	return 0;
}

#define MAX_PARTS 128

int html_relative_link(const char *from_dir, const char *target, const char *cwd, char *buf,
		       size_t size)
{
	char from[4096], to[4096];
	char *fp[MAX_PARTS], *tp[MAX_PARTS];
	size_t nf, nt, common = 0, len = 0;
	int w = target[0] == '/' ? snprintf(to, sizeof(to), "%s", target)
				 : snprintf(to, sizeof(to), "%s/%s", cwd, target);

	if (w < 0 || (size_t)w >= sizeof(to) ||
	    snprintf(from, sizeof(from), "%s", from_dir) >= (int)sizeof(from))
		return -1;
	nf = split_path(from, fp, MAX_PARTS);
	nt = split_path(to, tp, MAX_PARTS);
	if (nf > MAX_PARTS || nt > MAX_PARTS || size == 0)
		return -1;
	while (common < nf && common < nt && strcmp(fp[common], tp[common]) == 0)
		common++;
	buf[0] = '\0';
	for (size_t i = common; i < nf; i++)
		if (append(buf, size, &len, "../"))
			return -1;
	for (size_t i = common; i < nt; i++)
		if (append(buf, size, &len, tp[i]) || (i + 1 < nt && append(buf, size, &len, "/")))
			return -1;
	return 0;
}
