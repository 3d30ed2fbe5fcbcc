/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_WALK_H
#define _ROCECT_WALK_H

#include <linux/rhashtable.h>
#include <linux/sched.h>

/* Objects a walk looks at before it lets others run (rocect_walk_pause()). */
#define ROCECT_WALK_BATCH	256

/**
 * struct rocect_walk - a position in one of a namespace's tables, kept
 *	across the messages of a dump or the pauses of a long walk
 * @iter: rhashtable's walker
 * @gen: the table's generation, bumped by every change a dump shows, or
 *	NULL for walks that are no dump
 * @restarts: times the walk went back and may show objects again
 *
 * The tables (qp.c, conn.c) start walks of themselves; the caller peeks,
 * takes or skips the object and moves on, pausing between messages.
 *
 * rhashtable restarts a walk whose table was replaced (resized) while it
 * was paused, but keeps the object it had reached, which may have been
 * freed since: rocect_walk_start() forgets it. Every restart is counted,
 * so that a dump can flag %NLM_F_DUMP_INTR.
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
 * @gen: its generation, or NULL
 *
 * For the tables' own rocect_qp_walk_enter(), rocect_conn_walk_enter(),
 * and for their long walks (flush, expiry, query).
 */
static inline void rocect_walk_enter(struct rocect_walk *w,
				     struct rhashtable *ht, const atomic_t *gen)
{
	rhashtable_walk_enter(ht, &w->iter);
	w->gen = gen;
	w->restarts = 0;
}

/**
 * rocect_walk_start() - take up a walk under RCU
 * @w: an entered walk
 *
 * lib/rhashtable.c makes two kinds of resume unsafe for us:
 *
 * - The table was replaced while the walk was paused: it restarts at the
 *   new table's first bucket but keeps iter.p, the object it had reached,
 *   and the next peek returns it, the next step follows its ->next. That
 *   object may have been freed after the pause's grace period.
 * - The object was unlinked (it is no longer in its bucket): iter.p is
 *   cleared but iter.skip still counts it, so the step after it skips one
 *   object that moved up.
 *
 * Both resume at the start of a bucket instead, and count a restart.
 */
static inline void rocect_walk_start(struct rocect_walk *w)
{
	bool had = w->iter.p;

	if (rhashtable_walk_start_check(&w->iter) == -EAGAIN) {
		w->iter.p = NULL;
		w->iter.list = NULL;
		w->restarts++;
	} else if (had && !w->iter.p) {
		w->iter.skip = 0;
		w->restarts++;
	}
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
		w->restarts++;	/* resized: the walk went on in the new table */
	}
	return obj;
}

/**
 * rocect_walk_next() - move on to the next object
 * @w: a started walk
 *
 * Return: that object, or NULL at the end of the table.
 */
static inline void *rocect_walk_next(struct rocect_walk *w)
{
	void *obj;

	while (IS_ERR(obj = rhashtable_walk_next(&w->iter))) {
		if (PTR_ERR(obj) != -EAGAIN)
			return NULL;
		w->restarts++;	/* resized: the walk went on in the new table */
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
	return (w->gen ? atomic_read(w->gen) : 0) + w->restarts;
}

static inline void rocect_walk_stop(struct rocect_walk *w)
{
	rhashtable_walk_stop(&w->iter);
}

/**
 * rocect_walk_pause() - let others run in the middle of a long walk
 * @w: a started walk, at an object the caller is done with
 *
 * Leaves RCU: the caller must look its object up again if it needs it.
 * The walk goes on after that object, or from the start of its bucket if
 * it went meanwhile (rocect_walk_start()).
 *
 * Context: process context.
 */
static inline void rocect_walk_pause(struct rocect_walk *w)
{
	rhashtable_walk_stop(&w->iter);
	cond_resched();
	rocect_walk_start(w);
}

static inline void rocect_walk_exit(struct rocect_walk *w)
{
	rhashtable_walk_exit(&w->iter);
}

#endif /* _ROCECT_WALK_H */
