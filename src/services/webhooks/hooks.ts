// Project hooks and system hooks as records (GitLab 10.8's ProjectHook / SystemHook models):
// create, change, delete (finders/hooks.ts finds them). A hook's URL must be an http(s) URL
// (10.8's UrlValidator); its token has no line break. Whether its address may be called is
// decided when it is called (webhooks/delivery.ts), since a name may resolve elsewhere by then.
import type { Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import { now } from '../../store/time.js';
import { Invalid } from '../../store/domain_errors.js';
import type { HookType, WebHookRow } from '../../store/hook_rows.js';

export type HookInput = Partial<Record<string, boolean>> & { url?: string; token?: string };

/** The fields of a hook that may be set, per type (the API's declared parameters). */
export function validHookUrl(url: string): boolean {
  try {
    const parsed = new URL(url.trim());
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

function check(input: HookInput): void {
  if (input.url !== undefined && !validHookUrl(input.url)) throw new Invalid({ url: ['must be a valid URL'] }); // UrlValidator's words
  if (input.token !== undefined && input.token.includes('\n')) throw new Invalid({ token: ['is invalid'] });
}

export async function createHook(db: Conn, type: HookType, projectId: number | null, input: HookInput): Promise<WebHookRow> {
  check(input);
  const stamp = now();
  const defaults = type === 'SystemHook' ? { push_events: false, repository_update_events: true } : {};
  const id = await insertReturningId(db, 'web_hooks', { ...defaults, ...input, url: input.url!.trim(), type, project_id: projectId, created_at: stamp, updated_at: stamp });
  return (await db('web_hooks').where({ id }).first()) as WebHookRow;
}

export async function updateHook(db: Conn, hook: WebHookRow, input: HookInput): Promise<WebHookRow> {
  check(input);
  const values = { ...input, ...(input.url !== undefined ? { url: input.url.trim() } : {}) };
  await db('web_hooks')
    .where({ id: hook.id })
    .update({ ...values, updated_at: now() });
  return (await db('web_hooks').where({ id: hook.id }).first()) as WebHookRow;
}

export async function deleteHook(db: Conn, hook: WebHookRow): Promise<void> {
  await db('web_hooks').where({ id: hook.id }).delete();
}
