// Every declared route table of /api/v4, in mount order: what app.ts mounts, `make routes`
// prints and the OpenAPI document describes. Every /api/v4 endpoint is declared in one of them.
import type { Route } from './route.js';
import { statusOf } from './route.js';
import { fileRoutes } from '../files.js';
import { branchRoutes } from '../branches.js';
import { protectedBranchRoutes } from '../protected_branches.js';
import { labelRoutes } from '../labels.js';
import { milestoneRoutes } from '../milestones.js';
import { pipelineRoutes } from '../pipelines.js';
import { jobRoutes } from '../jobs.js';
import { commitStatusRoutes } from '../commit_statuses.js';
import { groupVariableRoutes, projectVariableRoutes } from '../ci_variables.js';
import { deploymentRoutes } from '../deployments.js';
import { environmentRoutes } from '../environments.js';
import { projectListRoutes } from '../project_lists.js';
import { projectRoutes } from '../projects.js';
import { customAttributeRoutes } from '../custom_attributes.js';
import { forkRoutes } from '../forks.js';
import { repositoryRoutes } from '../repository.js';
import { commitRoutes } from '../commits.js';
import { tagRoutes } from '../tags.js';
import { commitNoteRoutes } from '../commit_notes.js';
import { compareRoutes } from '../compare.js';
import { versionRoutes } from '../version.js';
import { userRoutes } from '../users.js';
import { impersonationTokenRoutes } from '../impersonation_tokens.js';
import { namespaceRoutes } from '../namespaces.js';
import { groupRoutes } from '../groups.js';
import { memberRoutes } from '../members.js';
import { eventRoutes } from '../events.js';
import { todoRoutes } from '../todos.js';
import { issueRoutes } from '../issues.js';
import { issueExtraRoutes } from '../issue_extras.js';
import { noteRoutes } from '../notes.js';
import { discussionRoutes } from '../discussions.js';
import { awardEmojiRoutes } from '../award_emoji.js';
import { issuableSocialRoutes } from '../issuable_social.js';
import { mergeRequestRoutes } from '../merge_requests.js';
import { mergeRequestActionRoutes } from '../merge_request_actions.js';
import { projectSnippetRoutes } from '../snippets.js';
import { personalSnippetRoutes } from '../personal_snippets.js';
import { accessRequestRoutes } from '../access_requests.js';
import { badgeRoutes } from '../badges.js';
import { pagesDomainRoutes } from '../pages_domains.js';
import { docsRoutes } from '../docs.js';
import { housekeepingRoutes } from '../housekeeping.js';
import { projectExportRoutes } from '../project_export.js';
import { projectImportRoutes } from '../project_import.js';
import { uploadRoutes } from '../uploads.js';
import { notificationSettingRoutes } from '../notification_settings.js';
import { mergeRequestVersionRoutes } from '../merge_request_versions.js';
import { sidekiqMetricsRoutes } from '../sidekiq_metrics.js';
import { settingsRoutes } from '../settings.js';
import { keyRoutes } from '../keys.js';
import { userEmailRoutes } from '../user_emails.js';
import { gpgKeyRoutes } from '../gpg_keys.js';
import { userActivityRoutes } from '../user_activities.js';
import { deployKeyRoutes } from '../deploy_keys.js';
import { hookRoutes } from '../hooks.js';
import { broadcastMessageRoutes } from '../broadcast_messages.js';
import { featureRoutes } from '../features.js';
import { circuitBreakerRoutes } from '../circuit_breakers.js';
import { boardRoutes } from '../boards.js';
import { snapshotRoutes } from '../snapshots.js';
import { languageRoutes } from '../languages.js';
import { groupBoardRoutes } from '../group_boards.js';
import { searchRoutes } from '../search.js';

export interface RouteTable {
  family: string;
  routes: readonly Route[];
}

export const ROUTE_TABLES: readonly RouteTable[] = [
  { family: 'files', routes: fileRoutes },
  { family: 'branches', routes: branchRoutes },
  { family: 'protected_branches', routes: protectedBranchRoutes },
  { family: 'labels', routes: labelRoutes },
  { family: 'milestones', routes: milestoneRoutes },
  { family: 'pipelines', routes: pipelineRoutes },
  { family: 'jobs', routes: jobRoutes },
  { family: 'commit_statuses', routes: commitStatusRoutes },
  { family: 'variables', routes: projectVariableRoutes },
  { family: 'group_variables', routes: groupVariableRoutes },
  { family: 'deployments', routes: deploymentRoutes },
  { family: 'environments', routes: environmentRoutes },
  { family: 'projects', routes: [...projectListRoutes, ...projectRoutes, ...customAttributeRoutes('projects')] },
  { family: 'forks', routes: forkRoutes },
  { family: 'repository', routes: repositoryRoutes },
  { family: 'commits', routes: commitRoutes },
  { family: 'tags', routes: tagRoutes },
  { family: 'commit_notes', routes: commitNoteRoutes },
  { family: 'compare', routes: compareRoutes },
  { family: 'version', routes: versionRoutes },
  { family: 'users', routes: userRoutes },
  { family: 'impersonation_tokens', routes: impersonationTokenRoutes },
  { family: 'namespaces', routes: namespaceRoutes },
  { family: 'groups', routes: groupRoutes },
  { family: 'members', routes: memberRoutes },
  { family: 'events', routes: eventRoutes },
  { family: 'todos', routes: todoRoutes },
  { family: 'issues', routes: [...issueRoutes, ...issueExtraRoutes] },
  { family: 'notes', routes: noteRoutes },
  { family: 'discussions', routes: discussionRoutes },
  { family: 'award_emoji', routes: awardEmojiRoutes },
  { family: 'issuable_social', routes: issuableSocialRoutes },
  { family: 'merge_requests', routes: mergeRequestRoutes },
  { family: 'merge_request_actions', routes: mergeRequestActionRoutes },
  { family: 'project_snippets', routes: projectSnippetRoutes },
  { family: 'snippets', routes: personalSnippetRoutes },
  { family: 'access_requests', routes: accessRequestRoutes },
  { family: 'badges', routes: badgeRoutes },
  { family: 'pages_domains', routes: pagesDomainRoutes },
  { family: 'housekeeping', routes: housekeepingRoutes },
  { family: 'project_export', routes: projectExportRoutes },
  { family: 'project_import', routes: projectImportRoutes },
  { family: 'uploads', routes: uploadRoutes },
  { family: 'notification_settings', routes: notificationSettingRoutes },
  { family: 'merge_request_diffs', routes: mergeRequestVersionRoutes },
  { family: 'sidekiq_metrics', routes: sidekiqMetricsRoutes },
  // openapi.json and the docs page describe every table, this one included (read when asked).
  { family: 'docs', routes: docsRoutes(() => ROUTE_TABLES) },
  { family: 'settings', routes: settingsRoutes },
  { family: 'keys', routes: keyRoutes },
  { family: 'user_emails', routes: userEmailRoutes },
  { family: 'gpg_keys', routes: gpgKeyRoutes },
  { family: 'user_activities', routes: userActivityRoutes },
  { family: 'deploy_keys', routes: deployKeyRoutes },
  { family: 'hooks', routes: hookRoutes },
  { family: 'broadcast_messages', routes: broadcastMessageRoutes },
  { family: 'features', routes: featureRoutes },
  { family: 'circuit_breakers', routes: circuitBreakerRoutes },
  { family: 'snapshots', routes: snapshotRoutes },
  { family: 'languages', routes: languageRoutes },
  { family: 'boards', routes: boardRoutes },
  { family: 'group_boards', routes: groupBoardRoutes },
  { family: 'search', routes: searchRoutes },
];

/** The tables as text, one route a line: method, path, auth, load, ability, status, summary. */
export function formatRouteTable(tables: readonly RouteTable[] = ROUTE_TABLES): string {
  const rows = tables.flatMap((t) => t.routes.map((r) => [r.method, `/api/v4${r.path}`, r.auth, r.load ?? '-', r.ability ?? '-', String(statusOf(r)), r.summary]));
  const header = ['METHOD', 'PATH', 'AUTH', 'LOAD', 'ABILITY', 'STATUS', 'SUMMARY'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
