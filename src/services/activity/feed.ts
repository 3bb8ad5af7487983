// The activity feed's subscriber (GitLab 10.8's EventCreateService, called from each
// service there): which announcements are an event, with which action and target. A push
// is one event per moved ref with its payload (push_event_payloads), and moves the pusher's
// `last_activity_on` (EventCreateService#push → Users::ActivityService). A project member
// joining or leaving is an event of that member, except for the owner of a personal project;
// groups record none (GitLab's ProjectMember hooks).
import type { Conn } from '../../store/db.js';
import type { DomainEvent } from '../domain_events.js';
import { recordEvent } from './events.js';
import { recordUserActivity } from '../users/activity.js';

export async function activityFeed(tx: Conn, e: DomainEvent): Promise<void> {
  switch (e.name) {
    case 'issuableOpened':
      await recordEvent(tx, { projectId: e.target.projectId, authorId: e.actor.id, action: 'created', target: e.target });
      return;
    case 'issuableChanged':
      if (e.state) await recordEvent(tx, { projectId: e.target.projectId, authorId: e.actor.id, action: e.state, target: e.target });
      return;
    case 'issueMoved':
      await recordEvent(tx, { projectId: e.to.projectId, authorId: e.actor.id, action: 'created', target: e.to });
      if (e.closed) await recordEvent(tx, { projectId: e.from.projectId, authorId: e.actor.id, action: 'closed', target: e.from });
      return;
    case 'mergeRequestMerged': {
      const mr = e.mergeRequest;
      await recordEvent(tx, { projectId: mr.target_project_id, authorId: e.actor.id, action: 'merged', target: { type: 'MergeRequest', id: mr.id }, createdAt: e.at });
      return;
    }
    case 'noteAdded':
      await recordEvent(tx, { projectId: e.projectId, authorId: e.actor.id, action: 'commented', target: { type: 'Note', id: e.noteId } });
      return;
    case 'pushed':
      for (const payload of e.payloads) {
        const eventId = await recordEvent(tx, { projectId: e.project.id, authorId: e.actor.id, action: 'pushed' });
        await tx('push_event_payloads').insert({ event_id: eventId, ...payload });
      }
      if (e.payloads.length) await recordUserActivity(tx, e.actor);
      return;
    case 'projectCreated':
      await recordEvent(tx, { projectId: e.projectId, authorId: e.actor.id, action: 'created', createdAt: e.at });
      return;
    case 'projectDestroyed':
      if (e.actor) {
        const target = { type: 'Project' as const, id: e.project.id };
        await recordEvent(tx, { projectId: null, authorId: e.actor.id, action: 'destroyed', target, targetTitle: e.fullPath });
      }
      return;
    case 'memberJoined':
      if (await isProjectMembership(tx, e.sourceType, e.sourceId, e.userId)) {
        await recordEvent(tx, { projectId: e.sourceId, authorId: e.userId, action: 'joined' });
      }
      return;
    case 'memberRemoved': {
      const m = e.member;
      if (await isProjectMembership(tx, m.source_type, m.source_id, m.user_id)) {
        await recordEvent(tx, { projectId: m.source_id, authorId: m.user_id, action: e.expired ? 'expired' : 'left' });
      }
      return;
    }
    case 'milestoneCreated':
      await recordEvent(tx, { projectId: e.projectId, authorId: e.actorId, action: 'created', target: { type: 'Milestone', id: e.milestoneId }, createdAt: e.at });
      return;
    case 'milestoneStateChanged':
      await recordEvent(tx, { projectId: e.projectId, authorId: e.actorId, action: e.state, target: { type: 'Milestone', id: e.milestoneId } });
      return;
    case 'snippetCreated':
      await recordEvent(tx, { projectId: e.projectId, authorId: e.actor.id, action: 'created', target: { type: 'Snippet', id: e.snippetId } });
      return;
    default:
      return;
  }
}

/** A membership of a project whose member is not the owner of its personal namespace. */
async function isProjectMembership(tx: Conn, sourceType: string, projectId: number, userId: number): Promise<boolean> {
  if (sourceType !== 'project') return false;
  const owner = await tx('projects as p').join('namespaces as n', 'n.id', 'p.namespace_id').where({ 'p.id': projectId, 'n.kind': 'user', 'n.owner_id': userId }).first('p.id');
  return !owner;
}
