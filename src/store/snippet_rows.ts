// Row types of snippets (GitLab keeps project and personal snippets in one table, told apart by
// `type`) and of the user agent detail recorded with each new one.

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
