// The cast of users most permission tests need, and projects that give them their roles.
import type { UserRow } from '../../src/store/rows.js';
import { insertMember } from '../../src/services/members/members.js';
import { DEVELOPER, GUEST, MASTER, REPORTER } from '../../src/policy/levels.js';
import { createProject } from './projects.js';
import { bootServer, TestServer } from './server.js';

export type Account = { user: UserRow; token: string };
/** What a membership needs of an account. */
type Member = { user: { id: number } };

/** The member roles of a project, each cast at its level by `addRoleMembers`. */
export type Cast = Partial<Record<'master' | 'dev' | 'reporter' | 'guest', Member>>;
const CAST_LEVELS = { master: MASTER, dev: DEVELOPER, reporter: REPORTER, guest: GUEST } as const;

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

/**
 * A suite's server and cast: call it at the top of a `describe`; it registers a `before` that
 * boots the server and seeds the roles, and an `after` that closes the server. The objects come
 * back at once, so the suite can destructure them, and are filled in by that `before`: read them
 * in hooks and tests only.
 */
export function useServerWithRoles(ownerName = 'owner'): { s: TestServer } & Roles {
  const s = Object.create(TestServer.prototype) as TestServer;
  const roles = { owner: {}, master: {}, dev: {}, reporter: {}, guest: {}, stranger: {}, admin: {} } as Roles;
  before(async () => {
    Object.assign(s, await bootServer());
    const seeded = await createRoles(s, ownerName);
    for (const role of Object.keys(roles) as (keyof Roles)[]) Object.assign(roles[role], seeded[role]);
  });
  after(async () => s.close());
  return { s, ...roles };
}

/** Makes each account a member of the project at its level. */
export async function addProjectMembers(s: TestServer, projectId: number, members: readonly (readonly [Member, number])[]): Promise<void> {
  for (const [who, level] of members) {
    await insertMember(s.db, { sourceType: 'project', sourceId: projectId, userId: who.user.id, accessLevel: level });
  }
}

/** Makes the accounts given members of the project: master as Master, dev as Developer, and so on. */
export async function addRoleMembers(s: TestServer, projectId: number, cast: Cast): Promise<void> {
  const members = (Object.keys(CAST_LEVELS) as (keyof Cast)[]).flatMap((role) => (cast[role] ? [[cast[role], CAST_LEVELS[role]] as const] : []));
  await addProjectMembers(s, projectId, members);
}

/** A new project of `owner`'s (POST /projects with `json`), the roles in `cast` its members; the project's entity. */
export async function projectWithRoles(s: TestServer, owner: { token: string }, cast: Cast, json: Record<string, unknown>): Promise<any> {
  const project = await createProject(s, owner.token, json);
  await addRoleMembers(s, project.id, cast);
  return project;
}
