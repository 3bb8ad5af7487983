// What goes with a deleted issue or merge request, as GitLab's `dependent: :destroy` chains
// did: its notes (with their award emoji, events and todos), its own award emoji,
// subscriptions, events, todos, label links and user agent details. None of these rows has a foreign key on its
// polymorphic target, so the deleting transaction removes them here.
import type { Tx } from '../../store/db.js';

export type IssuableType = 'Issue' | 'MergeRequest';

const LABEL_LINK_TYPE: Record<IssuableType, string> = { Issue: 'issue', MergeRequest: 'merge_request' };
const CHUNK = 500; // stays under SQLite's bound-parameter limit

export async function deleteIssuableDependents(tx: Tx, type: IssuableType, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const noteIds = () => tx('notes').where('noteable_type', type).whereIn('noteable_id', chunk).select('id');
    await tx('award_emoji').where('awardable_type', 'Note').whereIn('awardable_id', noteIds()).delete();
    await tx('events').where('target_type', 'Note').whereIn('target_id', noteIds()).delete();
    await tx('todos').whereIn('note_id', noteIds()).delete();
    await tx('notes').where('noteable_type', type).whereIn('noteable_id', chunk).delete();
    await tx('award_emoji').where('awardable_type', type).whereIn('awardable_id', chunk).delete();
    await tx('subscriptions').where('subscribable_type', type).whereIn('subscribable_id', chunk).delete();
    await tx('events').where('target_type', type).whereIn('target_id', chunk).delete();
    await tx('todos').where('target_type', type).whereIn('target_id', chunk).delete();
    await tx('label_links').where('target_type', LABEL_LINK_TYPE[type]).whereIn('target_id', chunk).delete();
    await tx('user_agent_details').where('subject_type', type).whereIn('subject_id', chunk).delete();
  }
}
