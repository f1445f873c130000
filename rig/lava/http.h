/*
 * The LAVA server's REST API over HTTP(S) (libcurl): one server, its token, JSON in and out.
 * Every answer is bounded (LAVA_HTTP_MAX_BODY) and every request times out (LAVA_HTTP_TIMEOUT_S),
 * so a server that misbehaves costs an error, never a hang or the host's memory.
 */
#ifndef RIG_LAVA_HTTP_H
#define RIG_LAVA_HTTP_H

#include <jansson.h>

#include "util/err.h"

#define LAVA_HTTP_MAX_BODY (64L << 20)
#define LAVA_HTTP_TIMEOUT_S 120L

struct lava_server {
	char *url;      /* base, no trailing '/': http://localhost:8000 */
	char *token;    /* NULL: anonymous (reading public jobs) */
};

/*
 * url: --server (or $RIG_LAVA_SERVER); the token from token_file (or $RIG_LAVA_TOKEN_FILE, or
 * $RIG_LAVA_TOKEN itself). A token file must not be readable by others.
 */
int lava_server_init(struct lava_server *s, const char *url, const char *token_file,
		     struct rig_err *err);
void lava_server_free(struct lava_server *s);

/* GET url (absolute, or a path under the server's URL) and parse the JSON answer. An answer
 * other than 2xx is an error quoting the server's message. */
int lava_http_get_json(const struct lava_server *s, const char *url, json_t **out,
		       struct rig_err *err);
/* GET url and keep the answer as text (a job's log: YAML); *text is NUL-terminated, malloc'd. */
int lava_http_get_text(const struct lava_server *s, const char *url, char **text, size_t *len,
		       struct rig_err *err);
/* POST body as JSON to a path under the server's URL; the JSON answer in *out. */
int lava_http_post_json(const struct lava_server *s, const char *path, json_t *body, json_t **out,
			struct rig_err *err);

#endif
