// The archived-project rule, once (GitLab 10.8's ProjectPolicy `rule { archived }`): an
// archived project is read-only. Every create_/update_/admin_/destroy_ ability of the
// read-only features is refused, and so are pushing (git or API commits, branches, tags,
// merges into a branch), deleting protected branches, uploads, resolving discussions, opening
// merge requests (either side) and awarding emoji. Admins are refused too: GitLab's `prevent`
// beats every `enable`. Reads still pass, and so do the project's own settings (admin_project,
// members, archive/unarchive, protected-branch rules), which 10.8 leaves open.
//
// Each ability decision in policy/ asks `refusedOnArchived` with GitLab's ability name, and
// `can()` (policy/can.ts) asks it before any rule, so a new write ability only needs its name.
import type { ProjectRow } from '../store/rows.js';

/** ProjectPolicy::READONLY_FEATURES_WHEN_ARCHIVED. */
const READONLY_FEATURES = [
  'issue',
  'list',
  'merge_request',
  'label',
  'milestone',
  'project_snippet',
  'wiki',
  'note',
  'pipeline',
  'pipeline_schedule',
  'build',
  'trigger',
  'environment',
  'deployment',
  'commit_status',
  'container_image',
  'pages',
  'cluster',
] as const;

const REFUSED: ReadonlySet<string> = new Set([
  ...READONLY_FEATURES.flatMap((feature) => ['create', 'update', 'admin', 'destroy'].map((verb) => `${verb}_${feature}`)),
  'push_code',
  'push_to_delete_protected_branch',
  'request_access',
  'upload_file',
  'resolve_note',
  'create_merge_request_from',
  'create_merge_request_in',
  'award_emoji',
]);

/** Whether the project is archived and GitLab refuses `ability` on it for everyone. */
export function refusedOnArchived(project: Pick<ProjectRow, 'archived'>, ability: string): boolean {
  return !!project.archived && REFUSED.has(ability);
}
