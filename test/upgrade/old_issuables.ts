// What the first day's schema held besides the foundation's rows (old_rows.ts), written as its
// services wrote it: a protected branch, labels and a milestone, two issues (one closed and
// confidential) with an assignee, labels and iids counted in internal_ids, notes, an award
// emoji, a subscription, a merge request, the activity events (a push with its payload) and
// a pending to-do.
import type { Knex } from 'knex';
import { at, insert, type OldWorld } from './old_rows.js';

export async function fillFirstDay(db: Knex, world: OldWorld): Promise<OldWorld> {
  const { alice, carol } = world.ids;
  const app = world.ids.app;
  const stamp = (minute: number) => ({ created_at: at(minute), updated_at: at(minute) });
  await db('protected_branches').insert({ project_id: app, name: 'master', push_access_level: 40, merge_access_level: 40, ...stamp(10) });
  const bug = await insert(db, 'labels', { project_id: app, title: 'bug', color: '#ff0000', description: 'Something is broken', priority: 1, ...stamp(11) });
  const feature = await insert(db, 'labels', { project_id: app, title: 'feature', color: '#00ff00', ...stamp(11) });
  const v1 = await insert(db, 'milestones', { project_id: app, iid: 1, title: 'v1', due_date: '2030-01-01', ...stamp(12) });
  const crash = await insert(db, 'issues', {
    project_id: app,
    iid: 1,
    title: 'The app crashes on start',
    description: 'Since the last release, @alice',
    author_id: carol,
    milestone_id: v1,
    user_notes_count: 1,
    ...stamp(13),
  });
  const docs = await insert(db, 'issues', {
    project_id: app,
    iid: 2,
    title: 'Docs are missing',
    state: 'closed',
    confidential: true,
    author_id: alice,
    closed_at: at(15),
    closed_by_id: alice,
    created_at: at(14),
    updated_at: at(15),
  });
  await db('issue_assignees').insert({ issue_id: crash, user_id: alice });
  await db('label_links').insert({ target_type: 'issue', target_id: crash, label_id: bug });
  const mr = await insert(db, 'merge_requests', {
    target_project_id: app,
    iid: 1,
    source_project_id: app,
    source_branch: 'feature',
    target_branch: 'master',
    title: 'Fix the crash',
    description: 'Closes #1',
    author_id: carol,
    assignee_id: alice,
    milestone_id: v1,
    head_sha: world.shas.feature,
    ...stamp(16),
  });
  await db('label_links').insert({ target_type: 'merge_request', target_id: mr, label_id: feature });
  await db('internal_ids').insert([
    { project_id: app, usage: 'milestones', last_value: 1 },
    { project_id: app, usage: 'issues', last_value: 2 },
    { project_id: app, usage: 'merge_requests', last_value: 1 },
  ]);
  const note = await insert(db, 'notes', { project_id: app, noteable_type: 'Issue', noteable_id: crash, author_id: alice, body: 'Confirmed on v1', ...stamp(17) });
  await db('notes').insert({ project_id: app, noteable_type: 'MergeRequest', noteable_id: mr, author_id: alice, body: 'Looks good', ...stamp(18) });
  await db('merge_requests').where({ id: mr }).update({ user_notes_count: 1 });
  await db('award_emoji').insert({ awardable_type: 'Issue', awardable_id: crash, user_id: carol, name: 'thumbsup', ...stamp(19) });
  await db('subscriptions').insert({ subscribable_type: 'Issue', subscribable_id: crash, user_id: alice, project_id: app, subscribed: true, ...stamp(13) });
  const event = (author: number, action: number, minute: number, target?: [string, number]) => ({
    project_id: app,
    author_id: author,
    action,
    target_type: target?.[0] ?? null,
    target_id: target?.[1] ?? null,
    ...stamp(minute),
  });
  await db('events').insert([event(alice, 1, 5), event(carol, 1, 13, ['Issue', crash]), event(alice, 1, 14, ['Issue', docs]), event(alice, 3, 15, ['Issue', docs])]);
  await db('events').insert([event(carol, 1, 16, ['MergeRequest', mr]), event(alice, 6, 17, ['Note', note])]);
  const push = await insert(db, 'events', event(alice, 5, 10));
  await db('push_event_payloads').insert({
    event_id: push,
    commit_count: 1,
    action: 'pushed',
    ref_type: 'branch',
    commit_to: world.shas.master,
    ref: 'master',
    commit_title: 'Add a README',
  });
  await db('todos').insert({ user_id: alice, project_id: app, author_id: carol, target_type: 'Issue', target_id: crash, action: 2, ...stamp(13) });
  return { ...world, ids: { ...world.ids, bug, feature, v1, crash, docs, mr, note } };
}
