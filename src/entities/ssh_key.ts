// SSH key shapes (GitLab 10.8 lib/api/entities.rb): SSHKey `{id, title, key, created_at}` for a
// user's keys and the instance's deploy keys; DeployKeysProject, the same with the project's
// `can_push`; SSHKeyWithUser, with the key's user (GET /keys/:id). Only public keys are ever
// stored, so `key` is the public key text as saved (GitLab's sanitized form).
import type { KeyRow, DeployKeyInProject } from '../store/keys.js';

export function sshKey(row: KeyRow) {
  return { id: row.id, title: row.title, key: row.key, created_at: row.created_at };
}

export function deployKeyInProject(row: DeployKeyInProject) {
  return { ...sshKey(row), can_push: !!row.can_push };
}

/** `user`: the key's user as UserPublic (GitLab's ghost user for a deploy key whose creator is gone). */
export function sshKeyWithUser<U>(row: KeyRow, user: U) {
  return { ...sshKey(row), user };
}
