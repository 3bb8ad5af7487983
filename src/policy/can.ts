// The one permission vocabulary: `can(user, subject, ability)` with GitLab 10.8's ability
// names (ProjectPolicy, IssuePolicy, MergeRequestPolicy, NotePolicy, GroupPolicy, UserPolicy,
// GroupMemberPolicy, ProjectMemberPolicy, NamespacePolicy, GlobalPolicy, Ci::BuildPolicy,
// Ci::PipelinePolicy).
// Every caller outside policy/ asks here; the rule files beside it (projects.ts, issues.ts,
// merge_requests.ts, notes.ts, groups.ts, users.ts, members.ts, namespaces.ts, global.ts,
// ci.ts, ci_refs.ts) are its implementation.
//
// Synchronous: a subject carries the facts its rules need, loaded once by the caller (the
// route table's loader does it for the project or group of a route):
//   can(user, projectSubject(project, access), 'push_code')
//   can(user, { kind: 'issue', project, access, issue: { ...issueRow, assigneeIds } }, 'update_issue')
//   can(user, { kind: 'group', ...await groupFacts(db, user, group) }, 'admin_group')
//   can(user, { kind: 'build', ...await ciRefFacts(db, project, access, job) }, 'update_build')
// Cross-cutting rules are applied here once, before any feature rule: an archived project
// refuses its writes (policy/archived.ts).
//
// Not abilities, and so not here: branch protection (BranchRules in branches.ts, which needs
// the branch; merge_merge_request asks it of the target branch the subject carries), the "no vote on what you authored" rule of awards (awardableByUser in notes.ts,
// the Awardable model's rule in GitLab, asked beside `award_emoji`), and list scopes (the
// where… query builders).
import type { Flag, MemberRow, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { refusedOnArchived } from './archived.js';
import { projectCan, type ProjectAccess, type ProjectLevelAbility } from './projects.js';
import { canAdminIssues, canCreateIssue, canDestroyIssue, canReadIssue, canReadIssues, canSetIssueTimestamps, canUpdateIssue, type IssueFacts } from './issues.js';
import {
  canAdminMergeRequests,
  canCreateMergeRequestFrom,
  canCreateMergeRequestIn,
  canDestroyMergeRequest,
  canReadMergeRequest,
  canReadMergeRequests,
  canUpdateMergeRequest,
  canMergeInto,
  type MergeRequestFacts,
  type TargetBranchFacts,
} from './merge_requests.js';
import {
  canAdminNote,
  canAward,
  canCreateNote,
  canReadProjectNotes,
  canRemoveAward,
  canResolveDiscussion,
  canResolveInProject,
  canResolveNote,
  canSetNoteTimestamps,
  type NoteableFacts,
  type NoteFacts,
} from './notes.js';
import { groupCan, type GroupAbility, type GroupFacts } from './groups.js';
import { userCan, type UserAbility } from './users.js';
import { groupMemberCan, projectMemberCan, type GroupMemberAbility, type GroupMemberFacts, type ProjectMemberAbility } from './members.js';
import { namespaceCan, type NamespaceAbility, type NamespaceFacts } from './namespaces.js';
import { globalCan, type GlobalAbility } from './global.js';
import {
  canCreateProjectSnippet,
  canReadProjectSnippets,
  personalSnippetCan,
  projectSnippetCan,
  type PersonalSnippetAbility,
  type ProjectSnippetAbility,
  type SnippetFacts,
} from './snippets.js';
import { canRequestProjectAccess, type ProjectRequestFacts } from './access_requests.js';
import { ciProjectCan, type CiProjectAbility } from './ci.js';
import { buildCan, pipelineCan, type BuildAbility, type CiRefFacts, type PipelineAbility } from './ci_refs.js';
import { deployKeyAccessCan, deployKeyCan, type DeployKeyAbility, type DeployKeyAccessAbility, type DeployKeyAccessFacts, type DeployKeyFacts } from './deploy_keys.js';

export type {
  GroupAbility,
  UserAbility,
  GroupMemberAbility,
  ProjectMemberAbility,
  NamespaceAbility,
  GlobalAbility,
  DeployKeyAbility,
  DeployKeyAccessAbility,
  BuildAbility,
  PipelineAbility,
};

/** A project with the user's access to it (projectAccess()). */
export interface ProjectSubject {
  kind: 'project';
  project: ProjectWithNamespace;
  access: ProjectAccess;
}

/** One issue of a project: its author, assignees, confidentiality and lock. */
export interface IssueSubject {
  kind: 'issue';
  project: ProjectWithNamespace;
  access: ProjectAccess;
  issue: IssueFacts & { discussion_locked?: Flag | boolean | null };
}

/** One merge request of a project (its target project). */
export interface MergeRequestSubject {
  kind: 'merge_request';
  project: ProjectWithNamespace;
  access: ProjectAccess;
  mergeRequest: MergeRequestFacts & { discussion_locked?: Flag | boolean | null };
  /** Its target branch and the project's branch rules (targetBranchFacts()): without them, merge_merge_request is refused. */
  targetBranch?: TargetBranchFacts;
}

/** One note, with what its noteable's own policy said (readable, locked). */
export interface NoteSubject {
  kind: 'note';
  project: ProjectWithNamespace;
  access: ProjectAccess;
  noteable: NoteableFacts;
  note: NoteFacts;
}

/** One award emoji (removing it is its owner's or an admin's). */
export interface AwardSubject {
  kind: 'award';
  award: { user_id: number };
}

/** A group with the user's level on it and whether they may read it (groupFacts()). */
export interface GroupSubject extends GroupFacts {
  kind: 'group';
}

/** A personal namespace or a group seen as a namespace (namespaceFacts()). */
export interface NamespaceSubject extends NamespaceFacts {
  kind: 'namespace';
}

/** Another user. */
export interface UserSubject {
  kind: 'user';
  user: UserRow;
}

/** A group membership (groupMemberFacts()). */
export interface GroupMemberSubject extends GroupMemberFacts {
  kind: 'group_member';
}

/** A project membership, with the user's access to the project. */
export interface ProjectMemberSubject {
  kind: 'project_member';
  project: ProjectWithNamespace;
  access: ProjectAccess;
  member: MemberRow;
}

/** One snippet of a project. */
export interface ProjectSnippetSubject {
  kind: 'project_snippet';
  project: ProjectWithNamespace;
  access: ProjectAccess;
  snippet: SnippetFacts;
}

/** A snippet asked about as a personal one (a project snippet answers no to all). */
export interface PersonalSnippetSubject {
  kind: 'personal_snippet';
  snippet: SnippetFacts;
}

/** A project someone may ask to join (request_access), with the facts that rule needs. */
export interface ProjectAccessRequestSubject {
  kind: 'project_access_request';
  project: ProjectWithNamespace;
  access: ProjectAccess;
  facts: ProjectRequestFacts;
}

/** The instance itself: GitLab's GlobalPolicy (`can(user, GLOBAL, 'create_group')`). */
export interface GlobalSubject {
  kind: 'global';
}

export const GLOBAL: GlobalSubject = { kind: 'global' };

/** One job of a project, with its ref and the project's branch rules (ciRefFacts() of ci_refs.ts). */
export interface BuildSubject extends CiRefFacts {
  kind: 'build';
}

/** One pipeline of a project, or one about to be created for a ref (ciRefFacts()). */
export interface PipelineSubject extends CiRefFacts {
  kind: 'pipeline';
}

/** A deploy key reaching a project over git (policy/deploy_keys.ts); asked with a null user. */
export interface DeployKeyAccessSubject extends DeployKeyAccessFacts {
  kind: 'deploy_key_access';
}

/** A deploy key as something a user may change (DeployKeyPolicy). */
export interface DeployKeySubject extends DeployKeyFacts {
  kind: 'deploy_key';
}

export type Subject =
  | ProjectSubject
  | IssueSubject
  | MergeRequestSubject
  | NoteSubject
  | AwardSubject
  | GroupSubject
  | UserSubject
  | GroupMemberSubject
  | ProjectMemberSubject
  | NamespaceSubject
  | ProjectSnippetSubject
  | PersonalSnippetSubject
  | ProjectAccessRequestSubject
  | GlobalSubject
  | DeployKeyAccessSubject
  | DeployKeySubject
  | BuildSubject
  | PipelineSubject;

/**
 * Abilities on a project: its own, and those of its issues and merge requests as a whole.
 * The set_*_at ones (admins and the project owner set an issue's or a note's timestamps) are
 * inline checks in 10.8's API; later GitLab names them as ProjectPolicy abilities.
 */
export type ProjectAbility =
  | ProjectLevelAbility
  | CiProjectAbility
  | 'read_issue'
  | 'create_issue'
  | 'admin_issue'
  | 'destroy_issue'
  | 'read_merge_request'
  | 'create_merge_request_in'
  | 'create_merge_request_from'
  | 'admin_merge_request'
  | 'destroy_merge_request'
  | 'read_project_snippet'
  | 'create_project_snippet'
  | 'set_issue_created_at'
  | 'set_issue_updated_at'
  | 'set_note_created_at'
  | 'read_note'
  | 'create_note'
  | 'resolve_note';

export type IssueAbility = 'read_issue' | 'update_issue' | 'admin_issue' | 'destroy_issue' | 'create_note' | 'award_emoji';
export type MergeRequestAbility =
  'read_merge_request' | 'update_merge_request' | 'admin_merge_request' | 'destroy_merge_request' | 'create_note' | 'award_emoji' | 'resolve_note' | 'merge_merge_request';
export type NoteAbility = 'admin_note' | 'award_emoji' | 'resolve_note';
export type AwardAbility = 'destroy_award_emoji';
export type OneProjectSnippetAbility = ProjectSnippetAbility | 'create_note' | 'award_emoji';

/** The abilities a subject kind answers. */
export interface AbilityOf {
  project: ProjectAbility;
  issue: IssueAbility;
  merge_request: MergeRequestAbility;
  note: NoteAbility;
  award: AwardAbility;
  group: GroupAbility;
  user: UserAbility;
  group_member: GroupMemberAbility;
  project_member: ProjectMemberAbility;
  namespace: NamespaceAbility;
  project_snippet: OneProjectSnippetAbility;
  personal_snippet: PersonalSnippetAbility;
  project_access_request: 'request_access';
  global: GlobalAbility;
  deploy_key_access: DeployKeyAccessAbility;
  deploy_key: DeployKeyAbility;
  build: BuildAbility;
  pipeline: PipelineAbility;
}

export type Ability = AbilityOf[keyof AbilityOf];

type Rules<S extends Subject> = { [A in AbilityOf[S['kind']]]: (user: UserRow | null, subject: S) => boolean };

const ISSUE_FEATURE_RULES = {
  read_issue: (u, s) => canReadIssues(u, s.project, s.access),
  create_issue: (u, s) => canCreateIssue(u, s.project, s.access),
  admin_issue: (u, s) => canAdminIssues(u, s.project, s.access),
  destroy_issue: (u, s) => canDestroyIssue(u, s.project, s.access),
  read_merge_request: (u, s) => canReadMergeRequests(u, s.project, s.access),
  create_merge_request_in: (u, s) => canCreateMergeRequestIn(u, s.project, s.access),
  create_merge_request_from: (u, s) => canCreateMergeRequestFrom(u, s.project, s.access),
  admin_merge_request: (u, s) => canAdminMergeRequests(u, s.project, s.access),
  destroy_merge_request: (u, s) => canDestroyMergeRequest(u, s.project, s.access),
  read_project_snippet: (u, s) => canReadProjectSnippets(u, s.project, s.access),
  create_project_snippet: (u, s) => canCreateProjectSnippet(u, s.project, s.access),
  set_issue_created_at: (u, s) => canSetIssueTimestamps(u, s.access),
  set_issue_updated_at: (u, s) => canSetIssueTimestamps(u, s.access),
  set_note_created_at: (u, s) => canSetNoteTimestamps(u, s.access),
  read_note: (u, s) => canReadProjectNotes(u, s.project, s.access),
  create_note: (u, s) => canCreateNote(u, s.project, s.access, { readable: canReadProjectNotes(u, s.project, s.access), discussionLocked: false }),
  resolve_note: (u, s) => canResolveInProject(u, s.project, s.access),
  read_build: (u, s) => ciProjectCan(u, s.project, s.access, 'read_build'),
  read_pipeline: (u, s) => ciProjectCan(u, s.project, s.access, 'read_pipeline'),
  update_build: (u, s) => ciProjectCan(u, s.project, s.access, 'update_build'),
  create_pipeline: (u, s) => ciProjectCan(u, s.project, s.access, 'create_pipeline'),
  update_pipeline: (u, s) => ciProjectCan(u, s.project, s.access, 'update_pipeline'),
  admin_build: (u, s) => ciProjectCan(u, s.project, s.access, 'admin_build'),
  read_deployment: (u, s) => ciProjectCan(u, s.project, s.access, 'read_deployment'),
  read_environment: (u, s) => ciProjectCan(u, s.project, s.access, 'read_environment'),
} satisfies Partial<Record<ProjectAbility, (user: UserRow | null, subject: ProjectSubject) => boolean>>;

function projectRule(user: UserRow | null, s: ProjectSubject, ability: ProjectAbility): boolean {
  const featureRule = (ISSUE_FEATURE_RULES as Partial<Record<ProjectAbility, (u: UserRow | null, s: ProjectSubject) => boolean>>)[ability];
  return featureRule ? featureRule(user, s) : projectCan(user, s.project, s.access, ability as ProjectLevelAbility);
}

const ISSUE_RULES: Rules<IssueSubject> = {
  read_issue: (u, s) => canReadIssue(u, s.project, s.access, s.issue),
  update_issue: (u, s) => canUpdateIssue(u, s.project, s.access, s.issue),
  admin_issue: (u, s) => canReadIssue(u, s.project, s.access, s.issue) && canAdminIssues(u, s.project, s.access),
  destroy_issue: (u, s) => canDestroyIssue(u, s.project, s.access),
  create_note: (u, s) => canCreateNote(u, s.project, s.access, issueNoteable(u, s)),
  award_emoji: (u, s) => canAward(u, s.project, s.access, issueNoteable(u, s)),
};

function issueNoteable(user: UserRow | null, s: IssueSubject): NoteableFacts {
  return { readable: canReadIssue(user, s.project, s.access, s.issue), discussionLocked: !!s.issue.discussion_locked };
}

const MERGE_REQUEST_RULES: Rules<MergeRequestSubject> = {
  read_merge_request: (u, s) => canReadMergeRequest(u, s.project, s.access, s.mergeRequest),
  update_merge_request: (u, s) => canUpdateMergeRequest(u, s.project, s.access, s.mergeRequest),
  admin_merge_request: (u, s) => canAdminMergeRequests(u, s.project, s.access),
  destroy_merge_request: (u, s) => canDestroyMergeRequest(u, s.project, s.access),
  create_note: (u, s) => canCreateNote(u, s.project, s.access, mergeRequestNoteable(u, s)),
  award_emoji: (u, s) => canAward(u, s.project, s.access, mergeRequestNoteable(u, s)),
  // A discussion of it (ResolvableDiscussion#can_resolve?).
  resolve_note: (u, s) => canResolveDiscussion(u, s.project, s.access, mergeRequestNoteable(u, s)),
  merge_merge_request: (u, s) => !!s.targetBranch && canMergeInto(u, s.project, s.access, s.targetBranch),
};

function mergeRequestNoteable(user: UserRow | null, s: MergeRequestSubject): NoteableFacts {
  return {
    readable: canReadMergeRequest(user, s.project, s.access, s.mergeRequest),
    discussionLocked: !!s.mergeRequest.discussion_locked,
    authorId: s.mergeRequest.author_id,
  };
}

const NOTE_RULES: Rules<NoteSubject> = {
  admin_note: (u, s) => canAdminNote(u, s.project, s.access, s.noteable, s.note),
  award_emoji: (u, s) => canAward(u, s.project, s.access, s.noteable),
  resolve_note: (u, s) => canResolveNote(u, s.project, s.access, s.noteable, s.note),
};

const PROJECT_SNIPPET_RULES: Rules<ProjectSnippetSubject> = {
  read_project_snippet: (u, s) => projectSnippetCan(u, s.project, s.access, s.snippet, 'read_project_snippet'),
  update_project_snippet: (u, s) => projectSnippetCan(u, s.project, s.access, s.snippet, 'update_project_snippet'),
  admin_project_snippet: (u, s) => projectSnippetCan(u, s.project, s.access, s.snippet, 'admin_project_snippet'),
  create_note: (u, s) => canCreateNote(u, s.project, s.access, snippetNoteable(u, s)),
  award_emoji: (u, s) => canAward(u, s.project, s.access, snippetNoteable(u, s)),
};

function snippetNoteable(user: UserRow | null, s: ProjectSnippetSubject): NoteableFacts {
  return { readable: projectSnippetCan(user, s.project, s.access, s.snippet, 'read_project_snippet'), discussionLocked: false };
}

const AWARD_RULES: Rules<AwardSubject> = {
  destroy_award_emoji: (u, s) => canRemoveAward(u, s.award),
};

export function can(user: UserRow | null, subject: ProjectSubject, ability: ProjectAbility): boolean;
export function can(user: UserRow | null, subject: IssueSubject, ability: IssueAbility): boolean;
export function can(user: UserRow | null, subject: MergeRequestSubject, ability: MergeRequestAbility): boolean;
export function can(user: UserRow | null, subject: NoteSubject, ability: NoteAbility): boolean;
export function can(user: UserRow | null, subject: AwardSubject, ability: AwardAbility): boolean;
export function can(user: UserRow | null, subject: GroupSubject, ability: GroupAbility): boolean;
export function can(user: UserRow | null, subject: UserSubject, ability: UserAbility): boolean;
export function can(user: UserRow | null, subject: GroupMemberSubject, ability: GroupMemberAbility): boolean;
export function can(user: UserRow | null, subject: ProjectMemberSubject, ability: ProjectMemberAbility): boolean;
export function can(user: UserRow | null, subject: NamespaceSubject, ability: NamespaceAbility): boolean;
export function can(user: UserRow | null, subject: GlobalSubject, ability: GlobalAbility): boolean;
export function can(user: UserRow | null, subject: ProjectSnippetSubject, ability: OneProjectSnippetAbility): boolean;
export function can(user: UserRow | null, subject: PersonalSnippetSubject, ability: PersonalSnippetAbility): boolean;
export function can(user: UserRow | null, subject: ProjectAccessRequestSubject, ability: 'request_access'): boolean;
export function can(user: null, subject: DeployKeyAccessSubject, ability: DeployKeyAccessAbility): boolean;
export function can(user: UserRow | null, subject: DeployKeySubject, ability: DeployKeyAbility): boolean;
export function can(user: UserRow | null, subject: BuildSubject, ability: BuildAbility): boolean;
export function can(user: UserRow | null, subject: PipelineSubject, ability: PipelineAbility): boolean;
export function can<S extends Subject>(user: UserRow | null, subject: S, ability: AbilityOf[S['kind']]): boolean;
export function can(user: UserRow | null, subject: Subject, ability: Ability): boolean {
  if ('project' in subject && refusedOnArchived(subject.project, ability)) return false;
  switch (subject.kind) {
    case 'project':
      return projectRule(user, subject, ability as ProjectAbility);
    case 'issue':
      return ISSUE_RULES[ability as IssueAbility](user, subject);
    case 'merge_request':
      return MERGE_REQUEST_RULES[ability as MergeRequestAbility](user, subject);
    case 'note':
      return NOTE_RULES[ability as NoteAbility](user, subject);
    case 'award':
      return AWARD_RULES[ability as AwardAbility](user, subject);
    case 'group':
      return groupCan(user, subject, ability as GroupAbility);
    case 'user':
      return userCan(user, subject.user, ability as UserAbility);
    case 'group_member':
      return groupMemberCan(user, subject, ability as GroupMemberAbility);
    case 'project_member':
      return projectMemberCan(user, subject.project, subject.access, subject.member, ability as ProjectMemberAbility);
    case 'namespace':
      return namespaceCan(user, subject, ability as NamespaceAbility);
    case 'project_snippet':
      return PROJECT_SNIPPET_RULES[ability as OneProjectSnippetAbility](user, subject);
    case 'personal_snippet':
      return personalSnippetCan(user, subject.snippet, ability as PersonalSnippetAbility);
    case 'project_access_request':
      return canRequestProjectAccess(user, subject.project, subject.access, subject.facts);
    case 'global':
      return globalCan(user, ability as GlobalAbility);
    case 'deploy_key_access':
      return deployKeyAccessCan(subject, ability as DeployKeyAccessAbility);
    case 'deploy_key':
      return deployKeyCan(user, subject, ability as DeployKeyAbility);
    case 'build':
      return buildCan(user, subject, ability as BuildAbility);
    case 'pipeline':
      return pipelineCan(user, subject, ability as PipelineAbility);
  }
}

/** The subject of a project and the user's access to it. */
export function projectSubject(project: ProjectWithNamespace, access: ProjectAccess): ProjectSubject {
  return { kind: 'project', project, access };
}
