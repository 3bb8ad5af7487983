// What a service announces when something happened (services/notify.ts delivers it): one
// name per domain event, carrying what its subscribers need. It replaces the calls each
// service made into GitLab 10.8's EventCreateService (activity/), TodoService (todos/),
// execute_hooks (webhooks/) and SystemHooksService (webhooks/), so that a service says what
// happened once, and a subscriber decides what that means for its subsystem.
//
// Every announcement is made inside the transaction of the change (the subscribers' rows
// commit with it). Names are past tense; rows are as they are after the change, `before`
// fields as they were.
import type { UserRow, MemberRow, NamespaceRow, ProjectWithNamespace } from '../store/rows.js';
import type { KeyRow } from '../store/keys.js';
import type { HookScope } from '../store/hook_rows.js';
import type { IssueRow, LabelRow, MergeRequestRow } from '../store/issuable_rows.js';
import type { BuildRow, PipelineRow } from '../store/ci_rows.js';
import type { CiStatus } from '../store/ci_statuses.js';
import type { TodoTargetType } from '../store/todo_actions.js';
import type { HookEvent } from './webhooks/triggers.js';
import type { PushPayload } from '../store/extras.js';

/** An issue or a merge request (a merge request's project is its target project). */
export interface IssuableRef {
  type: Extract<TodoTargetType, 'Issue' | 'MergeRequest'>;
  id: number;
  projectId: number;
}

/** The text and assignees an issuable had before an edit and has after it (for mentions). */
interface IssuableEdit {
  addedAssigneeIds: number[];
  oldTitle: string;
  oldDescription: string | null;
  title: string;
  description: string | null;
}

export type DomainEvent =
  | {
      name: 'issuableOpened';
      target: IssuableRef;
      actor: UserRow;
      assigneeIds: number[];
      title: string;
      description: string | null;
    }
  | {
      name: 'issuableChanged';
      target: IssuableRef;
      actor: UserRow;
      /** The row before the change (with the issue's first assignee as `assignee_id`). */
      before: (IssueRow & { assignee_id?: number | null }) | MergeRequestRow;
      /** Its labels before the change; null when the change left labels alone. */
      labelsBefore: LabelRow[] | null;
      state: 'closed' | 'reopened' | null;
      /** Whether anything stored changed (an edit that changes nothing still reads mentions). */
      touched: boolean;
      edit: IssuableEdit;
    }
  /** `closed`: the original was open, and the move closed it. */
  | { name: 'issueMoved'; from: IssuableRef; to: IssuableRef; actor: UserRow; closed: boolean }
  /** `mergeRequest` is the row as it was before the merge (hooks show what changed). */
  | { name: 'mergeRequestMerged'; mergeRequest: MergeRequestRow; actor: UserRow; at: string }
  /** The actor acted on the issuable without changing it (an award, time spent, a push to its branch). */
  | { name: 'issuableTouched'; target: IssuableRef; actorId: number }
  | { name: 'noteAdded'; noteId: number; projectId: number | null; actor: UserRow; body: string; onIssuable: IssuableRef | null }
  | { name: 'noteEdited'; noteId: number; actor: UserRow; body: string; oldBody: string; onIssuable: IssuableRef | null }
  | {
      name: 'pushed';
      project: ProjectWithNamespace;
      actor: UserRow;
      /** One per moved ref that is an event (GitLab's push event payloads). */
      payloads: PushPayload[];
      /** The push and tag push hook events, read from git before the transaction. */
      hookEvents: { scope: HookScope; event: HookEvent }[];
    }
  | { name: 'projectCreated'; projectId: number; actor: UserRow; at: string }
  | { name: 'projectRenamed'; projectId: number; oldPathWithNamespace: string }
  /** Moved into another namespace (services/projects/transfer.ts). */
  | { name: 'projectTransferred'; projectId: number; oldPathWithNamespace: string }
  /** Announced before the project row goes (system hooks read it). */
  | { name: 'projectDestroyed'; project: ProjectWithNamespace; fullPath: string; actor: UserRow | null }
  | { name: 'userCreated'; user: UserRow }
  | { name: 'userDestroyed'; user: UserRow }
  | { name: 'keyAdded'; key: KeyRow; username: string }
  | { name: 'keyRemoved'; key: KeyRow; username: string }
  | { name: 'groupCreated'; group: NamespaceRow }
  | { name: 'groupDestroyed'; group: NamespaceRow }
  | { name: 'memberAdded'; member: MemberRow }
  /** A membership began (added, or an access request approved): no row is new in the second case. */
  | { name: 'memberJoined'; sourceType: 'project' | 'group'; sourceId: number; userId: number }
  | { name: 'memberRemoved'; member: MemberRow; expired: boolean }
  | { name: 'milestoneCreated'; projectId: number; milestoneId: number; actorId: number; at: string }
  | { name: 'milestoneStateChanged'; projectId: number; milestoneId: number; actorId: number; state: 'closed' | 'reopened' }
  | { name: 'snippetCreated'; projectId: number; snippetId: number; actor: UserRow }
  | { name: 'jobsCreated'; builds: BuildRow[] }
  | { name: 'jobStatusChanged'; build: BuildRow; from: CiStatus }
  | { name: 'jobRetried'; build: BuildRow }
  | { name: 'pipelineStatusChanged'; pipeline: PipelineRow; from: CiStatus }
  | { name: 'pipelineRetried'; pipeline: PipelineRow };
