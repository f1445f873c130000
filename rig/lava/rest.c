#include "lava/rest.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "http://host:port/api/..." -> "/api/...": the path and query of an absolute URL. */
static const char *path_of(const char *url)
{
	const char *p = strstr(url, "://");

	if (!p)
		return url;
	p = strchr(p + 3, '/');
	return p ? p : "/";
}

int lava_rest_each(const struct lava_server *s, const char *url,
		   int (*each)(json_t *item, void *ctx), void *ctx, size_t *pages,
		   struct rig_err *err)
{
	char *next = strdup(path_of(url)), *prev = NULL;
	int ret = 0;

	*pages = 0;
	while (next && !ret) {
		json_t *page = NULL, *results, *item, *link;
		size_t i;

		if (++*pages > LAVA_REST_MAX_PAGES || (prev && !strcmp(prev, next))) {
			ret = rig_err_set(err, RIG_EXIT_INFRA, "LAVA %s%s: pagination does not end "
					  "(page %zu)", s->url, next, *pages);
			break;
		}
		if ((ret = lava_http_get_json(s, next, &page, err)))
			break;
		results = json_object_get(page, "results");
		if (!json_is_array(results)) {
			ret = rig_err_set(err, RIG_EXIT_INFRA, "LAVA %s%s: no \"results\" list",
					  s->url, next);
			json_decref(page);
			break;
		}
		json_array_foreach(results, i, item)
			if ((ret = each(item, ctx)))
				break;
		free(prev);
		prev = next;
		link = json_object_get(page, "next");
		next = json_is_string(link) ? strdup(path_of(json_string_value(link))) : NULL;
		json_decref(page);
	}
	free(prev);
	free(next);
	return ret;
}

int lava_rest_submit(const struct lava_server *s, const char *definition, long long *job_id,
		     struct rig_err *err)
{
	json_t *body = json_pack("{ss}", "definition", definition), *answer = NULL, *ids;
	int ret;

	if (!body)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	ret = lava_http_post_json(s, "/api/v0.2/jobs/", body, &answer, err);
	json_decref(body);
	if (ret)
		return ret;
	ids = json_object_get(answer, "job_ids");
	if (!json_is_array(ids) || !json_is_integer(json_array_get(ids, 0)))
		ret = rig_err_set(err, RIG_EXIT_INFRA, "LAVA %s: the submission answered no job id",
				  s->url);
	else
		*job_id = json_integer_value(json_array_get(ids, 0));
	json_decref(answer);
	return ret;
}

static void copy_string(char *dst, size_t size, json_t *v)
{
	snprintf(dst, size, "%s", json_is_string(v) ? json_string_value(v) : "");
}

/* `  rig.board: "qemu"` in the definition `rig lava render` wrote (its metadata block). */
static void metadata_of_definition(const char *def, const char *name, char *buf, size_t size)
{
	char key[64];
	const char *p;
	size_t n;

	buf[0] = '\0';
	snprintf(key, sizeof(key), "\n  %s: ", name);
	p = def ? strstr(def, key) : NULL;
	if (!p)
		return;
	p += strlen(key);
	n = strcspn(p, "\r\n");
	if (n >= 2 && p[0] == '"' && p[n - 1] == '"')
		p++, n -= 2;
	if (n < size && !memchr(p, '\\', n) && !memchr(p, '"', n))
		snprintf(buf, size, "%.*s", (int)n, p);
}

int lava_rest_job_status(const struct lava_server *s, long long job_id,
			 struct lava_job_status *st, struct rig_err *err)
{
	char path[64];
	const char *def;
	json_t *job;

	snprintf(path, sizeof(path), "/api/v0.2/jobs/%lld/", job_id);
	if (lava_http_get_json(s, path, &job, err))
		return -1;
	memset(st, 0, sizeof(*st));
	st->id = job_id;
	copy_string(st->state, sizeof(st->state), json_object_get(job, "state"));
	copy_string(st->health, sizeof(st->health), json_object_get(job, "health"));
	copy_string(st->device, sizeof(st->device), json_object_get(job, "actual_device"));
	copy_string(st->end_time, sizeof(st->end_time), json_object_get(job, "end_time"));
	def = json_string_value(json_object_get(job, "definition"));
	metadata_of_definition(def, "rig.board", st->board, sizeof(st->board));
	metadata_of_definition(def, "rig.plan", st->plan, sizeof(st->plan));
	metadata_of_definition(def, "rig.kernel_version", st->kernel, sizeof(st->kernel));
	json_decref(job);
	if (!st->state[0])
		return rig_err_set(err, RIG_EXIT_INFRA, "LAVA %s%s: no job state", s->url, path);
	return 0;
}

static int add_suite(json_t *item, void *ctx)
{
	json_t *names = ctx, *id = json_object_get(item, "id"), *name = json_object_get(item, "name");
	char key[32];

	if (!json_is_integer(id) || !json_is_string(name))
		return 0;
	snprintf(key, sizeof(key), "%" JSON_INTEGER_FORMAT, json_integer_value(id));
	return json_object_set(names, key, name);
}

struct case_sink {
	const char *origin;
	json_t *suite_names;
	struct lava_cases *cases;
	size_t index;
	struct rig_err *err;
};

static int add_case(json_t *item, void *ctx)
{
	struct case_sink *sink = ctx;

	return lava_cases_add_rest_item(sink->origin, sink->index++, item, sink->suite_names,
					sink->cases, sink->err);
}

int lava_rest_job_cases(const struct lava_server *s, long long job_id, size_t page_size,
			struct lava_cases *cases, size_t *pages, struct rig_err *err)
{
	char url[128], origin[4096];
	size_t suite_pages = 0;
	json_t *names = json_object();
	struct case_sink sink = { origin, names, cases, 0, err };
	int ret;

	if (!names)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	page_size = page_size ? page_size : LAVA_REST_PAGE_SIZE;
	snprintf(origin, sizeof(origin), "LAVA %s job %lld", s->url, job_id);
	snprintf(url, sizeof(url), "/api/v0.2/jobs/%lld/suites/?limit=%zu&ordering=id", job_id,
		 page_size);
	ret = lava_rest_each(s, url, add_suite, names, &suite_pages, err);
	if (!ret) {
		snprintf(url, sizeof(url), "/api/v0.2/jobs/%lld/tests/?limit=%zu&ordering=id", job_id,
			 page_size);
		ret = lava_rest_each(s, url, add_case, &sink, pages, err);
	}
	json_decref(names);
	return ret;
}

struct id_list {
	long long *v;
	size_t n, cap;
};

static int add_id(json_t *item, void *ctx)
{
	struct id_list *l = ctx;
	json_t *id = json_object_get(item, "id");
	long long *grown;

	if (!json_is_integer(id))
		return -1;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		if (!(grown = realloc(l->v, l->cap * sizeof(*l->v))))
			return -1;
		l->v = grown;
	}
	l->v[l->n++] = json_integer_value(id);
	return 0;
}

int lava_rest_finished_jobs(const struct lava_server *s, const char *since, const char *device,
			    size_t page_size, long long **ids, size_t *n, size_t *pages,
			    struct rig_err *err)
{
	struct id_list l = { 0 };
	char url[1024], *esc_since, *esc_device = NULL;
	CURL *c = curl_easy_init();
	int ret;

	*ids = NULL;
	*n = 0;
	if (!c)
		return rig_err_set(err, RIG_EXIT_INFRA, "libcurl: cannot initialise");
	esc_since = curl_easy_escape(c, since, 0);
	if (device)
		esc_device = curl_easy_escape(c, device, 0);
	snprintf(url, sizeof(url), "/api/v0.2/jobs/?state=Finished&end_time__gt=%s%s%s"
		 "&ordering=id&limit=%zu", esc_since ? esc_since : "",
		 esc_device ? "&actual_device=" : "", esc_device ? esc_device : "",
		 page_size ? page_size : LAVA_REST_PAGE_SIZE);
	curl_free(esc_since);
	curl_free(esc_device);
	curl_easy_cleanup(c);
	ret = lava_rest_each(s, url, add_id, &l, pages, err);
	if (ret && !err->msg[0])
		rig_err_set(err, RIG_EXIT_INFRA, "LAVA %s: a job in the list has no id", s->url);
	if (ret) {
		free(l.v);
		return -1;
	}
	*ids = l.v;
	*n = l.n;
	return 0;
}

int lava_job_page(const struct lava_server *s, long long job_id, char *buf, size_t size)
{
	return snprintf(buf, size, "%s/scheduler/job/%lld", s->url, job_id) >= (int)size ? -1 : 0;
}
