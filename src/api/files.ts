// Repository writes: create, update and delete one file (lib/api/files.rb), and commit
// several changes at once (POST /repository/commits, lib/api/commits.rb), GitLab 10.8.
// Permission first (push_code: 403, invisible project 404), then parameters, then the
// commit service, whose failures are 400 {"message": ...} in GitLab's words.
import type { Deps } from '../deps.js';
import type { LoadedProject } from './core/loaders.js';
import { route, type Route } from './core/route.js';
import { p, coerceBoolean, coerceAnyString, coerceString, Param } from '../http/params.js';
import { paramError } from '../http/errors.js';
import { commitFiles, fileContent, type CommitRequest, type FileAction } from '../services/repository/file_writes.js';
import { gitdirOf } from '../finders/projects.js';
import { RepoReader } from '../git/reader.js';
import { commitStats } from '../git/commit_stats.js';
import { commitDetail } from '../entities/commit.js';

const FILE_ROUTE = '/projects/:id/repository/files/:file_path';

const UPDATE_STALE = 'You are attempting to update a file that has changed since you started editing it.';
const DELETE_STALE = 'You are attempting to delete a file that has been previously updated.';
// GitLab 10.8 committed an update that changed nothing; the spec makes it a 400.
const SAME_CONTENT = 'You are attempting to update a file with the same content';
const NO_CHANGES = 'The commit would not change any file';

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
async function writeFile(deps: Deps, loaded: LoadedProject, v: WriteValues, action: Extract<FileAction, { action: 'create' | 'update' | 'delete' }>): Promise<{ file_path: string; branch: string }> {
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

const ACTIONS = ['create', 'create_dir', 'update', 'move', 'delete', 'chmod'] as const;

/**
 * `actions[]` of the commits endpoint. A list that is not a list of objects, or a chmod
 * without `execute_filemode`, is a parameter error (Grape's words, as GitLab 11 declared
 * them); the rest is checked as GitLab 10.8's index applies each action, in order, so an
 * unknown action or a missing path or content answers with the index's message.
 */
function parseActions(raw: unknown): CommitRequest['actions'] {
  // Form bodies with indexed keys (actions[0][action]=...) arrive as an object of indices.
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' && Object.keys(raw).every((k) => /^\d+$/.test(k)) ? Object.values(raw) : null;
  if (!list || list.some((a) => !a || typeof a !== 'object' || Array.isArray(a))) throw paramError('actions is invalid');
  return list.map((a: Record<string, unknown>, i) => {
    const str = (key: string): string | undefined => {
      const value = a[key];
      if (value === undefined || value === null) return undefined;
      try {
        return key === 'content' ? coerceAnyString(value) : coerceString(value); // file bytes may hold NUL
      } catch {
        throw paramError(`actions[${i}][${key}] is invalid`);
      }
    };
    const name = str('action') ?? '';
    const file = str('file_path') ?? '';
    const rawContent = str('content');
    const content = rawContent === undefined ? null : fileContent(rawContent, str('encoding'));
    const lastCommitId = str('last_commit_id');
    const invalid = (message: string): FileAction => ({ action: 'invalid', message });
    if (!(ACTIONS as readonly string[]).includes(name)) return invalid(`Unknown action '${name}'`);
    switch (name as (typeof ACTIONS)[number]) {
      case 'create':
        return content === null ? invalid('You must provide content') : { action: 'create', filePath: file, content };
      case 'create_dir':
        return { action: 'create_dir', filePath: file };
      case 'update':
        return content === null ? invalid('You must provide content') : { action: 'update', filePath: file, content, lastCommitId };
      case 'move':
        return { action: 'move', filePath: file, previousPath: str('previous_path') ?? '', content, lastCommitId };
      case 'delete':
        return { action: 'delete', filePath: file, lastCommitId };
      case 'chmod': {
        if (a.execute_filemode === undefined || a.execute_filemode === null) throw paramError(`actions[${i}][execute_filemode] is missing`);
        let executable: boolean;
        try {
          executable = coerceBoolean(a.execute_filemode);
        } catch {
          throw paramError(`actions[${i}][execute_filemode] is invalid`);
        }
        return { action: 'chmod', filePath: file, executable };
      }
    }
  });
}

const FILE_WRITE = { auth: 'anonymous', load: 'project', ability: 'push_code', response: { schema: 'FileWrite' } } as const;

export const fileRoutes: Route[] = [
  route({
    ...FILE_WRITE,
    method: 'POST',
    path: FILE_ROUTE,
    params: withContent,
    summary: 'Create a file in a commit on a branch',
    handler: async ({ deps, loaded, path, params: v }) =>
      writeFile(deps, loaded, v, { action: 'create', filePath: path.file_path, content: fileContent(v.content, v.encoding) }),
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

  route({
    method: 'POST',
    path: '/projects/:id/repository/commits',
    auth: 'anonymous',
    load: 'project',
    ability: 'push_code',
    params: {
      branch: p.string().required(),
      commit_message: p.string().required(),
      actions: new Param<unknown, true>((x) => x, true), // checked by parseActions
      start_branch: p.string(),
      author_email: p.string(),
      author_name: p.string(),
      // Not in 10.8, whose response has no stats; `stats=true` (GitLab 11) adds them.
      stats: p.boolean().default(false),
    },
    summary: 'Commit several file actions (create, create_dir, update, move, delete, chmod) at once',
    response: { schema: 'CommitDetail' },
    handler: async ({ deps, loaded, params: v }) => {
      const { commit } = await commitFiles(deps, loaded, {
        branch: v.branch,
        startBranch: v.start_branch,
        message: v.commit_message,
        authorName: v.author_name,
        authorEmail: v.author_email,
        actions: parseActions(v.actions),
        staleMessage: (a) => `The file has changed since you started editing it: ${a.action === 'move' ? a.previousPath : 'filePath' in a ? a.filePath : ''}`,
        unchangedMessage: NO_CHANGES,
      });
      const reader = new RepoReader(gitdirOf(deps.repos, loaded.project));
      return commitDetail(commit, {
        stats: v.stats ? await commitStats(reader, commit.oid) : undefined,
        status: null,
        lastPipeline: null,
        projectId: loaded.project.id,
      });
    },
  }),
];
