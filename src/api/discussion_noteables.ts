// The noteables that have discussions (GitLab 10.8 lib/api/discussions.rb's NOTEABLE_TYPES):
// one entry per kind says where its routes live, how `:noteable_id` is parsed, and how it is
// found as the user sees it (find_noteable: GitLab's 404s for a missing or unreadable one),
// with what the user may do there (create_note, resolve a discussion, a note's policy
// subject) and the diff a positioned note must name. discussions.ts builds every route of
// every entry from this table, so a new kind plugs in with one entry here: issues, merge
// requests, project snippets (by id) and commits.
import type { Deps } from '../deps.js';
import type { LoadedProject } from './core/loaders.js';
import type { Param } from '../http/params.js';
import { p } from '../http/params.js';
import { notFound } from '../http/errors.js';
import type { AnyNoteableType } from '../store/note_kinds.js';
import type { NoteTarget } from '../services/notes/notes.js';
import type { DiffRefs } from '../services/notes/diff_positions.js';
import type { NoteFacts } from '../policy/notes.js';
import { can, type NoteSubject } from '../policy/can.js';
import { gitdirOf } from '../finders/projects.js';
import { repositoryOf } from './repo_context.js';
import { noteSubject, readableNoteable, type Noteable, type NotedKind } from './noteables.js';

/** A noteable found for a discussions route, with what the user may do with its notes. */
export interface DiscussionNoteable {
  target: NoteTarget<AnyNoteableType>;
  /** Shown as the notes' `noteable_iid` (null where the noteable has none). */
  iid: number | null;
  /** create_note on it (on the project, for a commit). */
  canCreateNote: boolean;
  /** Resolving or unresolving its discussions (ResolvableDiscussion#can_resolve?). */
  canResolveDiscussion: boolean;
  /** A note of it as a policy subject (admin_note, resolve_note). */
  noteSubject(note: NoteFacts): NoteSubject;
  /** The repository and the diff a DiffNote's position must name; null refs: no diff. */
  gitdir: string;
  diffRefs: DiffRefs | null;
}

export interface DiscussionNoteableKind {
  /** The path after `/projects/:id/`. */
  segment: string;
  /** GitLab's `noteables_str`, which its 404 for an unreadable noteable names. */
  collection: string;
  /** For route summaries: "an issue". */
  what: string;
  /** The `:noteable_id` parameter. */
  id: Param<number, true> | Param<string, true>;
  /** Its discussions can be resolved (Noteable::RESOLVABLE_TYPES): the resolve route exists. */
  resolvable: boolean;
  find(deps: Deps, loaded: LoadedProject, id: number | string): Promise<DiscussionNoteable>;
}

/** Issues, merge requests and project snippets, through the notes API's own lookup (api/noteables.ts). */
function noted(kind: NotedKind, what: string, resolvable: boolean): DiscussionNoteableKind {
  return {
    segment: kind,
    collection: kind,
    what,
    id: p.integer().required(),
    resolvable,
    async find(deps, loaded, id) {
      const noteable = await readableNoteable(deps, loaded, kind, id as number);
      const mr = (noteable as Partial<Noteable>).mergeRequest;
      return {
        target: { type: noteable.type, id: noteable.id, projectId: noteable.projectId },
        iid: noteable.iid,
        canCreateNote: can(loaded.user, noteable.subject, 'create_note'),
        canResolveDiscussion: noteable.subject.kind === 'merge_request' && can(loaded.user, noteable.subject, 'resolve_note'),
        noteSubject: (note) => noteSubject(noteable, note),
        gitdir: gitdirOf(deps.repos, loaded.project),
        diffRefs: mr ? { base: mr.base_sha, start: mr.start_sha, head: mr.head_sha } : null,
      };
    },
  };
}

/**
 * A commit of the project, by sha or ref (Repository#commit_by): readable with read_note
 * and, here also, download_code (its notes quote its code); else `404 commits Not Found`.
 */
const commits: DiscussionNoteableKind = {
  segment: 'repository/commits',
  collection: 'commits',
  what: 'a commit',
  id: p.string().required(),
  resolvable: false,
  async find(deps, loaded, id) {
    if (!loaded.can('read_note') || !loaded.can('download_code')) throw notFound('commits');
    const reader = repositoryOf(deps, loaded.project);
    const sha = await reader.resolveCommit(String(id));
    if (!sha) throw notFound('commits');
    const parent = (await reader.commit(sha)).parents[0] ?? null;
    const { project, access } = loaded;
    return {
      target: { type: 'Commit', id: 0, projectId: project.id, commitId: sha },
      iid: null,
      canCreateNote: loaded.can('create_note'),
      canResolveDiscussion: false,
      noteSubject: (note) => ({ kind: 'note', project, access, noteable: { readable: true, discussionLocked: false, authorId: null }, note }),
      gitdir: reader.gitdir,
      diffRefs: { base: parent, start: parent, head: sha },
    };
  },
};

export const DISCUSSION_NOTEABLES: readonly DiscussionNoteableKind[] = [
  noted('issues', 'an issue', false),
  noted('merge_requests', 'a merge request', true),
  noted('snippets', 'a snippet', false),
  commits,
];
