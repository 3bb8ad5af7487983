// Creating, changing and deleting snippets (GitLab 10.8's CreateSnippetService,
// UpdateSnippetService and the Snippet model's dependents). Each change is one transaction:
// - create: the row, the user agent detail of the request (UserAgentDetailService: kept only
//   when the request named its user agent, as the model requires both values) and, for a
//   project snippet, a `created` event of target Snippet (Wharf records snippet events;
//   10.8 records none);
// - update: only what changed; updated_at moves only then (Rails' dirty tracking);
// - delete: the snippet with its notes, their award emoji, events and to-dos, its own award
//   emoji and events, which point at it without a foreign key.
// Validation comes first and stores nothing on failure (validationError). The caller has
// checked the permissions.
import type { Conn, Tx } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { SnippetRow, SnippetType } from '../../store/snippet_rows.js';
import { now } from '../../store/time.js';
import { Invalid } from '../../store/domain_errors.js';
import { deniedVisibility, snippetErrors, type SnippetValues } from './validation.js';
import type { SnippetSettings } from './snippet_settings.js';
import { announce } from '../notify.js';

export interface NewSnippet extends SnippetValues {
  description: string | null;
}

/** Where the request came from (the spam-check record GitLab keeps with a snippet). */
export interface RequestOrigin {
  userAgent: string | undefined;
  ipAddress: string;
}

export type SnippetChanges = Partial<NewSnippet>;

export async function createSnippet(
  db: Conn,
  settings: SnippetSettings,
  input: { author: UserRow; project: ProjectWithNamespace | null; values: NewSnippet; origin: RequestOrigin },
): Promise<SnippetRow> {
  const { author, project, values, origin } = input;
  const denied = deniedVisibility(author, values.visibility_level, settings);
  if (denied) throw new Invalid(denied);
  const errors = snippetErrors(values, settings);
  if (Object.keys(errors).length) throw new Invalid(errors);
  const type: SnippetType = project ? 'ProjectSnippet' : 'PersonalSnippet';
  return db.transaction(async (tx) => {
    const stamp = now();
    const id = await insertReturningId(tx, 'snippets', {
      type,
      project_id: project?.id ?? null,
      author_id: author.id,
      title: values.title,
      file_name: values.file_name,
      description: values.description,
      content: values.content,
      visibility_level: values.visibility_level,
      created_at: stamp,
      updated_at: stamp,
    });
    if (origin.userAgent && origin.userAgent.trim() !== '' && origin.ipAddress) {
      await tx('snippet_user_agent_details').insert({
        snippet_id: id,
        user_agent: origin.userAgent,
        ip_address: origin.ipAddress,
        submitted: false,
        created_at: stamp,
        updated_at: stamp,
      });
    }
    if (project) await announce(tx, { name: 'snippetCreated', projectId: project.id, snippetId: id, actor: author });
    return (await tx('snippets').where({ id }).first()) as SnippetRow;
  });
}

export async function updateSnippet(db: Conn, settings: SnippetSettings, editor: UserRow, snippet: SnippetRow, changes: SnippetChanges): Promise<SnippetRow> {
  if (changes.visibility_level !== undefined && changes.visibility_level !== snippet.visibility_level) {
    const denied = deniedVisibility(editor, changes.visibility_level, settings);
    if (denied) throw new Invalid(denied);
  }
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const next = { ...snippet, ...given };
  const errors = snippetErrors(next, settings);
  if (Object.keys(errors).length) throw new Invalid(errors);
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) if (value !== snippet[key as keyof SnippetRow]) changed[key] = value;
  return db.transaction(async (tx) => {
    if (Object.keys(changed).length)
      await tx('snippets')
        .where({ id: snippet.id })
        .update({ ...changed, updated_at: now() });
    return (await tx('snippets').where({ id: snippet.id }).first()) as SnippetRow;
  });
}

/** Removes the snippets of these ids with everything that points at them (inside `tx`). */
async function removeSnippets(tx: Tx | Conn, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const noteIds = tx('notes').select('id').where('noteable_type', 'Snippet').whereIn('noteable_id', ids);
  await tx('award_emoji').where('awardable_type', 'Note').whereIn('awardable_id', noteIds.clone()).delete();
  await tx('events').where('target_type', 'Note').whereIn('target_id', noteIds.clone()).delete();
  await tx('todos').whereIn('note_id', noteIds.clone()).delete();
  await tx('notes').where('noteable_type', 'Snippet').whereIn('noteable_id', ids).delete();
  await tx('award_emoji').where('awardable_type', 'Snippet').whereIn('awardable_id', ids).delete();
  await tx('events').where('target_type', 'Snippet').whereIn('target_id', ids).delete();
  await tx('snippets').whereIn('id', ids).delete();
}

export async function deleteSnippet(db: Conn, snippet: SnippetRow): Promise<void> {
  await db.transaction((tx) => removeSnippets(tx, [snippet.id]));
}

/** For a user's deletion (inside its transaction): GitLab destroys the user's snippets. */
export async function deleteSnippetsOfAuthor(tx: Tx | Conn, userId: number): Promise<void> {
  const rows: { id: number }[] = await tx('snippets').where({ author_id: userId }).select('id');
  await removeSnippets(
    tx,
    rows.map((r) => r.id),
  );
}
