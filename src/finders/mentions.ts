// `@name` mentions in Markdown, the way GitLab 10.8's reference extractor finds them
// (User.reference_pattern through Banzai's UserReferenceFilter): not inside code spans, code
// blocks, links or HTML comments; `name` is a user's username or a group's full path
// (case-insensitive); `@all` is the project's whole team. A mention is "directly addressed"
// when it is among the leading mentions of a top-level paragraph (DirectlyAddressedUserParser:
// only whitespace may separate them). Titles are single-line texts without paragraphs, so
// nothing in a title is directly addressed.
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { canReadGroup } from '../policy/groups.js';
import { maskInline } from './markdown_masks.js';

// GitLab's NAMESPACE_FORMAT_REGEX (a path may not end in '.', '.git' or '.atom'), repeated
// with '/' for subgroups, after a character that is not a word character.
const SEGMENT = String.raw`(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_\-]|[a-zA-Z0-9_])(?<!\.git|\.atom)`;
const MENTION = new RegExp(String.raw`(?<![\w])@(${SEGMENT}(?:/${SEGMENT})*)`, 'g');

export interface Mentions {
  /** Every name mentioned, lower-cased, in order of first appearance. */
  names: string[];
  /** The names among them that are directly addressed. */
  direct: string[];
}

interface Block {
  kind: 'paragraph' | 'other';
  text: string;
}

/** Splits Markdown into top-level blocks, dropping fenced and indented code. */
function blocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: Block[] = [];
  let current: Block | null = null;
  let fence: string | null = null;
  const close = () => {
    if (current) out.push(current);
    current = null;
  };
  for (const line of lines) {
    if (fence !== null) {
      if (new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(line)) fence = null;
      continue;
    }
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (opening) {
      close();
      fence = opening[1];
      continue;
    }
    if (line.trim() === '') {
      close();
      continue;
    }
    if (!current && /^( {4}|\t)/.test(line)) continue; // indented code block
    if (!current || (current as Block).kind === 'other') {
      close();
      // Headings, quotes, lists, tables and HTML blocks are not paragraphs at the root.
      const other = /^ {0,3}(#{1,6}(\s|$)|>|[-*+]\s|\d{1,9}[.)]\s|\||<)/.test(line);
      current = { kind: other ? 'other' : 'paragraph', text: line };
      if (other) close();
      continue;
    }
    (current as Block).text += `\n${line}`;
  }
  close();
  return out;
}

function names(text: string): string[] {
  return [...text.matchAll(MENTION)].map((m) => m[1].toLowerCase());
}

/** The mentions of a Markdown text (a description or a note). */
export function extractMentions(markdown: string | null | undefined): Mentions {
  const found: string[] = [];
  const direct: string[] = [];
  for (const block of blocks(markdown ?? '')) {
    const masked = block.text.split('\n').map(maskInline).join('\n');
    found.push(...names(masked));
    if (block.kind !== 'paragraph') continue;
    // Leading mentions, separated by whitespace only.
    const lead = new RegExp(String.raw`^\s*@(${SEGMENT}(?:/${SEGMENT})*)`);
    let rest = masked;
    for (let m = lead.exec(rest); m; m = lead.exec(rest)) {
      direct.push(m[1].toLowerCase());
      rest = rest.slice(m[0].length);
    }
  }
  return { names: [...new Set(found)], direct: [...new Set(direct)] };
}

/** The mentions of a single-line text (a title): code spans aside, never directly addressed. */
export function extractTitleMentions(title: string | null | undefined): Mentions {
  return { names: [...new Set(names(maskInline(title ?? '')))], direct: [] };
}

/** Merges the mentions of several texts of one object (title and description). */
export function mergeMentions(...all: Mentions[]): Mentions {
  return {
    names: [...new Set(all.flatMap((m) => m.names))],
    direct: [...new Set(all.flatMap((m) => m.direct))],
  };
}

/**
 * The users the names stand for: a username is that user; a group path is the group's direct
 * members (when the author may see the group); `all` is the project's team (its members and
 * those of its groups) when the author is part of it. Unknown names are ignored. Returns user ids, without duplicates.
 */
export async function resolveMentions(db: Conn, project: ProjectWithNamespace, author: UserRow, mentioned: string[]): Promise<number[]> {
  if (!mentioned.length) return [];
  const ids = new Set<number>();
  const wanted = mentioned.filter((n) => n !== 'all');
  if (wanted.length) {
    const users: { id: number; username: string }[] = await db('users')
      .whereIn(db.raw('lower(username)') as never, wanted)
      .select('id', 'username');
    const byName = new Map(users.map((u) => [u.username.toLowerCase(), u.id]));
    const rest = wanted.filter((n) => !byName.has(n));
    const groups = rest.length
      ? await db('namespaces')
          .where('kind', 'group')
          .whereIn(db.raw('lower(full_path)') as never, rest)
      : [];
    const groupMembers = new Map<string, number[]>();
    for (const group of groups) {
      if (!(await canReadGroup(db, author, group))) continue;
      const members: { user_id: number }[] = await db('members').where({ source_type: 'group', source_id: group.id }).whereNull('requested_at').select('user_id');
      groupMembers.set(
        String(group.full_path).toLowerCase(),
        members.map((m) => m.user_id),
      );
    }
    for (const name of wanted) {
      const id = byName.get(name);
      if (id !== undefined) ids.add(id);
      for (const member of groupMembers.get(name) ?? []) ids.add(member);
    }
  }
  if (mentioned.includes('all')) {
    // The project's team: its members and those of its group and the group's ancestors.
    const members: { user_id: number }[] = await db('members')
      .where((w) => {
        w.where({ source_type: 'project', source_id: project.id });
        if (project.namespace.kind === 'group') {
          w.orWhere((g) => g.where('source_type', 'group').whereIn('source_id', db('namespace_ancestors').select('ancestor_id').where('namespace_id', project.namespace_id)));
        }
      })
      .whereNull('requested_at')
      .distinct('user_id');
    const memberIds = members.map((m) => m.user_id);
    if (memberIds.includes(author.id)) for (const id of memberIds) ids.add(id);
  }
  return [...ids];
}
