// The issues a merge request closes when it is merged (GitLab 10.8's
// MergeRequest#closes_issues and Gitlab::ClosingIssueExtractor): only for a merge request into
// its project's default branch, the closing statements of its title, description and commit
// messages ("Closes #12", "Fixes #3 and #4", "Resolves group/project#5", "implements
// <issue URL>"), with GitLab's default `issue_closing_pattern` (its verbs are matched with a
// capital or small first letter only, as GitLab's pattern does). Each reference is resolved
// like GitLab's issue reference filter: `#N` in the merge request's project, `project#N` in a
// project of the same namespace, `group/project#N` anywhere; only existing issues the user
// may read are kept, never one of the project this project was forked from.
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { MergeRequestRow, IssueRow } from '../../store/issuable_rows.js';
import { assigneeIdsOf, findIssue } from '../../finders/issues.js';
import { findProjectByIdOrPath, fullPathOf, gitdirOf } from '../../finders/projects.js';
import { canReadIssue } from '../../policy/issues.js';
import { projectAccess, type ProjectAccess } from '../../policy/projects.js';
import { commitMessages } from '../../git/merge.js';

// Gitlab::PathRegex, in JavaScript.
const PATH = '[a-zA-Z0-9_.][a-zA-Z0-9_\\-.]*';
const NO_SUFFIX = '(?<!\\.git|\\.atom)';
const NAMESPACE = `(?:${PATH}[a-zA-Z0-9_\\-]|[a-zA-Z0-9_])${NO_SUFFIX}`;
const FULL_NAMESPACE = `(?:${NAMESPACE}/)*${NAMESPACE}`;
const PROJECT = `(?:${PATH})${NO_SUFFIX}`;
// Project.reference_pattern and Issue.reference_pattern (groups: 1 namespace, 2 project, 3 iid).
const SHORT_REF = `(?:(?:(${FULL_NAMESPACE})/)?(${PROJECT}))?#(\\d+)`;
// Banzai's AutolinkFilter::LINK_PATTERN: any URL, trailing punctuation left out.
const LINK = '[a-z][a-z0-9+.-]+://[^\\s>]+(?<![?!.,:])';
const ISSUE_REF = `(?:(?:${LINK})|(?:${SHORT_REF.replace(/\((?!\?)/g, '(?:')}))`;
// GitLab's default issue_closing_pattern (config/initializers/1_settings.rb).
const CLOSING = new RegExp(
  `((?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)|[Ii]mplement(?:s|ed|ing)?)(:?) +` +
    `(?:(?:issues? +)?${ISSUE_REF}(?:(?: *,? +and +| *, *)?)|([A-Z][A-Z0-9_]+-\\d+))+)`,
  'g',
);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One issue reference: `path` a full project path, a bare project path (same namespace) or null (this project). */
export interface IssueReference {
  namespace: string | null;
  project: string | null;
  iid: number;
}

/**
 * The issue references inside the closing statements of `text`, in order, duplicates
 * kept out. `baseUrl` is the instance URL that issue links must start with.
 */
export function closingReferences(text: string, baseUrl: string): IssueReference[] {
  const statements: string[] = [];
  for (const m of text.matchAll(CLOSING)) statements.push(m[0]);
  if (!statements.length) return [];
  const joined = statements.join(' ');
  // Issue links (Issue.link_reference_pattern) first in the alternation, as the URL filter
  // runs before the short reference filter; a link's own text is never read as `#N`.
  const link = `${escape(baseUrl.replace(/(?<!\/)\/+$/, ''))}/(?:(${FULL_NAMESPACE})/)?(${PROJECT})/issues/(\\d+)(?:/[a-z0-9_=-]+)*(?:\\?[a-z0-9_=-]+(?:&[a-z0-9_=-]+)*)?(?:#[a-z0-9_-]+)?`;
  const any = new RegExp(`${link}|${LINK}|${SHORT_REF}`, 'g');
  const out: IssueReference[] = [];
  const seen = new Set<string>();
  for (const m of joined.matchAll(any)) {
    let ref: IssueReference | null = null;
    if (m[3] !== undefined) ref = { namespace: m[1] ?? null, project: m[2] ?? null, iid: Number(m[3]) };
    else if (m[6] !== undefined) ref = { namespace: m[4] ?? null, project: m[5] ?? null, iid: Number(m[6]) };
    if (!ref) continue; // some other URL
    const key = `${ref.namespace ?? ''}/${ref.project ?? ''}#${ref.iid}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ref);
  }
  return out;
}

/**
 * The issues closed by `messages` in `project`, readable by `user` (null: anonymous), each
 * once, in the order referenced.
 */
async function issuesClosedBy(deps: Deps, project: ProjectWithNamespace, user: UserRow | null, messages: string[]): Promise<IssueRow[]> {
  const refs = closingReferences(messages.join('\n'), deps.urls.base);
  const projects = new Map<string, { project: ProjectWithNamespace; access: ProjectAccess } | null>();
  const out: IssueRow[] = [];
  const seen = new Set<number>();
  for (const ref of refs) {
    let path = fullPathOf(project);
    if (ref.project !== null) path = `${ref.namespace ?? project.namespace.full_path}/${ref.project}`;
    const key = path.toLowerCase();
    if (!projects.has(key)) {
      const target = key === fullPathOf(project).toLowerCase() ? project : await findProjectByIdOrPath(deps.db, path);
      projects.set(key, target ? { project: target, access: await projectAccess(deps.db, user, target) } : null);
    }
    const found = projects.get(key);
    if (!found) continue;
    if (project.forked_from_id !== null && found.project.id === project.forked_from_id) continue;
    const issue = await findIssue(deps.db, found.project.id, ref.iid);
    if (!issue || seen.has(issue.id)) continue;
    const facts = { confidential: issue.confidential, author_id: issue.author_id, assigneeIds: await assigneeIdsOf(deps.db, issue.id) };
    if (!canReadIssue(user, found.project, found.access, facts)) continue;
    seen.add(issue.id);
    out.push(issue);
  }
  return out;
}

/** What a merge request's commits say (those on its source not on its target), newest first. */
async function mergeRequestCommitMessages(deps: Deps, project: ProjectWithNamespace, mr: MergeRequestRow): Promise<string[]> {
  if (!mr.head_sha) return [];
  try {
    return await commitMessages(gitdirOf(deps.repos, project), mr.start_sha ?? mr.base_sha, mr.head_sha);
  } catch {
    return []; // commits not (or no longer) in the target repository
  }
}

/**
 * MergeRequest#closes_issues: the issues closed by merging `mr` (of `project`, its target
 * project) as seen by `user` (GitLab's default: the author); none unless it targets the
 * default branch.
 */
export async function mergeRequestClosesIssues(deps: Deps, project: ProjectWithNamespace, mr: MergeRequestRow, user: UserRow | null): Promise<IssueRow[]> {
  if (!project.default_branch || mr.target_branch !== project.default_branch) return [];
  const messages = [mr.title, mr.description ?? '', ...(await mergeRequestCommitMessages(deps, project, mr))];
  return issuesClosedBy(deps, project, user, messages);
}

/** Issue#to_reference(from): `#N`, `project#N` in the same namespace, else `group/project#N`. */
export function issueReference(issue: IssueRow, issueProject: ProjectWithNamespace, from: ProjectWithNamespace): string {
  if (issueProject.id === from.id) return `#${issue.iid}`;
  if (issueProject.namespace_id === from.namespace_id) return `${issueProject.path}#${issue.iid}`;
  return `${fullPathOf(issueProject)}#${issue.iid}`;
}
