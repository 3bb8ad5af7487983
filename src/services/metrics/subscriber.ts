// The metrics' subscriber: every announcement counts in `wharf_domain_events_total{event}`
// once its transaction commits (a rolled-back change counted nothing), so `/-/metrics` shows
// what the instance does (issues opened, pushes, merges, pipelines finishing).
import { afterCommit, type Conn } from '../../store/db.js';
import type { DomainEvent } from '../domain_events.js';
import { recordDomainEvent } from './metrics.js';

export async function domainEventMetrics(tx: Conn, e: DomainEvent): Promise<void> {
  afterCommit(tx, () => recordDomainEvent(e.name));
}
