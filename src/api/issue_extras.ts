// What else GitLab 10.8's lib/api/issues.rb answers about one issue: its participants, the
// merge requests that close it (`closed_by`), where it was created from (`user_agent_detail`,
// admins only), and moving it to another project (`move`). Every route needs a signed-in
// user; an issue the user may not read is `404 Not found`, as the issue routes answer.
// Moving: 10.8 found the issue and the target by id alone, then refused with 400
// ("insufficient permissions"), which told a user about an issue or a project they may not
// see; here an unreadable one is a 404 (`Issue`, `Project`), as for every other route.
import { route, type Route } from './core/route.js';
import { ApiError, notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginateArray } from '../http/pagination.js';
import { loadedProject } from './core/loaders.js';
import { issueSubject, mergeRequestSubject } from './noteables.js';
import { readableIssue, renderOne } from './issues.js';
import { can } from '../policy/can.js';
import { canReadProject, projectAccess } from '../policy/projects.js';
import { findIssue } from '../finders/issues.js';
import { openOrMergedInto } from '../finders/merge_requests.js';
import { findProjectByIdOrPath } from '../finders/projects.js';
import { usersById } from '../finders/users.js';
import { issueParticipants } from '../finders/participants.js';
import type { MergeRequestRow } from '../store/issuable_rows.js';
import { mergeRequestClosesIssues } from '../services/merge_requests/closing_issues.js';
import { findUserAgentDetail } from '../services/issuables/user_agent_details.js';
import { moveIssue, MOVE_DENIED, MOVE_SAME_PROJECT } from '../services/issues/moves.js';
import { userBasic } from '../entities/user.js';
import { presentMergeRequestList } from './present_merge_requests.js';

const ITEM = '/projects/:id/issues/:issue_iid';
const issueIid = { issue_iid: p.integer().required() };

export const issueExtraRoutes: Route[] = [
  route({
    method: 'GET',
    path: `${ITEM}/participants`,
    auth: 'user',
    load: 'project',
    params: issueIid,
    summary: "An issue's participants",
    response: { schema: 'UserBasic', list: true },
    handler: async ({ ctx, deps, loaded, params }) => {
      const { issue } = await readableIssue(deps, loaded, params.issue_iid);
      return paginateArray(ctx, await issueParticipants(deps.db, loaded.project, issue)).map((u) => userBasic(u, deps.urls));
    },
  }),

  // MergeRequestsClosingIssues of 10.8, worked out now: the project's open and merged merge
  // requests the user may read whose title, description or commits close the issue (as their
  // author sees it), newest first.
  route({
    method: 'GET',
    path: `${ITEM}/closed_by`,
    auth: 'user',
    load: 'project',
    params: issueIid,
    summary: 'The merge requests that close an issue',
    response: { schema: 'MergeRequestBasic', list: true },
    handler: async ({ ctx, deps, loaded, params }) => {
      const { issue } = await readableIssue(deps, loaded, params.issue_iid);
      // Only merge requests into the default branch close issues (mergeRequestClosesIssues);
      // their authors are loaded in one query.
      const { default_branch: defaultBranch } = loaded.project;
      const candidates = defaultBranch ? await openOrMergedInto(deps.db, loaded.project.id, defaultBranch) : [];
      const readable = candidates.filter((mr) => can(loaded.user, mergeRequestSubject(loaded, mr), 'read_merge_request'));
      const authors = await usersById(
        deps.db,
        readable.map((mr) => mr.author_id),
      );
      const closing: MergeRequestRow[] = [];
      for (const mr of readable) {
        const author = mr.author_id === null ? null : (authors.get(mr.author_id) ?? null);
        const closes = await mergeRequestClosesIssues(deps, loaded.project, mr, author);
        if (closes.some((i) => i.id === issue.id)) closing.push(mr);
      }
      return presentMergeRequestList(deps, paginateArray(ctx, closing), false);
    },
  }),

  route({
    method: 'GET',
    path: `${ITEM}/user_agent_detail`,
    auth: 'admin',
    load: 'project',
    params: issueIid,
    summary: 'Where an issue was created from (admins)',
    response: { schema: 'UserAgentDetail' },
    handler: async ({ deps, loaded, params }) => {
      const { issue } = await readableIssue(deps, loaded, params.issue_iid);
      const detail = await findUserAgentDetail(deps.db, { type: 'Issue', id: issue.id });
      if (!detail) throw notFound('UserAgentDetail');
      return { user_agent: detail.user_agent, ip_address: detail.ip_address, akismet_submitted: !!detail.submitted };
    },
  }),

  route({
    method: 'POST',
    path: `${ITEM}/move`,
    auth: 'user',
    load: 'project',
    params: { ...issueIid, to_project_id: p.integer().required() },
    summary: 'Move an issue to another project',
    response: { schema: 'Issue' },
    handler: async ({ deps, user, loaded, params }) => {
      const issue = await findIssue(deps.db, loaded.project.id, params.issue_iid);
      const subject = issue ? await issueSubject(deps, loaded, issue) : null;
      if (!issue || !subject || !can(user, subject, 'read_issue')) throw notFound('Issue');
      const target = await findProjectByIdOrPath(deps.db, String(params.to_project_id));
      const targetAccess = target ? await projectAccess(deps.db, user, target) : null;
      if (!target || !targetAccess || !canReadProject(user, target, targetAccess)) throw notFound('Project');
      // Issue#can_move?: admin_issue here and there, and not moved before.
      const movable = can(user, subject, 'admin_issue') && loadedProject(target, targetAccess, user).can('admin_issue') && !(issue as { moved_to_id?: number | null }).moved_to_id;
      if (!movable) throw new ApiError(400, { message: MOVE_DENIED });
      if (target.id === loaded.project.id) throw new ApiError(400, { message: MOVE_SAME_PROJECT });
      return renderOne(deps, await moveIssue(deps.db, issue, loaded.project, target, user), user);
    },
  }),
];
