// Row types of snippets (GitLab keeps project and personal snippets in one table, told apart by
// `type`) and of the user agent detail recorded with each new one; what the entities need
// loaded with a page of them (SnippetContext).
import type { UserRow } from './rows.js';

export type SnippetType = 'ProjectSnippet' | 'PersonalSnippet';

export interface SnippetRow {
  id: number;
  type: SnippetType;
  /** null for a personal snippet. */
  project_id: number | null;
  author_id: number;
  title: string;
  file_name: string | null;
  description: string | null;
  content: string;
  visibility_level: number;
  created_at: string;
  updated_at: string;
}

export interface UserAgentDetailRow {
  snippet_id: number;
  user_agent: string;
  ip_address: string;
  submitted: boolean | number;
  created_at: string;
  updated_at: string;
}

/** What snippet entities need besides the rows (finders/snippets.ts loads it). */
export interface SnippetContext {
  users: Map<number, UserRow>;
  /** Full paths of the snippets' projects, by project id. */
  projectPaths: Map<number, string>;
}
