/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_WALK_H
#define _ROCECT_WALK_H

#include <linux/rhashtable.h>

/**
 * struct rocect_walk - a position in one of a namespace's tables, kept
 *	across the messages of a dump
 * @iter: rhashtable's walker
 * @gen: the table's generation, bumped by every change a dump shows
 * @restarts: times a resize restarted the walk (objects may repeat)
 *
 * The tables (qp.c, conn.c) start walks of themselves; the caller peeks,
 * takes or skips the object and moves on, pausing between messages.
 */
struct rocect_walk {
	struct rhashtable_iter iter;
	const atomic_t *gen;
	unsigned int restarts;
};

/**
 * rocect_walk_enter() - begin a walk of a table
 * @w: the walk; rocect_walk_exit() ends it
 * @ht: the table
 * @gen: its generation
 *
 * For the tables' own rocect_qp_walk_enter() and rocect_conn_walk_enter().
 */
static inline void rocect_walk_enter(struct rocect_walk *w,
				     struct rhashtable *ht, const atomic_t *gen)
{
	rhashtable_walk_enter(ht, &w->iter);
	w->gen = gen;
	w->restarts = 0;
}

/**
 * rocect_walk_peek() - the object at the walk's position
 * @w: a started walk
 *
 * Return: the object, or NULL at the end of the table.
 */
static inline void *rocect_walk_peek(struct rocect_walk *w)
{
	void *obj;

	while (IS_ERR(obj = rhashtable_walk_peek(&w->iter))) {
		if (PTR_ERR(obj) != -EAGAIN)
			return NULL;
		w->restarts++;	/* resized: the walk restarted */
	}
	return obj;
}

/**
 * rocect_walk_gen() - what a dump checks its messages against
 * @w: the walk
 *
 * Return: a number that changes when the table changes or the walk
 * restarts: a dump that sees it change is flagged %NLM_F_DUMP_INTR.
 */
static inline unsigned int rocect_walk_gen(const struct rocect_walk *w)
{
	return atomic_read(w->gen) + w->restarts;
}

static inline void rocect_walk_start(struct rocect_walk *w)
{
	rhashtable_walk_start(&w->iter);
}

static inline void rocect_walk_next(struct rocect_walk *w)
{
	rhashtable_walk_next(&w->iter);
}

static inline void rocect_walk_stop(struct rocect_walk *w)
{
	rhashtable_walk_stop(&w->iter);
}

static inline void rocect_walk_exit(struct rocect_walk *w)
{
	rhashtable_walk_exit(&w->iter);
}

#endif /* _ROCECT_WALK_H */
