// A commit's comments, refs and merge requests (GitLab 10.8 lib/api/commits.rb):
// GET/POST .../repository/commits/:sha/comments (CommitNote entities, oldest first; a comment
// placed on a line with `path`, `line`, `line_type`), GET .../refs (the branches and tags that
// contain it, `type` branch/tag/all; 10.6+) and GET .../merge_requests (those whose commits
// include it). Every route reads the repository (download_code, 403) and answers `404 Commit
// Not Found` for an unknown sha or ref. Posting needs a signed-in user who may comment on the
// project (create_note): 10.8 let anyone who could read the code try, and refused anonymous
// comments only at the model (a 400).
import type { Deps } from '../deps.js';
import type { LoadedProject } from './core/loaders.js';
import { route, type Route } from './core/route.js';
import { ApiError, forbidden, notFound } from '../http/errors.js';
import { p, parseValues, rawParams } from '../http/params.js';
import { paginate, paginateArray } from '../http/pagination.js';
import { REPOSITORY_READ, repositoryOf } from './repo_context.js';
import { rubyErrors } from './noteables.js';
import { blankBody, type NoteTarget } from '../services/notes/notes.js';
import { notesQuery } from '../finders/notes.js';
import { createCommitComment, type CommentLine } from '../services/notes/commit_comments.js';
import { commitNoteEntity } from '../entities/commit_note.js';
import { usersById } from '../finders/users.js';
import { mergeRequestsByIid } from '../finders/merge_requests.js';
import { presentMergeRequestList } from './present_merge_requests.js';
import { refNamesContaining, mergeRequestIidsContaining } from '../git/ref_contains.js';
import { isAncestor } from '../git/merge.js';
import type { MergeRequestRow, NoteRow } from '../store/issuable_rows.js';
import { mergeRequestSubject } from './noteables.js';
import { can } from '../policy/can.js';

const COMMENTS = '/projects/:id/repository/commits/:sha/comments';

/** The commit of `:sha` (a sha, branch or tag) as a note target, or 404 Commit Not Found. */
async function commitTarget(deps: Deps, loaded: LoadedProject, sha: string): Promise<NoteTarget<'Commit'>> {
  const oid = await repositoryOf(deps, loaded.project).resolveCommit(sha);
  if (!oid) throw notFound('Commit');
  return { type: 'Commit', id: 0, projectId: loaded.project.id, commitId: oid };
}

async function present(deps: Deps, notes: NoteRow[]) {
  const users = await usersById(
    deps.db,
    notes.map((n) => n.author_id),
  );
  return notes.map((n) => commitNoteEntity(n, users, deps.urls));
}

/** Grape's `given :path do requires :line; requires :line_type, values: new/old, default: new end`. */
function lineOf(raw: Record<string, unknown>, path: string | undefined | null): CommentLine | undefined {
  if (path === undefined || path === null) return undefined;
  const v = parseValues(raw, { line: p.integer().required(), line_type: p.string().values(['new', 'old']).default('new') });
  return { path, line: v.line, lineType: v.line_type as 'new' | 'old' };
}

/** Merge requests of the project whose diff (base..head) holds the commit, readable by the user, newest first. */
async function mergeRequestsWith(deps: Deps, loaded: LoadedProject, commit: string): Promise<MergeRequestRow[]> {
  const gitdir = repositoryOf(deps, loaded.project).gitdir;
  const iids = await mergeRequestIidsContaining(gitdir, commit);
  if (!iids.length) return [];
  const rows = await mergeRequestsByIid(deps.db, loaded.project.id, iids);
  const out: MergeRequestRow[] = [];
  for (const mr of rows) {
    if (!can(loaded.user, mergeRequestSubject(loaded, mr), 'read_merge_request')) continue;
    if (mr.base_sha && (await isAncestor(gitdir, commit, mr.base_sha).catch(() => true))) continue; // on the target already
    out.push(mr);
  }
  return out;
}

export const commitNoteRoutes: Route[] = [
  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: COMMENTS,
    summary: "List a commit's comments",
    response: { schema: 'CommitNote', list: true },
    handler: async ({ ctx, deps, loaded, path }) => {
      const target = await commitTarget(deps, loaded, path.sha);
      return present(deps, await paginate<NoteRow>(ctx, deps.db, notesQuery(deps.db, target, 'created_at', 'asc')));
    },
  }),

  route({
    method: 'POST',
    path: COMMENTS,
    auth: 'user',
    load: 'project',
    ability: 'download_code',
    params: { note: p.string().required(), path: p.string() },
    summary: 'Comment on a commit (on a line of its diff with path, line and line_type)',
    response: { schema: 'CommitNote' },
    handler: async ({ ctx, deps, user, loaded, params: v, path, can: canOnProject }) => {
      const line = lineOf(rawParams(ctx), v.path);
      const target = await commitTarget(deps, loaded, path.sha);
      if (!canOnProject('create_note')) throw forbidden();
      if (blankBody(v.note)) throw new ApiError(400, { message: `Failed to save note ${rubyErrors({ note: ["can't be blank"] })}` });
      const gitdir = repositoryOf(deps, loaded.project).gitdir;
      const note = await createCommitComment(deps.db, gitdir, target, user, { note: v.note, line });
      return (await present(deps, [note]))[0];
    },
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/refs',
    params: { type: p.string().values(['branch', 'tag', 'all']).default('all') },
    summary: 'The branches and tags that contain a commit',
    response: { schema: 'BasicRef', list: true },
    handler: async ({ ctx, deps, loaded, path, params: { type } }) => {
      const target = await commitTarget(deps, loaded, path.sha);
      const gitdir = repositoryOf(deps, loaded.project).gitdir;
      const refs: { type: string; name: string }[] = [];
      if (type !== 'tag') for (const name of await refNamesContaining(gitdir, target.commitId!, 'branch')) refs.push({ type: 'branch', name });
      if (type !== 'branch') for (const name of await refNamesContaining(gitdir, target.commitId!, 'tag')) refs.push({ type: 'tag', name });
      return paginateArray(ctx, refs);
    },
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/merge_requests',
    summary: 'The merge requests whose commits include a commit',
    response: { schema: 'MergeRequestBasic', list: true },
    handler: async ({ ctx, deps, loaded, path }) => {
      const target = await commitTarget(deps, loaded, path.sha);
      const page = paginateArray(ctx, await mergeRequestsWith(deps, loaded, target.commitId!));
      return presentMergeRequestList(deps, page, false);
    },
  }),
];
