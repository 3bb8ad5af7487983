// Asking to join a project or a group, and answering the request (GitLab 10.8's
// Members::RequestAccessService, ApproveAccessRequestService and the requester's removal by
// Members::DestroyService). A request is a member row at developer level with `requested_at`
// set; approving clears it (with the level given, GitLab's default developer) and records the
// `joined` event; denying or withdrawing deletes it. A second request of the same user is the
// model's uniqueness error. The caller has checked who may ask; answering asks the member
// policy through `guard` inside the transaction, as members.ts does.
import { isUniqueViolation, type Conn } from '../../store/db.js';
import type { MemberRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { Invalid, RecordNotFound } from '../../store/domain_errors.js';
import { ACCESS_LEVELS, DEVELOPER, PROJECT_ACCESS_LEVELS } from '../../store/levels.js';
import type { MemberGuard } from './members.js';
import { announce } from '../notify.js';

const TAKEN = { user_id: ['already exists in source'] };

export async function requestAccess(db: Conn, sourceType: 'project' | 'group', sourceId: number, userId: number): Promise<MemberRow> {
  try {
    return await db.transaction(async (tx) => {
      const where = { source_type: sourceType, source_id: sourceId, user_id: userId };
      if (await tx('members').where(where).first('id')) throw new Invalid(TAKEN);
      const stamp = now();
      await tx('members').insert({
        ...where,
        access_level: DEVELOPER,
        expires_at: null,
        requested_at: stamp,
        created_by_id: null,
        created_at: stamp,
        updated_at: stamp,
      });
      return tx('members').where(where).first();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Invalid(TAKEN);
    throw err;
  }
}

/** The request as it is inside the transaction, or RecordNotFound if it was answered meanwhile. */
async function reloadRequest(tx: Conn, request: MemberRow): Promise<MemberRow> {
  const current: MemberRow | undefined = await tx('members').where({ id: request.id }).whereNotNull('requested_at').first();
  if (!current) throw new RecordNotFound();
  return current;
}

export async function approveAccessRequest(db: Conn, request: MemberRow, accessLevel: number, guard: MemberGuard): Promise<MemberRow> {
  return db.transaction(async (tx) => {
    const current = await reloadRequest(tx, request);
    await guard(tx, current);
    const levels: readonly number[] = current.source_type === 'project' ? PROJECT_ACCESS_LEVELS : ACCESS_LEVELS;
    if (!levels.includes(accessLevel)) throw new Invalid({ access_level: ['is not included in the list'] });
    await tx('members').where({ id: current.id }).update({ access_level: accessLevel, requested_at: null, updated_at: now() });
    await announce(tx, { name: 'memberJoined', sourceType: current.source_type, sourceId: current.source_id, userId: current.user_id });
    return tx('members').where({ id: current.id }).first();
  });
}

/** Denies (or, by the requester, withdraws) the request. */
export async function removeAccessRequest(db: Conn, request: MemberRow, guard: MemberGuard): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await reloadRequest(tx, request);
    await guard(tx, current);
    await tx('members').where({ id: current.id }).delete();
  });
}
