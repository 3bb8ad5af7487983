// The cast of users most permission tests need, and projects that give them their roles.
import type { UserRow } from '../../src/store/rows.js';
import { insertMember } from '../../src/services/members.js';
import type { TestServer } from './server.js';

export type Account = { user: UserRow; token: string };

export interface Roles {
  /** Creates the projects (a master member of each through its personal namespace). */
  owner: Account;
  master: Account;
  dev: Account;
  reporter: Account;
  guest: Account;
  /** Signed in, member of nothing. */
  stranger: Account;
  /** An administrator, member of nothing. */
  admin: Account;
}

/** Seeds one user per role; `ownerName` names the owner (it becomes the namespace path). */
export async function createRoles(s: TestServer, ownerName = 'owner'): Promise<Roles> {
  const user = (name: string, admin = false) => s.createUser(name, { admin }) as Promise<Account>;
  return {
    owner: await user(ownerName),
    master: await user('master'),
    dev: await user('dev'),
    reporter: await user('reporter'),
    guest: await user('guest'),
    stranger: await user('stranger'),
    admin: await user('boss', true),
  };
}

/** Makes each account a member of the project at its level. */
export async function addProjectMembers(s: TestServer, projectId: number, members: readonly (readonly [Account, number])[]): Promise<void> {
  for (const [who, level] of members) {
    await insertMember(s.db, { sourceType: 'project', sourceId: projectId, userId: who.user.id, accessLevel: level });
  }
}
