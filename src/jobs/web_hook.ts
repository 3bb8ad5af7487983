// Webhook deliveries (GitLab's WebHookWorker, queue web_hook): one job per hook and event,
// queued in the change's transaction (services/webhooks/triggers.ts), sent by
// services/webhooks/delivery.ts. They run in slots of their own (the `deliveries` lane), one at a
// time per hook (the job's group), so a receiver that hangs holds one slot for at most its
// timeouts and delays no other hook. A 5xx or an unreachable receiver is retried on a fixed
// schedule (DELIVERY_RETRY_DELAYS_MS: 10 s, 1 min, 5 min), and the failure recorded on the
// job when no attempt is left.
import { deliverHook } from '../services/webhooks/delivery.js';
import { DELIVERY_ATTEMPTS, DELIVERY_RETRY_DELAYS_MS, WEB_HOOK_JOB, type WebHookJobPayload } from '../services/webhooks/triggers.js';
import { registerJob } from './registry.js';

registerJob<WebHookJobPayload>(WEB_HOOK_JOB, {
  queue: 'web_hook',
  lane: 'deliveries',
  maxAttempts: DELIVERY_ATTEMPTS,
  retryDelaysMs: DELIVERY_RETRY_DELAYS_MS,
  handler: (deps, payload, ctx) => deliverHook(deps, payload, ctx.attempt),
});
