// Looking users up by id or username.
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';

/** Digits are an id; anything else a username (case-insensitive). */
export async function findUserByIdOrUsername(db: Conn, idOrUsername: string): Promise<UserRow | undefined> {
  if (/^\d+$/.test(idOrUsername)) return db('users').where({ id: Number(idOrUsername) }).first();
  return findUserByUsername(db, idOrUsername);
}

export async function findUserByUsername(db: Conn, username: string): Promise<UserRow | undefined> {
  return db('users').whereRaw('lower(username) = ?', [username.toLowerCase()]).first();
}
