// Parameters issue and merge request routes share: the list filters of IssuableFinder, the
// list scopes in 10.8's spelling and GitLab 11.0's (`created_by_me` next to `created-by-me`:
// lib/api/issues.rb and merge_requests.rb accept both and hand `scope.underscore` to the
// finder, so both mean the same), and the "'' means none" id of assignee_id/milestone_id.
import { coerceInteger, coerceString, p, Param, type parseValues, type Schema } from '../http/params.js';
import type { SharedFilters } from '../finders/issuable_filters.js';

/**
 * Later GitLab's CommaSeparatedToArray (`add_labels`, `remove_labels`): a string of names
 * separated by commas, or an array of them (each split again), names trimmed, blanks dropped.
 */
const nameList = () =>
  new Param<string[]>((raw) => {
    const list = Array.isArray(raw) ? raw : [raw];
    return list
      .flatMap((v) => coerceString(v).split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  });

/**
 * Later GitLab's CommaSeparatedToIntegerArray (a merge request's `assignee_ids`): integers
 * as an array or separated by commas; '' (or an empty array) is the empty list.
 */
export const commaIdList = () =>
  new Param<number[]>((raw) => {
    const list = Array.isArray(raw) ? raw : [raw];
    return list
      .flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
      .filter((v) => v !== '' && v !== null)
      .map((v) => coerceInteger(typeof v === 'string' ? v.trim() : v));
  });

/** The label parameters later GitLab added to the edits of both: names to add and to remove. */
export const LABEL_CHANGE_PARAMS = {
  add_labels: nameList(),
  remove_labels: nameList(),
} satisfies Schema;

/** An integer where '' means none (null). */
export const optionalId = () => new Param<number | null>((raw) => (raw === '' ? null : coerceInteger(raw))).nullable();

/**
 * The `scope` values of a list: 10.8's (the finder's own names, `created-by-me`), then GitLab
 * 11.0's spellings of the user-related ones, then `all`, in GitLab 11's order.
 */
export function scopeValues(finderScopes: readonly string[]): string[] {
  const related = finderScopes.filter((s) => s !== 'all');
  return [...related, ...related.map((s) => s.split('-').join('_')), ...finderScopes.filter((s) => s === 'all')];
}

/** A given scope in the finder's spelling (`created_by_me` is `created-by-me`). */
export function finderScope(scope: string | null | undefined): string | undefined {
  return scope === null || scope === undefined ? undefined : scope.split('_').join('-');
}

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
