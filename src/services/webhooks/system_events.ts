// The system events of GitLab 10.8 (SystemHooksService#build_event_data), queued to every
// system hook inside the transaction of the change (webhooks/triggers.ts enqueueSystemHooks):
// project_create / project_destroy / project_rename / project_transfer, user_create /
// user_destroy, user_add_to_team / user_remove_from_team, user_add_to_group /
// user_remove_from_group, group_create / group_destroy, key_create / key_destroy. A payload is complete when queued (it
// has no URL), built from the rows as the change leaves them — for a destroy, as they were
// just before it: call those before the rows go.
import type { Conn } from '../../store/db.js';
import type { MemberRow, NamespaceRow, UserRow } from '../../store/rows.js';
import type { KeyRow } from '../../store/keys.js';
import { GUEST, REPORTER, DEVELOPER, MASTER, OWNER, INTERNAL } from '../../store/levels.js';
import { enqueueSystemHooks } from './triggers.js';
import { findUserById } from '../../finders/users.js';

const HUMAN_ACCESS: Record<number, string> = { [GUEST]: 'Guest', [REPORTER]: 'Reporter', [DEVELOPER]: 'Developer', [MASTER]: 'Master', [OWNER]: 'Owner' };

function visibility(level: number): string {
  return level === 0 ? 'private' : level === INTERNAL ? 'internal' : 'public';
}

/** Whether any system hook exists (one query; the payload is read only then). */
async function anySystemHook(tx: Conn): Promise<boolean> {
  return !!(await tx('web_hooks').where({ type: 'SystemHook' }).first('id'));
}

async function projectData(tx: Conn, projectId: number): Promise<Record<string, unknown> | null> {
  const project = await tx('projects').where({ id: projectId }).first();
  if (!project) return null;
  const ns: NamespaceRow = await tx('namespaces').where({ id: project.namespace_id }).first();
  // Project#owner: the group, or the user of a personal namespace.
  const owner: { name: string; email?: string } | undefined = ns.kind === 'user' ? await tx('users').where({ id: ns.owner_id }).first('name', 'email') : { name: ns.name };
  return {
    created_at: project.created_at,
    updated_at: project.updated_at,
    name: project.name,
    path: project.path,
    path_with_namespace: `${ns.full_path}/${project.path}`,
    project_id: project.id,
    owner_name: owner?.name ?? null,
    owner_email: owner?.email ?? '',
    project_visibility: visibility(project.visibility_level),
  };
}

/** project_create, project_destroy (before the row goes), project_rename / project_transfer (with the old path). */
export async function systemProjectEvent(tx: Conn, projectId: number, event: 'create' | 'destroy' | 'rename' | 'transfer', oldPathWithNamespace?: string): Promise<void> {
  if (!(await anySystemHook(tx))) return;
  const data = await projectData(tx, projectId);
  if (!data) return;
  const extra = oldPathWithNamespace !== undefined ? { old_path_with_namespace: oldPathWithNamespace } : {};
  await enqueueSystemHooks(tx, { event_name: `project_${event}`, ...data, ...extra });
}

/** user_create, user_destroy (before the row goes). */
export async function systemUserEvent(tx: Conn, user: UserRow, event: 'create' | 'destroy'): Promise<void> {
  if (!(await anySystemHook(tx))) return;
  await enqueueSystemHooks(tx, {
    event_name: `user_${event}`,
    created_at: user.created_at,
    updated_at: user.updated_at,
    name: user.name,
    email: user.email,
    user_id: user.id,
    username: user.username,
  });
}

/** key_create, key_destroy of a user's SSH key (before the row goes). */
export async function systemKeyEvent(tx: Conn, key: KeyRow, username: string, event: 'create' | 'destroy'): Promise<void> {
  if (!(await anySystemHook(tx))) return;
  await enqueueSystemHooks(tx, {
    event_name: `key_${event}`,
    created_at: key.created_at,
    updated_at: key.updated_at,
    username,
    key: key.key,
    id: key.id,
  });
}

/** group_create, group_destroy (before the row goes). */
export async function systemGroupEvent(tx: Conn, group: NamespaceRow, event: 'create' | 'destroy'): Promise<void> {
  if (!(await anySystemHook(tx))) return;
  const owner = await tx('members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.source_type': 'group', 'm.source_id': group.id, 'm.access_level': OWNER })
    .orderBy('m.id')
    .first('u.name', 'u.email');
  await enqueueSystemHooks(tx, {
    event_name: `group_${event}`,
    created_at: group.created_at,
    updated_at: group.updated_at,
    name: group.name,
    path: group.path,
    full_path: group.full_path,
    group_id: group.id,
    owner_name: owner?.name ?? null,
    owner_email: owner?.email ?? null,
  });
}

/** user_add_to_team / user_remove_from_team (projects), user_add_to_group / user_remove_from_group. */
export async function systemMemberEvent(tx: Conn, member: MemberRow, event: 'create' | 'destroy'): Promise<void> {
  if (!(await anySystemHook(tx))) return;
  const user: UserRow | undefined = await findUserById(tx, member.user_id);
  if (!user) return;
  const base = { created_at: member.created_at, updated_at: member.updated_at };
  const who = { user_username: user.username, user_name: user.name, user_email: user.email, user_id: user.id };
  const access = HUMAN_ACCESS[member.access_level] ?? String(member.access_level);
  if (member.source_type === 'project') {
    const project = await projectData(tx, member.source_id);
    if (!project) return;
    await enqueueSystemHooks(tx, {
      event_name: event === 'create' ? 'user_add_to_team' : 'user_remove_from_team',
      ...base,
      project_name: project.name,
      project_path: project.path,
      project_path_with_namespace: project.path_with_namespace,
      project_id: project.project_id,
      ...who,
      access_level: access,
      project_visibility: project.project_visibility,
    });
  } else {
    const group: NamespaceRow | undefined = await tx('namespaces').where({ id: member.source_id }).first();
    if (!group) return;
    await enqueueSystemHooks(tx, {
      event_name: event === 'create' ? 'user_add_to_group' : 'user_remove_from_group',
      ...base,
      group_name: group.name,
      group_path: group.path,
      group_id: group.id,
      ...who,
      group_access: access,
    });
  }
}
