// The rows an early Wharf wrote, written by SQL into its schema the way its services wrote them
// (ids from the sequences, ISO timestamps, GitLab's stored codes: visibility and access levels,
// event and to-do actions, class names as target types, JSON-text scopes and tag lists, SHA-256
// token digests), with the bare repositories its projects had. These need only the first
// migration's tables; old_issuables.ts adds what the first day's schema holds besides.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { git, pushCommit } from '../helpers/bare_git.js';

export interface OldWorld {
  tokens: { root: string; alice: string; bob: string; carol: string };
  ids: Record<string, number>;
  /** The commits of platform/app: master's and the feature branch's. */
  shas: { master: string; feature: string };
}

const digest = (token: string) => crypto.createHash('sha256').update(token, 'utf8').digest('hex');
export const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 8, minute)).toISOString();

export async function insert(db: Knex, table: string, row: Record<string, unknown>): Promise<number> {
  const [id] = await db(table).insert(row).returning('id');
  return typeof id === 'object' ? (id as { id: number }).id : (id as number);
}

/** A bare repository with a first commit on master, as the old create and a push left it. */
function bareRepository(reposDir: string, fullPath: string): string {
  const dir = path.join(reposDir, `${fullPath}.git`);
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '--bare', '--quiet', '--initial-branch=master']);
  const tree = git(dir, ['mktree'], { input: '' }).trim();
  git(dir, ['update-ref', 'refs/heads/master', git(dir, ['commit-tree', tree, '-m', 'Initial commit']).trim()]);
  return dir;
}

async function user(db: Knex, username: string, minute: number, admin = false): Promise<{ id: number; token: string }> {
  const stamp = at(minute);
  const name = username.replace(/^./, (c) => c.toUpperCase());
  const id = await insert(db, 'users', { username, email: `${username}@example.com`, name, admin, created_at: stamp, updated_at: stamp });
  const ns = await insert(db, 'namespaces', {
    kind: 'user',
    name: username,
    path: username,
    full_path: username,
    full_name: username,
    owner_id: id,
    visibility_level: 20,
    created_at: stamp,
    updated_at: stamp,
  });
  await db('namespace_ancestors').insert({ namespace_id: ns, ancestor_id: ns, depth: 0 });
  const token = `${username}-old-token-0123456789`;
  await db('personal_access_tokens').insert({
    user_id: id,
    name: admin ? 'initial root token' : 'laptop',
    token_digest: digest(token),
    scopes: JSON.stringify(admin ? ['api', 'sudo'] : ['api']),
    created_at: stamp,
    updated_at: stamp,
  });
  return { id, token };
}

async function project(db: Knex, namespaceId: number, p: { path: string; visibility: number; creator: number; minute: number; tags?: string[] }): Promise<number> {
  const stamp = at(p.minute);
  const name = p.path.replace(/^./, (c) => c.toUpperCase());
  const id = await insert(db, 'projects', {
    namespace_id: namespaceId,
    name,
    path: p.path,
    description: `The ${name} project`,
    visibility_level: p.visibility,
    default_branch: 'master',
    creator_id: p.creator,
    tag_list: JSON.stringify(p.tags ?? []),
    runners_token: `runners-${p.path}-0123456789`,
    created_at: stamp,
    updated_at: stamp,
    last_activity_at: stamp,
  });
  await db('project_statistics').insert({ project_id: id, commit_count: 1, repository_size: 2048, updated_at: stamp });
  return id;
}

/** Users (root, alice, bob, carol) with tokens, a group, two projects, members, a share, a star. */
export async function fillFoundation(db: Knex, reposDir: string): Promise<OldWorld> {
  const root = await user(db, 'root', 0, true);
  const alice = await user(db, 'alice', 1);
  const bob = await user(db, 'bob', 2);
  const carol = await user(db, 'carol', 3);
  const group = await insert(db, 'namespaces', {
    kind: 'group',
    name: 'Platform',
    path: 'platform',
    full_path: 'platform',
    full_name: 'Platform',
    description: 'The platform team',
    visibility_level: 20,
    created_at: at(4),
    updated_at: at(4),
  });
  await db('namespace_ancestors').insert({ namespace_id: group, ancestor_id: group, depth: 0 });
  await db('members').insert({ source_type: 'group', source_id: group, user_id: alice.id, access_level: 50, created_by_id: alice.id, created_at: at(4), updated_at: at(4) });
  const bobNs = await db('namespaces').where({ kind: 'user', owner_id: bob.id }).first('id');
  const app = await project(db, group, { path: 'app', visibility: 0, creator: alice.id, minute: 5, tags: ['b', 'a'] });
  const notes = await project(db, bobNs.id, { path: 'notes', visibility: 20, creator: bob.id, minute: 6 });
  await db('members').insert([
    { source_type: 'project', source_id: app, user_id: carol.id, access_level: 30, expires_at: '2099-01-01', created_by_id: alice.id, created_at: at(7), updated_at: at(7) },
    { source_type: 'project', source_id: notes, user_id: bob.id, access_level: 40, created_by_id: bob.id, created_at: at(6), updated_at: at(6) },
  ]);
  await db('project_group_links').insert({ project_id: notes, group_id: group, group_access: 30, created_at: at(8), updated_at: at(8) });
  await db('users_star_projects').insert({ user_id: carol.id, project_id: app, created_at: at(9) });
  await db('projects').where({ id: app }).update({ star_count: 1 });
  await db('custom_attributes').insert({ subject_type: 'project', subject_id: app, key: 'tier', value: 'gold', created_at: at(9), updated_at: at(9) });
  const appRepo = bareRepository(reposDir, 'platform/app');
  bareRepository(reposDir, 'bob/notes');
  const master = pushCommit(appRepo, 'master', { 'README.md': '# App\n' }, 'Add a README');
  git(appRepo, ['update-ref', 'refs/heads/feature', master]);
  const feature = pushCommit(appRepo, 'feature', { 'fix.txt': 'fixed\n' }, 'Fix the crash');
  return {
    tokens: { root: root.token, alice: alice.token, bob: bob.token, carol: carol.token },
    ids: { root: root.id, alice: alice.id, bob: bob.id, carol: carol.id, group, app, notes },
    shas: { master, feature },
  };
}
