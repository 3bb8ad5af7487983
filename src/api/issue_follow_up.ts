// A follow-up issue for a merge request's discussions (GitLab 10.8's Issues::BuildService and
// Issues::ResolveDiscussions, behind `merge_request_to_resolve_discussions_of` and
// `discussion_to_resolve` on POST .../issues): the merge request must be one the user may
// read (else the parameters are ignored); the discussions are the one named, or every
// discussion still to be resolved. Without a description of its own the issue lists them:
//   The following discussion(s) from !<iid> should be addressed:
//
//   - [ ] @<author> started a [discussion](<note url>):  (+<n> comment(s))
//
//       > <the note, quoted>
// ("commented on" when the first unresolved note is a reply), or says there are none. Once
// the issue exists, each discussion the user may resolve is resolved and says where it
// continues (services/notes/discussions.ts resolveWithFollowUp), in the issue's transaction.
import type { Deps } from '../deps.js';
import type { Tx } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import type { LoadedProject } from './core/loaders.js';
import { can } from '../policy/can.js';
import { findMergeRequest } from '../finders/merge_requests.js';
import type { MergeRequestRow } from '../store/issuable_rows.js';
import { discussionsToBeResolved, findDiscussion, type Discussion } from '../finders/discussions.js';
import { fullPathOf } from '../finders/projects.js';
import { findUserById } from '../finders/users.js';
import { isResolvable } from '../store/note_kinds.js';
import { resolveWithFollowUp } from '../services/notes/discussions.js';
import { mergeRequestSubject } from './noteables.js';

export interface FollowUp {
  mergeRequest: MergeRequestRow;
  discussions: Discussion[];
  /** The description the issue gets when it has none of its own. */
  description: string;
}

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);

async function item(deps: Deps, loaded: LoadedProject, mr: MergeRequestRow, d: Discussion): Promise<string> {
  const note = d.notes.find((n) => isResolvable(n) && n.resolved_at === null) ?? d.notes[0];
  const author = note.author_id === null ? undefined : await findUserById(deps.db, note.author_id);
  const action = note === d.notes[0] ? 'started' : 'commented on';
  const url = `${deps.urls.web(fullPathOf(loaded.project))}/merge_requests/${mr.iid}#note_${note.id}`;
  const others = d.notes.length - 1;
  let info = `- [ ] @${author?.username ?? 'ghost'} ${action} a [discussion](${url}): `;
  if (others > 0) info += ` (+${others} ${plural(others, 'comment')})`;
  const quote = note.body
    .split(/(?<=\n)/)
    .map((line) => `    > ${line}`)
    .join('');
  return [info, quote].join('\n\n');
}

/** The follow-up of the merge request `mrIid` (and `discussionId`), or null when the user may not read it. */
export async function followUpOf(deps: Deps, loaded: LoadedProject, mrIid: number, discussionId: string | null | undefined): Promise<FollowUp | null> {
  const mr = await findMergeRequest(deps.db, loaded.project.id, mrIid);
  if (!mr || !can(loaded.user, mergeRequestSubject(loaded, mr), 'read_merge_request')) return null;
  const target = { type: 'MergeRequest' as const, id: mr.id, projectId: mr.target_project_id };
  let discussions: Discussion[];
  if (discussionId) {
    const d = await findDiscussion(deps.db, target, discussionId);
    discussions = d ? [d] : [];
  } else {
    discussions = await discussionsToBeResolved(deps.db, mr.id);
  }
  if (!discussions.length) return { mergeRequest: mr, discussions, description: `There are no unresolved discussions. Review the conversation in !${mr.iid}` };
  const head = `The following ${plural(discussions.length, 'discussion')} from !${mr.iid} should be addressed:`;
  const items: string[] = [];
  for (const d of discussions) items.push(await item(deps, loaded, mr, d));
  return { mergeRequest: mr, discussions, description: [head, ...items].join('\n\n') };
}

/** Resolves the follow-up's discussions with the new issue (#iid), those the user may resolve. */
export async function resolveFollowUp(tx: Tx, loaded: LoadedProject, followUp: FollowUp, user: UserRow, issueIid: number): Promise<void> {
  const mr = followUp.mergeRequest;
  if (!can(user, mergeRequestSubject(loaded, mr), 'resolve_note')) return;
  const resolvable = followUp.discussions.filter((d) => d.notes.some(isResolvable));
  const target = { type: 'MergeRequest' as const, id: mr.id, projectId: mr.target_project_id };
  await resolveWithFollowUp(tx, target, resolvable, user, `#${issueIid}`);
}
