/*
 * HTML output for the dashboard: escaping, page chrome with inline CSS, and safe file names and
 * links. Everything that comes from the results database goes through html_text() or html_url(),
 * because a console line or verdict detail can carry markup ("<script>").
 *
 * Writes are buffered stdio; a page's write errors are collected by the FILE's error flag and
 * checked once in html_page_close(), so the many small writes need no per-call checks.
 */
#ifndef RIG_DASHBOARD_HTML_H
#define RIG_DASHBOARD_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "util/err.h"

/* Text node or attribute value: escapes & < > " '. NULL writes nothing. */
void html_text(FILE *f, const char *s);
/* A URL inside an attribute: percent-encodes everything outside [A-Za-z0-9/._~-]. */
void html_url(FILE *f, const char *s);
/* Literal markup from the program itself (never database text). */
void html_raw(FILE *f, const char *s);
/* Numbers without printf's floating-point path, which dominated chart output: */
void html_long(FILE *f, long v);
/* v rounded to one decimal, the decimal left out when it is zero ("12", "12.5"). */
void html_num(FILE *f, double v);
void html_rawf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Open out_dir/rel_path and write the head: title (escaped), inline CSS, and a nav bar whose links
 * start with root ("" for index.html, "../" for pages one level down).
 */
FILE *html_page_open(const char *out_dir, const char *rel_path, const char *title,
		     const char *root, struct rig_err *err);
/* Write the footer, flush and close; any write error of the page is reported here. */
int html_page_close(FILE *f, const char *rel_path, struct rig_err *err);

/*
 * File name stem for a board: [A-Za-z0-9.-] kept, every other byte (and '_' itself, and a
 * leading '.') as "_XX" in hex, so distinct names get distinct pages ("lab/a" is "lab_2fa",
 * "lab_a" is "lab_5fa"; both were "lab_a" and one page overwrote the other) and a board called
 * "../x" cannot write outside boards/. A name too long for size is cut and ends in "~" and a
 * 64-bit hash of the whole name.
 */
void html_file_stem(const char *name, char *buf, size_t size);

/*
 * Relative link from directory from_dir (absolute) to target (absolute, or relative to cwd),
 * lexically: neither needs to exist. Returns -1 if it does not fit in buf.
 */
int html_relative_link(const char *from_dir, const char *target, const char *cwd, char *buf,
		       size_t size);

#endif
