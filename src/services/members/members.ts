// Adding, changing and removing members of projects and groups. Permissions are checked by
// the caller; the rules here are the membership model's own (GitLab's Member validations).
import { isUniqueViolation, type Conn } from '../../store/db.js';
import type { MemberRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { Conflict, Invalid, RecordNotFound } from '../../store/domain_errors.js';
import { ACCESS_LEVELS, OWNER, PROJECT_ACCESS_LEVELS } from '../../store/levels.js';
import { announce } from '../notify.js';

export interface NewMember {
  sourceType: 'project' | 'group';
  sourceId: number;
  userId: number;
  accessLevel: number;
  expiresAt?: string | null;
  createdById?: number | null;
}

export async function insertMember(db: Conn, m: NewMember): Promise<MemberRow> {
  const stamp = now();
  await db('members').insert({
    source_type: m.sourceType,
    source_id: m.sourceId,
    user_id: m.userId,
    access_level: m.accessLevel,
    expires_at: m.expiresAt ?? null,
    requested_at: null,
    created_by_id: m.createdById ?? null,
    created_at: stamp,
    updated_at: stamp,
  });
  return db('members').where({ source_type: m.sourceType, source_id: m.sourceId, user_id: m.userId }).first();
}

/**
 * GitLab validates the level twice for project members (any level, then no owners), so an
 * unknown level is reported twice there and an owner level once.
 */
function accessLevelErrors(sourceType: 'project' | 'group', level: number): string[] {
  const errors: string[] = [];
  if (!(ACCESS_LEVELS as readonly number[]).includes(level)) errors.push('is not included in the list');
  if (sourceType === 'project' && !(PROJECT_ACCESS_LEVELS as readonly number[]).includes(level)) errors.push('is not included in the list');
  return errors;
}

/**
 * Adds a user to a project or group: 409 when they already are a member; an access request of
 * theirs becomes the membership. An unknown user id is what GitLab then tries as an email
 * invitation, which fails validation as `invite_email is invalid`.
 */
export async function addMember(db: Conn, m: NewMember): Promise<MemberRow> {
  try {
    return await db.transaction(async (tx) => {
      const where = { source_type: m.sourceType, source_id: m.sourceId, user_id: m.userId };
      const existing: MemberRow | undefined = await tx('members').where(where).first();
      if (existing && existing.requested_at === null) throw new Conflict('Member already exists');
      const errors: Record<string, string[]> = {};
      const levelErrors = accessLevelErrors(m.sourceType, m.accessLevel);
      if (levelErrors.length) errors.access_level = levelErrors;
      if (!(await tx('users').where({ id: m.userId }).first('id'))) errors.invite_email = ['is invalid'];
      if (Object.keys(errors).length) throw new Invalid(errors);
      await announce(tx, { name: 'memberJoined', sourceType: m.sourceType, sourceId: m.sourceId, userId: m.userId });
      if (!existing) {
        const member = await insertMember(tx, m);
        await announce(tx, { name: 'memberAdded', member });
        return member;
      }
      // Approving the access request.
      await tx('members')
        .where({ id: existing.id })
        .update({
          access_level: m.accessLevel,
          expires_at: m.expiresAt ?? null,
          requested_at: null,
          created_by_id: existing.created_by_id ?? m.createdById ?? null,
          updated_at: now(),
        });
      return tx('members').where({ id: existing.id }).first();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict('Member already exists');
    throw err;
  }
}

export interface MemberChange {
  accessLevel: number;
  /** undefined keeps the current date; null removes it. */
  expiresAt?: string | null;
}

/**
 * Runs inside the write transaction with the membership as it is now, so that a permission
 * that depends on other memberships (a group's last owner) cannot be raced past; it throws
 * to refuse.
 */
export type MemberGuard = (tx: Conn, member: MemberRow) => Promise<void>;

/** The membership as it is inside the transaction, or recordNotFound if it went meanwhile. */
async function reload(tx: Conn, member: MemberRow): Promise<MemberRow> {
  const current: MemberRow | undefined = await tx('members').where({ id: member.id }).whereNull('requested_at').first();
  if (!current) throw new RecordNotFound();
  return current;
}

export async function updateMember(db: Conn, member: MemberRow, change: MemberChange, guard: MemberGuard): Promise<MemberRow> {
  return db.transaction(async (tx) => {
    const current = await reload(tx, member);
    await guard(tx, current);
    const levelErrors = accessLevelErrors(current.source_type, change.accessLevel);
    if (levelErrors.length) throw new Invalid({ access_level: levelErrors });
    const columns: Partial<MemberRow> = { access_level: change.accessLevel, updated_at: now() };
    if (change.expiresAt !== undefined) columns.expires_at = change.expiresAt;
    await tx('members').where({ id: current.id }).update(columns);
    return tx('members').where({ id: current.id }).first();
  });
}

export async function removeMember(db: Conn, member: MemberRow, guard: MemberGuard): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await reload(tx, member);
    await guard(tx, current);
    await announce(tx, { name: 'memberRemoved', member: current, expired: hasExpired(current) });
    await tx('members').where({ id: current.id }).delete();
  });
}

function hasExpired(member: MemberRow, at = new Date()): boolean {
  return member.expires_at !== null && member.expires_at.slice(0, 10) <= at.toISOString().slice(0, 10);
}

/**
 * Removes every membership whose expiry day has come (as of `at`), each in its own
 * transaction; a group's last owner stays, so that no group is left without one. Returns how
 * many went.
 */
export async function removeExpiredMembers(db: Conn, at = new Date()): Promise<number> {
  const day = at.toISOString().slice(0, 10);
  const due: MemberRow[] = await db('members').whereNotNull('expires_at').where('expires_at', '<=', day).whereNull('requested_at');
  let removed = 0;
  for (const member of due) {
    try {
      await removeMember(db, member, async (tx, current) => {
        if (current.source_type === 'group' && current.access_level === OWNER && (await otherOwners(tx, current)) === 0) {
          throw new Error('last owner');
        }
      });
      removed++;
    } catch {
      // Gone meanwhile, or a group's last owner: left as it is.
    }
  }
  return removed;
}

async function otherOwners(tx: Conn, member: MemberRow): Promise<number> {
  const row = await tx('members')
    .where({ source_type: 'group', source_id: member.source_id, access_level: OWNER })
    .whereNull('requested_at')
    .whereNot('id', member.id)
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}
