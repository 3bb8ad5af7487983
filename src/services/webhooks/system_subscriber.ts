// The system hooks' subscriber (GitLab 10.8's SystemHooksService, called from the models'
// callbacks there): the instance-wide events of projects, users, SSH keys, groups and
// members, in the shapes of system_events.ts. Push, tag push and merge request events reach
// the system hooks that enabled them through the project hooks' queueing (triggers.ts).
import type { Conn } from '../../store/db.js';
import type { DomainEvent } from '../domain_events.js';
import { systemGroupEvent, systemKeyEvent, systemMemberEvent, systemProjectEvent, systemUserEvent } from './system_events.js';

export async function systemHooks(tx: Conn, e: DomainEvent): Promise<void> {
  switch (e.name) {
    case 'projectCreated':
      return systemProjectEvent(tx, e.projectId, 'create');
    case 'projectRenamed':
      return systemProjectEvent(tx, e.projectId, 'rename', e.oldPathWithNamespace);
    case 'projectTransferred':
      return systemProjectEvent(tx, e.projectId, 'transfer', e.oldPathWithNamespace);
    case 'projectDestroyed':
      return systemProjectEvent(tx, e.project.id, 'destroy');
    case 'userCreated':
      return systemUserEvent(tx, e.user, 'create');
    case 'userDestroyed':
      return systemUserEvent(tx, e.user, 'destroy');
    case 'keyAdded':
      return systemKeyEvent(tx, e.key, e.username, 'create');
    case 'keyRemoved':
      return systemKeyEvent(tx, e.key, e.username, 'destroy');
    case 'groupCreated':
      return systemGroupEvent(tx, e.group, 'create');
    case 'groupDestroyed':
      return systemGroupEvent(tx, e.group, 'destroy');
    case 'memberAdded':
      return systemMemberEvent(tx, e.member, 'create');
    case 'memberRemoved':
      return systemMemberEvent(tx, e.member, 'destroy');
    default:
      return;
  }
}
