// A group or project whose memberships a route reads or writes (the members API and the
// access requests API share it): its type and id, and the member policy GitLab 10.8 asks
// inside the write's transaction (update_/destroy_project_member, update_/destroy_group_member).
import type { UserRow } from '../store/rows.js';
import { forbidden } from '../http/errors.js';
import { can, type GroupSubject } from '../policy/can.js';
import { groupMemberFacts } from '../policy/members.js';
import type { SourceType } from '../finders/members.js';
import type { MemberGuard } from '../services/members/members.js';
import type { LoadedProject } from './core/loaders.js';

/** A membership source as the routes need it: its id, and the member policy for a write. */
export interface Source {
  type: SourceType;
  id: number;
  /** The member policy, asked inside the write transaction. */
  guard(action: 'update' | 'destroy'): MemberGuard;
}

/** What a project route (loaded) or a group route (subject) gives. */
export type SourceRequest = { user: UserRow } & ({ loaded: LoadedProject } | { subject: GroupSubject });

export function sourceOf(req: SourceRequest): Source {
  const { user } = req;
  if ('loaded' in req) {
    const { project, access } = req.loaded;
    return {
      type: 'project',
      id: project.id,
      guard: (action) => async (_tx, member) => {
        if (!can(user, { kind: 'project_member', project, access, member }, `${action}_project_member`)) throw forbidden();
      },
    };
  }
  const { group } = req.subject;
  return {
    type: 'group',
    id: group.id,
    guard: (action) => async (tx, member) => {
      if (!can(user, { kind: 'group_member', ...(await groupMemberFacts(tx, user, group, member)) }, `${action}_group_member`)) throw forbidden();
    },
  };
}
