#include "lib/journal_backend.h"

#include <string.h>

void journal_backend_init(struct journal_backend *b, const struct journal_backend_ops *ops,
			  struct tel_writer *tel, uint64_t chunk)
{
	memset(b, 0, sizeof(*b));
	b->ops = ops;
	b->tel = tel;
	b->fd = -1;
	b->chunk = chunk;
}

void journal_backend_op_begin(struct journal_backend *b, enum tel_op_kind kind, uint64_t seq)
{
	tel_op_begin(b->tel, kind, seq, wl_now_ns(CLOCK_BOOTTIME));
}

void journal_backend_op_end(struct journal_backend *b, int err)
{
	tel_op_end(b->tel, wl_now_ns(CLOCK_BOOTTIME), err);
}
