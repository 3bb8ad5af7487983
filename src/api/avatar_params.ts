// The `avatar` file parameter of POST/PUT /users, /projects and /groups (GitLab 10.8's
// `optional :avatar, type: File`): checked before the owner is written (a bad file is the
// owner's validation error, 400 {message: {avatar: [...]}}), stored once it is
// (services/avatars.ts).
import { p, type FileParam } from '../http/params.js';
import { readAvatar, storeAvatar, type Avatar, type AvatarModel } from '../services/avatars.js';
import type { Deps } from '../deps.js';

export const avatarSchema = { avatar: p.file() };

/** The checked avatar a request carries, or undefined. */
export async function avatarOf(v: { avatar?: FileParam | null }): Promise<Avatar | undefined> {
  return v.avatar ? readAvatar(v.avatar) : undefined;
}

/** Stores the avatar for a written owner and sets `avatar_url` on the row to present. */
export async function attachAvatar<T extends { id: number; avatar_url: string | null }>(deps: Deps, model: AvatarModel, row: T, avatar: Avatar | undefined): Promise<T> {
  if (!avatar) return row;
  return { ...row, avatar_url: await storeAvatar(deps.db, model, row.id, avatar) };
}
