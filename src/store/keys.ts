// Row types of the SSH key tables (migrations/20261122000028_keys.ts).
import type { Flag } from './rows.js';

/** GitLab's single-table kinds: a user's own key, or a deploy key. */
export type KeyType = 'Key' | 'DeployKey';

export interface KeyRow {
  id: number;
  type: KeyType;
  /** The owner of a user key; the creator of a deploy key (null once that user is deleted). */
  user_id: number | null;
  title: string;
  /** The public key as stored: `type base64 [comment]`. */
  key: string;
  /** MD5 of the key blob as colon-separated hex (GitLab 10.8's fingerprint). */
  fingerprint: string;
  created_at: string;
  updated_at: string;
}

/** A deploy key with its link to one project (what the project's deploy key routes show). */
export type DeployKeyInProject = KeyRow & { can_push: Flag; link_id: number; project_id: number; link_updated_at: string };
