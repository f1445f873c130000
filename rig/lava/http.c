#include "lava/http.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TOKEN_MAX 256

struct body {
	char *data;
	size_t len;
	int too_big;
};

static size_t on_data(char *ptr, size_t size, size_t n, void *user)
{
	struct body *b = user;
	size_t add = size * n;
	char *grown;

	if (b->len + add > (size_t)LAVA_HTTP_MAX_BODY) {
		b->too_big = 1;
		return 0;  /* makes curl fail the transfer */
	}
	if (!(grown = realloc(b->data, b->len + add + 1)))
		return 0;
	b->data = grown;
	memcpy(b->data + b->len, ptr, add);
	b->len += add;
	b->data[b->len] = '\0';
	return add;
}

static int read_token(const char *path, char **token, struct rig_err *err)
{
	char buf[TOKEN_MAX + 2];
	struct stat st;
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return rig_err_set(err, RIG_EXIT_USAGE, "token file %s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) == 0 && (st.st_mode & 0077)) {
		fclose(f);
		return rig_err_set(err, RIG_EXIT_USAGE, "token file %s: readable by others (chmod 600)",
				   path);
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	if (!*buf || strlen(buf) > TOKEN_MAX || buf[strspn(buf, "abcdefghijklmnopqrstuvwxyz"
					       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")])
		return rig_err_set(err, RIG_EXIT_USAGE, "token file %s: not a LAVA token", path);
	*token = strdup(buf);
	return *token ? 0 : rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
}

int lava_server_init(struct lava_server *s, const char *url, const char *token_file,
		     struct rig_err *err)
{
	const char *env_token = getenv("RIG_LAVA_TOKEN");
	size_t n;

	memset(s, 0, sizeof(*s));
	if (!url || !*url)
		url = getenv("RIG_LAVA_SERVER");
	if (!url || !*url)
		return rig_err_set(err, RIG_EXIT_USAGE, "no LAVA server: give --server URL (or set "
				   "RIG_LAVA_SERVER)");
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		return rig_err_set(err, RIG_EXIT_USAGE, "--server: '%s' is not an http(s) URL", url);
	if (!(s->url = strdup(url)))
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	n = strlen(s->url);
	while (n > 0 && s->url[n - 1] == '/')
		s->url[--n] = '\0';
	if (!token_file || !*token_file)
		token_file = getenv("RIG_LAVA_TOKEN_FILE");
	if (token_file && *token_file)
		return read_token(token_file, &s->token, err);
	if (env_token && *env_token && !(s->token = strdup(env_token)))
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	return 0;
}

void lava_server_free(struct lava_server *s)
{
	free(s->url);
	free(s->token);
	memset(s, 0, sizeof(*s));
}

/* The server's own complaint: DRF answers {"detail": "..."} or {"field": ["..."]}. */
static void quote_answer(const char *body, char *buf, size_t size)
{
	json_t *j = body ? json_loads(body, 0, NULL) : NULL;
	json_t *detail = json_object_get(j, "detail");
	char *dump = NULL;

	if (json_is_string(detail))
		snprintf(buf, size, "%s", json_string_value(detail));
	else if (j && (dump = json_dumps(j, JSON_COMPACT)))
		snprintf(buf, size, "%s", dump);
	else
		snprintf(buf, size, "%.200s", body ? body : "");
	free(dump);
	json_decref(j);
}

static int perform_body(const struct lava_server *s, const char *url, const char *post,
			const char *accept, struct body *answer, struct rig_err *err);

static int perform(const struct lava_server *s, const char *url, const char *post, json_t **out,
		   struct rig_err *err)
{
	struct body b = { 0 };
	json_error_t jerr;
	int ret;

	*out = NULL;
	ret = perform_body(s, url, post, "Accept: application/json", &b, err);
	if (!ret && !(*out = json_loadb(b.data ? b.data : "", b.len, 0, &jerr)))
		ret = rig_err_set(err, RIG_EXIT_INFRA, "LAVA %s: not JSON: %s", url, jerr.text);
	free(b.data);
	return ret;
}

int lava_http_get_text(const struct lava_server *s, const char *url, char **text, size_t *len,
		       struct rig_err *err)
{
	struct body b = { 0 };
	int ret = perform_body(s, url, NULL, "Accept: */*", &b, err);

	*text = NULL;
	*len = 0;
	if (ret) {
		free(b.data);
		return ret;
	}
	*text = b.data ? b.data : strdup("");
	*len = b.len;
	return *text ? 0 : rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
}

/* The request itself: the answer's body in *answer (the caller frees answer->data). */
static int perform_body(const struct lava_server *s, const char *url, const char *post,
			const char *accept, struct body *answer, struct rig_err *err)
{
	char full[4096], auth[TOKEN_MAX + 32], errbuf[CURL_ERROR_SIZE] = "", said[512];
	struct curl_slist *headers = NULL;
	struct body b = { 0 };
	long status = 0;
	CURL *c;
	CURLcode rc;
	int ret = 0;

	if (snprintf(full, sizeof(full), "%s%s", strncmp(url, "http", 4) ? s->url : "", url) >=
	    (int)sizeof(full))
		return rig_err_set(err, RIG_EXIT_USAGE, "LAVA URL too long: %.100s...", url);
	if (!(c = curl_easy_init()))
		return rig_err_set(err, RIG_EXIT_INFRA, "libcurl: cannot initialise");
	headers = curl_slist_append(headers, accept);
	if (post)
		headers = curl_slist_append(headers, "Content-Type: application/json");
	if (s->token) {
		snprintf(auth, sizeof(auth), "Authorization: Token %s", s->token);
		headers = curl_slist_append(headers, auth);
	}
	curl_easy_setopt(c, CURLOPT_URL, full);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, LAVA_HTTP_TIMEOUT_S);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_USERAGENT, "suspend-rig");
	if (post)
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, post);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (b.too_big)
		ret = rig_err_set(err, RIG_EXIT_INFRA, "LAVA %s: answer larger than %ld MiB", full,
				  LAVA_HTTP_MAX_BODY >> 20);
	else if (rc != CURLE_OK)
		ret = rig_err_set(err, RIG_EXIT_INFRA, "LAVA %s: %s", full,
				  *errbuf ? errbuf : curl_easy_strerror(rc));
	else if (status / 100 != 2) {
		quote_answer(b.data, said, sizeof(said));
		ret = rig_err_set(err, status / 100 == 5 ? RIG_EXIT_INFRA : RIG_EXIT_USAGE,
				  "LAVA %s: HTTP %ld: %s", full, status, said);
	}
	if (ret) {
		free(b.data);
		b = (struct body){ 0 };
	}
	*answer = b;
	curl_slist_free_all(headers);
	curl_easy_cleanup(c);
	return ret;
}

int lava_http_get_json(const struct lava_server *s, const char *url, json_t **out,
		       struct rig_err *err)
{
	return perform(s, url, NULL, out, err);
}

int lava_http_post_json(const struct lava_server *s, const char *path, json_t *body, json_t **out,
			struct rig_err *err)
{
	char *text = json_dumps(body, JSON_COMPACT);
	int ret;

	if (!text)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	ret = perform(s, path, text, out, err);
	free(text);
	return ret;
}
