// Which events a viewer may see (GitLab 10.8's EventsFinder joined to the visible projects,
// plus Event#visible_to_user?, which 10.8 applied only to web feeds and Wharf applies to the
// API too). An event shows when its project is readable and:
// - a push or a comment on a commit: the viewer may download the project's code;
// - a membership change (joined, left, expired) or the project's creation: always;
// - a milestone event: always;
// - an issue, or a comment on one: the viewer may read that issue (confidential issues only
//   for admins, reporters and up, their author and assignees; issues enabled);
// - a merge request, or a comment on one: the viewer may read the project's merge requests
//   (or is its author or assignee);
// - a project snippet's creation, or a comment on one: the viewer's snippet lists show it
//   (policy/snippets.ts; 10.8 shows neither, Wharf records and shows both);
// - anything else: never.
// Admins see everything. Written as SQL so that a page of events is one query.
// An event of no project (a destroyed project's) shows only to its author and admins.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { INTERNAL, PUBLIC, REPORTER } from './levels.js';
import { isAdmin, isSignedInRegular } from './users.js';
import { authorizedProjectIds, whereVisibleProjects } from './projects.js';
import { whereConfidentialVisible } from './issues.js';
import { snippetListed } from './snippets.js';

const PUSHED = 5;
const CREATED = 1;
const MEMBERSHIP = [8, 9, 11];

/** Projects open to the viewer without membership, or where they are a reporter or more. */
function whereReporterOrOpen(w: Knex.QueryBuilder, db: Conn, user: UserRow | null, projectAlias: string) {
  w.where(`${projectAlias}.visibility_level`, PUBLIC);
  if (user) {
    if (isSignedInRegular(user)) w.orWhere(`${projectAlias}.visibility_level`, INTERNAL);
    w.orWhereIn(`${projectAlias}.id`, authorizedProjectIds(db, user.id, REPORTER));
  }
}

/** `EXISTS` subquery: the issue of `issueIdColumn` is readable (its project under `projectAlias`). */
export function issueVisible(db: Conn, user: UserRow | null, issueIdColumn: string, projectAlias: string): Knex.QueryBuilder {
  const q = db('issues as evi').select(db.raw('1')).whereRaw(`evi.id = ${issueIdColumn}`).where(`${projectAlias}.issues_enabled`, true);
  return whereConfidentialVisible(q, db, user, 'evi');
}

/** `EXISTS` subquery: the merge request of `mrIdColumn` is readable (its project under `projectAlias`). */
export function mergeRequestVisible(db: Conn, user: UserRow | null, mrIdColumn: string, projectAlias: string): Knex.QueryBuilder {
  const q = db('merge_requests as evm').select(db.raw('1')).whereRaw(`evm.id = ${mrIdColumn}`).where(`${projectAlias}.merge_requests_enabled`, true);
  return q.where((w) => {
    whereReporterOrOpen(w, db, user, projectAlias);
    if (user) w.orWhere('evm.author_id', user.id).orWhere('evm.assignee_id', user.id);
  });
}

/**
 * Restricts a query on `events as <alias>` joined to `projects as <projectAlias>` to the
 * events the viewer may see.
 */
export function whereVisibleEvents(q: Knex.QueryBuilder, db: Conn, user: UserRow | null, alias = 'e', projectAlias = 'p'): Knex.QueryBuilder {
  if (user && user.state === 'blocked') return q.whereRaw('1 = 0');
  whereVisibleProjects(q, db, user, projectAlias);
  if (isAdmin(user)) return q;
  return q.where((w) => {
    w.where((push) => {
      push.where(`${alias}.action`, PUSHED).where((c) => whereReporterOrOpen(c, db, user, projectAlias));
    });
    w.orWhereIn(`${alias}.action`, MEMBERSHIP);
    w.orWhere((created) => created.where(`${alias}.action`, CREATED).whereNull(`${alias}.target_type`));
    w.orWhere(`${alias}.target_type`, 'Milestone');
    w.orWhere((issue) => issue.where(`${alias}.target_type`, 'Issue').whereExists(issueVisible(db, user, `${alias}.target_id`, projectAlias)));
    w.orWhere((mr) => mr.where(`${alias}.target_type`, 'MergeRequest').whereExists(mergeRequestVisible(db, user, `${alias}.target_id`, projectAlias)));
    w.orWhere((sn) => sn.where(`${alias}.target_type`, 'Snippet').whereExists(snippetListed(db, user, `${alias}.target_id`, projectAlias)));
    w.orWhere((note) =>
      note.where(`${alias}.target_type`, 'Note').whereExists(
        db('notes as evn')
          .select(db.raw('1'))
          .whereRaw(`evn.id = ${alias}.target_id`)
          .where((kind) => {
            kind.where((i) => i.where('evn.noteable_type', 'Issue').whereExists(issueVisible(db, user, 'evn.noteable_id', projectAlias)));
            kind.orWhere((m) => m.where('evn.noteable_type', 'MergeRequest').whereExists(mergeRequestVisible(db, user, 'evn.noteable_id', projectAlias)));
            kind.orWhere((c) => c.where('evn.noteable_type', 'Commit').where((d) => whereReporterOrOpen(d, db, user, projectAlias)));
            kind.orWhere((sn) => sn.where('evn.noteable_type', 'Snippet').whereExists(snippetListed(db, user, 'evn.noteable_id', projectAlias)));
          }),
      ),
    );
  });
}

/** Restricts to events of no project (a deleted project's "destroyed"): their author and admins. */
export function whereVisibleProjectlessEvents(q: Knex.QueryBuilder, user: UserRow | null, alias = 'e'): Knex.QueryBuilder {
  q.whereNull(`${alias}.project_id`);
  if (!user || user.state === 'blocked') return q.whereRaw('1 = 0');
  return isAdmin(user) ? q : q.where(`${alias}.author_id`, user.id);
}
