// Parameters issue and merge request routes share: the list filters of IssuableFinder and
// the "'' means none" id of assignee_id/milestone_id.
import { coerceInteger, p, Param, type parseValues, type Schema } from '../http/params.js';
import type { SharedFilters } from '../finders/issuable_filters.js';

/** An integer where '' means none (null). */
export const optionalId = () => new Param<number | null>((raw) => (raw === '' ? null : coerceInteger(raw))).nullable();

/** The list parameters both lists declare (each adds state, order_by, scope and its own). */
export const SHARED_LIST_PARAMS = {
  sort: p.string().values(['asc', 'desc']).default('desc'),
  milestone: p.string(),
  labels: p.string(),
  created_after: p.datetime(),
  created_before: p.datetime(),
  updated_after: p.datetime(),
  updated_before: p.datetime(),
  author_id: p.integer(),
  assignee_id: p.integer(),
  my_reaction_emoji: p.string(),
  search: p.anyString(),
} satisfies Schema;

type SharedValues = ReturnType<typeof parseValues<typeof SHARED_LIST_PARAMS>> & { iids?: number[] | null };

/** The finders' view of the shared parameters. */
export function sharedListFilters(v: SharedValues): SharedFilters & {
  authorId?: number;
  assigneeId?: number;
  myReactionEmoji?: string;
  iids?: number[];
  sort: 'asc' | 'desc';
} {
  return {
    labels: v.labels ?? undefined,
    milestone: v.milestone ?? undefined,
    authorId: v.author_id ?? undefined,
    assigneeId: v.assignee_id ?? undefined,
    myReactionEmoji: v.my_reaction_emoji ?? undefined,
    iids: v.iids ?? undefined,
    search: v.search ?? undefined,
    createdAfter: v.created_after ?? undefined,
    createdBefore: v.created_before ?? undefined,
    updatedAfter: v.updated_after ?? undefined,
    updatedBefore: v.updated_before ?? undefined,
    sort: v.sort as 'asc' | 'desc',
  };
}
