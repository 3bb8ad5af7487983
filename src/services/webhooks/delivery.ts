// Sending one queued delivery (GitLab 10.8's WebHookWorker → WebHookService#execute), run by
// the `web_hook` job: the hook is read again (a hook deleted meanwhile sends nothing), the
// payload built (webhooks/payloads.ts) and POSTed (webhooks/sender.ts), and the attempt logged in
// web_hook_logs. Beyond 10.8, which tried once: a receiver that answers 5xx or cannot be
// reached throws, so the queue retries it (DELIVERY_ATTEMPTS in all, on a fixed schedule), and the
// job's failure is recorded when none is left. A 4xx, a 3xx or a refused address is final.
//
// Local addresses: refused for project hooks unless `allow_local_requests_from_hooks_and_services`
// is on; system hooks, which only admins make, may call local addresses (as in 10.8).
import type { Deps } from '../../deps.js';
import type { WebHookRow } from '../../store/hook_rows.js';
import { eventHeader } from '../../store/hook_rows.js';
import { flag } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { settingsOf } from '../settings/application_settings.js';
import { buildHookBody } from './payloads.js';
import { sendHook } from './sender.js';
import { BlockedAddress } from '../security/outbound_url.js';
import type { WebHookJobPayload } from './triggers.js';

/** GitLab's `webhook_timeout` (gitlab.yml, 10 seconds by default): the whole exchange. */
const HOOK_TIMEOUT_MS = 10_000;
/** Reaching the receiver: a host that does not answer the connection is given up on sooner. */
const HOOK_CONNECT_TIMEOUT_MS = 3_000;

/** A failure worth another attempt (5xx, unreachable, timed out). */
class RetryableDelivery extends Error {}

export interface DeliveryResult {
  hookId: number;
  status: number | 'internal error' | 'skipped';
}

async function logAttempt(deps: Deps, hook: WebHookRow, trigger: string, attempt: number, status: string, body: string | null, error: string | null, ms: number): Promise<void> {
  await deps.db('web_hook_logs').insert({
    web_hook_id: hook.id,
    trigger,
    url: hook.url,
    attempt,
    response_status: status,
    response_body: body,
    internal_error_message: error,
    execution_duration: ms / 1000,
    created_at: now(),
  });
}

export async function deliverHook(deps: Deps, job: WebHookJobPayload, attempt: number): Promise<DeliveryResult> {
  const hook: WebHookRow | undefined = await deps.db('web_hooks').where({ id: job.hookId }).first();
  if (!hook) return { hookId: job.hookId, status: 'skipped' };
  const data = await buildHookBody(deps, job.event);
  if (!data) return { hookId: hook.id, status: 'skipped' };
  const allowLocal = hook.type === 'SystemHook' || (await settingsOf(deps)).allow_local_requests_from_hooks_and_services;
  const started = Date.now();
  try {
    const res = await sendHook({
      url: hook.url,
      event: eventHeader(job.hookName),
      token: hook.token,
      body: JSON.stringify(data),
      verifyTls: flag(hook.enable_ssl_verification),
      allowLocal,
      timeoutMs: HOOK_TIMEOUT_MS,
      connectTimeoutMs: HOOK_CONNECT_TIMEOUT_MS,
    });
    await logAttempt(deps, hook, job.hookName, attempt, String(res.status), res.body, null, Date.now() - started);
    if (res.status >= 500) throw new RetryableDelivery(`${hook.url} answered ${res.status}`);
    return { hookId: hook.id, status: res.status };
  } catch (err) {
    if (err instanceof RetryableDelivery) throw err;
    const message = err instanceof Error ? err.message : String(err);
    await logAttempt(deps, hook, job.hookName, attempt, 'internal error', null, message, Date.now() - started);
    if (err instanceof BlockedAddress || (err as { code?: string }).code === 'ERR_INVALID_URL') return { hookId: hook.id, status: 'internal error' };
    throw new RetryableDelivery(message);
  }
}
