// Restoring project.json's relations into a new project, inside the caller's transaction
// (GitLab 10.8's ProjectTreeRestorer, RelationFactory and MembersMapper): members found by
// email or username become members and map their old user id to the existing user; other
// authors become the importer. As in GitLab, a note keeps its author's name unless the
// importer is an admin and the author was mapped, in the words "*By <name> on <time> (imported from GitLab project)*". iids, states, timestamps,
// confidentiality, labels, milestones, assignees and label links are kept, and the iid
// counters continue after the largest imported iid. Project snippets come back with their
// notes, and award emoji (on issues, merge requests, notes and snippets) with their awarder
// mapped the same way; a name that is not an emoji of GitLab's list is left out. Pipelines
// and their jobs: import_export/import_pipelines.ts.
import type { Tx } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { UserRow } from '../../store/rows.js';
import { MASTER } from '../../store/levels.js';
import type { Tree } from './import_archive.js';
import { EMOJI_NAMES } from '../issuables/emoji_names.js';
import { restorePipelines } from './import_pipelines.js';

type Row = Record<string, any>;

const str = (v: unknown, max = 65_535): string | null => (typeof v === 'string' ? v.slice(0, max) : v === null || v === undefined ? null : String(v).slice(0, max));
/** A boolean of the imported JSON: GitLab writes true or false; 1 and "true" count as true. */
const jsonBool = (v: unknown): boolean => v === true || v === 1 || v === 'true';
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
const list = (v: unknown): Row[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const stamp = (v: unknown, fallback: string): string => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : fallback);
const ISSUE_STATES = new Set(['opened', 'closed']);
const MR_STATES = new Set(['opened', 'closed', 'merged', 'locked']);
const LEVELS = new Set([10, 20, 30, 40, 50]);

/** MembersMapper: old user id → existing user id, for members found by email or username. */
async function mapMembers(tx: Tx, projectId: number, importer: UserRow, members: Row[], at: string): Promise<Map<number, number>> {
  const map = new Map<number, number>();
  const current = new Set((await tx('members').where({ source_type: 'project', source_id: projectId }).select('user_id')).map((m: Row) => m.user_id));
  if (!current.has(importer.id)) {
    await tx('members').insert({
      source_type: 'project',
      source_id: projectId,
      user_id: importer.id,
      access_level: MASTER,
      requested_at: null,
      created_by_id: importer.id,
      created_at: at,
      updated_at: at,
    });
    current.add(importer.id);
  }
  for (const m of members) {
    const u = m.user;
    if (!u || typeof u !== 'object' || int(u.id) === null) continue;
    const email = str(u.email, 255);
    const username = str(u.username, 255);
    const found: Row | undefined = await tx('users')
      .where((q) => {
        if (email) q.orWhereRaw('lower(email) = ?', [email.toLowerCase()]);
        if (username) q.orWhereRaw('lower(username) = ?', [username.toLowerCase()]);
        if (!email && !username) q.whereRaw('1 = 0');
      })
      .first('id');
    if (!found) continue;
    map.set(u.id, found.id);
    const level = int(m.access_level);
    if (!current.has(found.id) && level !== null && LEVELS.has(level)) {
      await tx('members').insert({
        source_type: 'project',
        source_id: projectId,
        user_id: found.id,
        access_level: Math.min(level, MASTER),
        expires_at: str(m.expires_at, 30),
        requested_at: null,
        created_by_id: importer.id,
        created_at: stamp(m.created_at, at),
        updated_at: stamp(m.updated_at, at),
      });
      current.add(found.id);
    }
  }
  return map;
}

export interface RestoreCounts {
  labels: number;
  milestones: number;
  issues: number;
  merge_requests: number;
  notes: number;
  snippets: number;
  award_emoji: number;
  pipelines: number;
}

type Noteable = 'Issue' | 'MergeRequest' | 'Snippet';
const VISIBILITY_LEVELS = new Set([0, 10, 20]);

export async function restoreTree(tx: Tx, projectId: number, importer: UserRow, tree: Tree, at: string, progress?: (m: string) => void): Promise<RestoreCounts> {
  const members = await mapMembers(tx, projectId, importer, list(tree.project_members), at);
  const mapAuthor = (id: unknown) => (int(id) !== null && members.has(id as number) ? (members.get(id as number) as number) : importer.id);
  const hasAuthor = (id: unknown) => importer.admin && int(id) !== null && members.has(id as number);
  const counts: RestoreCounts = { labels: 0, milestones: 0, issues: 0, merge_requests: 0, notes: 0, snippets: 0, award_emoji: 0, pipelines: 0 };

  // Labels by title (a label_link carries its label; the same title is one label).
  const labelIds = new Map<string, number>();
  const labelFor = async (l: Row): Promise<number | null> => {
    const title = str(l.title, 255);
    if (!title) return null;
    const known = labelIds.get(title);
    if (known) return known;
    const color = typeof l.color === 'string' && /^#[0-9A-Fa-f]{6}$/.test(l.color) ? l.color : '#428BCA';
    const priority = list(l.priorities)[0]?.priority;
    const id = await insertReturningId(tx, 'labels', {
      project_id: projectId,
      title,
      color,
      description: str(l.description),
      priority: int(priority),
      created_at: stamp(l.created_at, at),
      updated_at: stamp(l.updated_at, at),
    });
    labelIds.set(title, id);
    counts.labels += 1;
    return id;
  };
  for (const l of list(tree.labels)) await labelFor(l);

  // Milestones by iid (an issue's milestone carries the milestone).
  const milestoneIds = new Map<number, number>();
  const milestoneFor = async (m: Row | undefined): Promise<number | null> => {
    if (!m) return null;
    const iid = int(m.iid);
    if (iid === null || !str(m.title)) return null;
    const known = milestoneIds.get(iid);
    if (known) return known;
    const id = await insertReturningId(tx, 'milestones', {
      project_id: projectId,
      iid,
      title: str(m.title, 255),
      description: str(m.description),
      state: m.state === 'closed' ? 'closed' : 'active',
      due_date: str(m.due_date, 10),
      start_date: str(m.start_date, 10),
      created_at: stamp(m.created_at, at),
      updated_at: stamp(m.updated_at, at),
    });
    milestoneIds.set(iid, id);
    counts.milestones += 1;
    return id;
  };
  for (const m of list(tree.milestones)) await milestoneFor(m);

  const addAwards = async (awards: Row[], type: Noteable | 'Note', targetId: number) => {
    for (const a of awards) {
      const name = str(a.name, 255);
      if (!name || !EMOJI_NAMES.has(name)) continue;
      const at2 = stamp(a.created_at, at);
      const added = await tx('award_emoji')
        .insert({ awardable_type: type, awardable_id: targetId, user_id: mapAuthor(a.user_id), name, created_at: at2, updated_at: stamp(a.updated_at, at2) })
        .onConflict(['awardable_type', 'awardable_id', 'name', 'user_id'])
        .ignore()
        .returning('id');
      counts.award_emoji += added.length;
    }
  };

  const addNotes = async (notes: Row[], type: Noteable, targetId: number): Promise<number> => {
    let userNotes = 0;
    for (const n of notes) {
      let body = str(n.note) ?? '';
      if (!hasAuthor(n.author_id)) {
        if (body.trim() === '') body = '*Blank note*';
        const name = str(n.author?.name, 255) ?? 'Ghost User';
        const when = (typeof n.updated_at === 'string' ? n.updated_at : at).split('.')[0];
        body += `\n\n *By ${name} on ${when} (imported from GitLab project)*`;
      }
      const system = jsonBool(n.system);
      const note = {
        project_id: projectId,
        noteable_type: type,
        noteable_id: targetId,
        author_id: mapAuthor(n.author_id),
        body,
        system,
        created_at: stamp(n.created_at, at),
        updated_at: stamp(n.updated_at, at),
      };
      const awards = list(n.award_emoji);
      // The new id is asked for only when awards hang off the note (most notes have none).
      if (awards.length) await addAwards(awards, 'Note', await insertReturningId(tx, 'notes', note));
      else await tx('notes').insert(note);
      counts.notes += 1;
      if (!system) userNotes += 1;
    }
    return userNotes;
  };
  const addLabelLinks = async (links: Row[], type: Exclude<Noteable, 'Snippet'>, targetId: number) => {
    const seen = new Set<number>();
    for (const link of links) {
      const id = link.label && typeof link.label === 'object' ? await labelFor(link.label) : null;
      if (id === null || seen.has(id)) continue;
      seen.add(id);
      await tx('label_links').insert({ target_type: type === 'Issue' ? 'issue' : 'merge_request', target_id: targetId, label_id: id });
    }
  };

  const issueIids = new Set<number>();
  let maxIssue = 0;
  for (const i of list(tree.issues)) {
    const iid = int(i.iid);
    if (iid === null || iid < 1 || issueIids.has(iid) || !str(i.title)) continue;
    issueIids.add(iid);
    maxIssue = Math.max(maxIssue, iid);
    const state = ISSUE_STATES.has(i.state) ? i.state : i.state === 'reopened' ? 'opened' : 'opened';
    const id = await insertReturningId(tx, 'issues', {
      project_id: projectId,
      iid,
      title: str(i.title, 255),
      description: str(i.description),
      state,
      author_id: mapAuthor(i.author_id),
      confidential: jsonBool(i.confidential),
      discussion_locked: i.discussion_locked === null || i.discussion_locked === undefined ? null : jsonBool(i.discussion_locked),
      due_date: str(i.due_date, 10),
      milestone_id: await milestoneFor(i.milestone),
      closed_at: state === 'closed' ? stamp(i.closed_at ?? i.updated_at, at) : null,
      time_estimate: int(i.time_estimate) ?? 0,
      total_time_spent: list(i.timelogs).reduce((s, t) => s + (int(t.time_spent) ?? 0), 0),
      user_notes_count: 0,
      created_at: stamp(i.created_at, at),
      updated_at: stamp(i.updated_at, at),
    });
    const userNotes = await addNotes(list(i.notes), 'Issue', id);
    if (userNotes) await tx('issues').where({ id }).update({ user_notes_count: userNotes });
    await addAwards(list(i.award_emoji), 'Issue', id);
    await addLabelLinks(list(i.label_links), 'Issue', id);
    const assignees = new Set<number>();
    for (const a of list(i.issue_assignees)) if (members.has(a.user_id)) assignees.add(members.get(a.user_id) as number);
    if (assignees.size === 0 && int(i.assignee_id) !== null && members.has(i.assignee_id)) assignees.add(members.get(i.assignee_id) as number);
    for (const userId of assignees) await tx('issue_assignees').insert({ issue_id: id, user_id: userId });
    counts.issues += 1;
    if (counts.issues % 1000 === 0) progress?.(`restored ${counts.issues} issues`);
  }

  const mrIids = new Set<number>();
  let maxMr = 0;
  for (const m of list(tree.merge_requests)) {
    const iid = int(m.iid);
    const source = str(m.source_branch, 255);
    const target = str(m.target_branch, 255);
    if (iid === null || iid < 1 || mrIids.has(iid) || !str(m.title) || !source || !target) continue;
    mrIids.add(iid);
    maxMr = Math.max(maxMr, iid);
    const state = MR_STATES.has(m.state) ? m.state : 'opened';
    const diff = m.merge_request_diff && typeof m.merge_request_diff === 'object' ? m.merge_request_diff : {};
    const sha = (v: unknown) => (typeof v === 'string' && /^[0-9a-f]{40}$/.test(v) ? v : null);
    const id = await insertReturningId(tx, 'merge_requests', {
      target_project_id: projectId,
      source_project_id: projectId,
      iid,
      source_branch: source,
      target_branch: target,
      title: str(m.title, 255),
      description: str(m.description),
      state,
      author_id: mapAuthor(m.author_id),
      assignee_id: members.has(m.assignee_id) ? members.get(m.assignee_id) : null,
      milestone_id: await milestoneFor(m.milestone),
      merge_status: 'unchecked',
      head_sha: sha(diff.head_commit_sha) ?? sha(m.diff_head_sha),
      base_sha: sha(diff.base_commit_sha),
      start_sha: sha(diff.start_commit_sha),
      merge_commit_sha: sha(m.merge_commit_sha),
      merge_when_pipeline_succeeds: false,
      discussion_locked: m.discussion_locked === null || m.discussion_locked === undefined ? null : jsonBool(m.discussion_locked),
      time_estimate: int(m.time_estimate) ?? 0,
      total_time_spent: 0,
      user_notes_count: 0,
      merged_at: state === 'merged' ? stamp(m.merged_at ?? m.updated_at, at) : null,
      created_at: stamp(m.created_at, at),
      updated_at: stamp(m.updated_at, at),
    });
    const userNotes = await addNotes(list(m.notes), 'MergeRequest', id);
    if (userNotes) await tx('merge_requests').where({ id }).update({ user_notes_count: userNotes });
    await addAwards(list(m.award_emoji), 'MergeRequest', id);
    await addLabelLinks(list(m.label_links), 'MergeRequest', id);
    counts.merge_requests += 1;
  }

  for (const sn of list(tree.snippets)) {
    const title = str(sn.title, 255);
    const content = str(sn.content);
    if (!title || content === null) continue;
    const level = int(sn.visibility_level);
    const id = await insertReturningId(tx, 'snippets', {
      type: 'ProjectSnippet',
      project_id: projectId,
      author_id: mapAuthor(sn.author_id),
      title,
      file_name: str(sn.file_name, 255),
      description: str(sn.description),
      content,
      visibility_level: level !== null && VISIBILITY_LEVELS.has(level) ? level : 0,
      created_at: stamp(sn.created_at, at),
      updated_at: stamp(sn.updated_at, at),
    });
    await addNotes(list(sn.notes), 'Snippet', id);
    await addAwards(list(sn.award_emoji), 'Snippet', id);
    counts.snippets += 1;
  }

  counts.pipelines = await restorePipelines(tx, projectId, tree.pipelines, mapAuthor, at);

  for (const b of list(tree.protected_branches)) {
    const name = str(b.name, 255);
    if (!name) continue;
    const level = (v: unknown) => {
      const n = int(list(v)[0]?.access_level);
      return n !== null && [0, 30, 40].includes(n) ? n : 40;
    };
    await tx('protected_branches')
      .insert({
        project_id: projectId,
        name,
        push_access_level: level(b.push_access_levels),
        merge_access_level: level(b.merge_access_levels),
        created_at: stamp(b.created_at, at),
        updated_at: stamp(b.updated_at, at),
      })
      .onConflict(['project_id', 'name'])
      .ignore();
  }

  const maxMilestone = Math.max(0, ...milestoneIds.keys());
  for (const [usage, last] of [
    ['issues', maxIssue],
    ['merge_requests', maxMr],
    ['milestones', maxMilestone],
  ] as const) {
    if (last > 0) await tx('internal_ids').insert({ project_id: projectId, usage, last_value: last }).onConflict(['project_id', 'usage']).merge({ last_value: last });
  }
  const description = str(tree.description);
  if (description !== null) await tx('projects').where({ id: projectId }).update({ description });
  return counts;
}
