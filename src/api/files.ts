// Repository files (GitLab 10.8 lib/api/files.rb): get one at a ref (base64 with its blob
// and commit ids, or raw), create, update and delete one. Several changes in one commit
// (POST /repository/commits) are api/commits.ts. Permission first (reads: REPOSITORY_READ's
// download_code; writes: push_code; 403, invisible project 404), then parameters; a write
// then goes to the commit service, whose failures are 400 {"message": ...} in GitLab's words.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import type { LoadedProject } from './core/loaders.js';
import { route, type Route } from './core/route.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { commitFiles, fileContent, type FileAction } from '../services/repository/file_writes.js';
import { REPOSITORY_READ, repositoryOf } from './repo_context.js';
import { lastCommitFor, pathNames } from '../git/log.js';
import { sendBlob } from './raw_blobs.js';

const FILE_ROUTE = '/projects/:id/repository/files/:file_path';

const UPDATE_STALE = 'You are attempting to update a file that has changed since you started editing it.';
const DELETE_STALE = 'You are attempting to delete a file that has been previously updated.';
// GitLab 10.8 committed an update that changed nothing; the spec makes it a 400.
const SAME_CONTENT = 'You are attempting to update a file with the same content';

/** Declared in Grape's order, so several missing parameters are reported in its order. */
const common = {
  branch: p.string().required(),
  commit_message: p.string().required(),
  start_branch: p.string(),
  author_email: p.string(),
  author_name: p.string(),
};

const withContent = {
  ...common,
  content: p.anyString().required(), // file bytes may hold NUL: they go to git
  // GitLab 10.8 knew only `base64`; `text` (the default) is accepted too, as later versions do.
  encoding: p.string().values(['text', 'base64']),
  last_commit_id: p.string(),
};

type WriteValues = { branch: string; commit_message: string; start_branch?: string; author_email?: string; author_name?: string };

/** Commits one file action on `v.branch`; the answer of the three file write routes. */
async function writeFile(
  deps: Deps,
  loaded: LoadedProject,
  v: WriteValues,
  action: Extract<FileAction, { action: 'create' | 'update' | 'delete' }>,
): Promise<{ file_path: string; branch: string }> {
  await commitFiles(deps, loaded, {
    branch: v.branch,
    startBranch: v.start_branch,
    message: v.commit_message,
    authorName: v.author_name,
    authorEmail: v.author_email,
    actions: [action],
    staleMessage: () => (action.action === 'delete' ? DELETE_STALE : UPDATE_STALE),
    unchangedMessage: SAME_CONTENT,
  });
  return { file_path: action.filePath, branch: v.branch };
}

/** A file at a ref: `ref` is validated after the permission (REPOSITORY_READ), as on every Wharf route. */
async function fileRoute(ctx: Koa.Context, deps: Deps, project: ProjectWithNamespace, filePath: string, ref: string, raw: boolean) {
  const reader = repositoryOf(deps, project);
  const commitOid = await reader.resolveCommit(ref);
  if (!commitOid) throw notFound('Commit');
  const names = pathNames(filePath);
  const blob = names && names.length ? await reader.blobAt(commitOid, names.join('/')) : null;
  if (!blob) throw notFound('File');
  const fileName = names![names!.length - 1];
  if (raw) return sendBlob(ctx, blob.content, fileName);
  return {
    file_name: fileName,
    file_path: filePath,
    size: blob.content.byteLength,
    encoding: 'base64',
    content: Buffer.from(blob.content).toString('base64'),
    ref,
    blob_id: blob.oid,
    commit_id: commitOid,
    last_commit_id: await lastCommitFor(reader, commitOid, names!.join('/')),
  };
}

const FILE_WRITE = { auth: 'by_ability', load: 'project', ability: 'push_code', response: { schema: 'FileWrite' } } as const;

export const fileRoutes: Route[] = [
  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: FILE_ROUTE,
    params: { ref: p.string().required() },
    summary: 'Get a file at a ref (base64 content, blob and commit ids)',
    response: { schema: 'RepositoryFile' },
    handler: ({ ctx, deps, project, path, params }) => fileRoute(ctx, deps, project, path.file_path, params.ref, false),
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: `${FILE_ROUTE}/raw`,
    params: { ref: p.string().required() },
    summary: "Get a file's raw bytes at a ref",
    handler: ({ ctx, deps, project, path, params }) => fileRoute(ctx, deps, project, path.file_path, params.ref, true),
  }),

  route({
    ...FILE_WRITE,
    method: 'POST',
    path: FILE_ROUTE,
    params: withContent,
    summary: 'Create a file in a commit on a branch',
    handler: async ({ deps, loaded, path, params: v }) => writeFile(deps, loaded, v, { action: 'create', filePath: path.file_path, content: fileContent(v.content, v.encoding) }),
  }),

  route({
    ...FILE_WRITE,
    method: 'PUT',
    path: FILE_ROUTE,
    params: withContent,
    summary: 'Update a file in a commit on a branch (last_commit_id guards against stale edits)',
    handler: async ({ deps, loaded, path, params: v }) =>
      writeFile(deps, loaded, v, { action: 'update', filePath: path.file_path, content: fileContent(v.content, v.encoding), lastCommitId: v.last_commit_id }),
  }),

  route({
    ...FILE_WRITE,
    method: 'DELETE',
    path: FILE_ROUTE,
    params: { ...common, last_commit_id: p.string() },
    summary: 'Delete a file in a commit on a branch',
    response: undefined,
    handler: async ({ deps, loaded, path, params: v }) => {
      await writeFile(deps, loaded, v, { action: 'delete', filePath: path.file_path, lastCommitId: v.last_commit_id });
    },
  }),
];
