// Webhook deliveries (GitLab's WebHookWorker, queue web_hook): one job per hook and event,
// queued in the change's transaction (services/hook_triggers.ts), sent by
// services/hook_delivery.ts; a 5xx or an unreachable receiver is retried with the queue's
// backoff, and the failure recorded on the job when no attempt is left.
import { deliverHook } from '../services/hook_delivery.js';
import { DELIVERY_ATTEMPTS, WEB_HOOK_JOB, type WebHookJobPayload } from '../services/hook_triggers.js';
import { registerJob } from './registry.js';

registerJob<WebHookJobPayload>(WEB_HOOK_JOB, {
  queue: 'web_hook',
  maxAttempts: DELIVERY_ATTEMPTS,
  handler: (deps, payload, ctx) => deliverHook(deps, payload, ctx.attempt),
});
