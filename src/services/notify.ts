// The notifier: a service announces what happened (services/domain_events.ts) and each
// subsystem that reacts is one subscriber, in its feature folder, as Gitea's notify
// package does for GitLab's scattered EventCreateService, TodoService, execute_hooks and
// SystemHooksService calls. Subscribers run in the order listed, inside the caller's
// transaction: their rows (events, to-dos, hook deliveries, queued merges) commit exactly
// when the change does, and a subscriber's failure rolls the change back.
//
// A new feature adds an announcement (and, where a subsystem should react, a case in that
// subsystem's subscriber), never calls into four subsystems.
import type { Conn } from '../store/db.js';
import type { DomainEvent } from './domain_events.js';
import { activityFeed } from './activity/feed.js';
import { todoWriter } from './todos/subscriber.js';
import { projectWebhooks } from './webhooks/project_subscriber.js';
import { systemHooks } from './webhooks/system_subscriber.js';
import { pipelineMerges } from './merge_requests/merge_on_success.js';
import { domainEventMetrics } from './metrics/subscriber.js';

/** One subsystem's reaction to an announcement, in the announcing transaction. */
type Subscriber = (tx: Conn, event: DomainEvent) => Promise<void>;

const SUBSCRIBERS: readonly Subscriber[] = [activityFeed, todoWriter, projectWebhooks, systemHooks, pipelineMerges, domainEventMetrics];

/** Tells every subscriber, in order, that `event` happened (in `tx`, the change's transaction). */
export async function announce(tx: Conn, event: DomainEvent): Promise<void> {
  for (const subscriber of SUBSCRIBERS) await subscriber(tx, event);
}
