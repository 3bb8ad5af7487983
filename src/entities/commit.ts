// GitLab's Commit entity (lib/api/entities.rb `Commit`, 10.8) and CommitDetail.
import type { CommitInfo } from '../git/reader.js';
import { commitTitle } from '../store/commit_title.js';

/** GitLab's short id: `id[0..7]` in Ruby, i.e. the first 8 characters. */
function shortId(oid: string): string {
  return oid.slice(0, 8);
}

/**
 * A git timestamp as 10.8 shows it: Rugged (the default backend in 10.8) keeps the commit's own
 * UTC offset, and Rails renders it with milliseconds, e.g. "2018-05-01T12:00:00.000+02:00".
 * `timezoneOffset` is isomorphic-git's: minutes *behind* UTC (-120 for +02:00).
 */
export function gitTime(seconds: number, timezoneOffset = 0): string {
  const east = -timezoneOffset;
  const local = new Date((seconds + east * 60) * 1000).toISOString().slice(0, 23);
  const sign = east < 0 ? '-' : '+';
  const abs = Math.abs(east);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export interface CommitBasic {
  id: string;
  short_id: string;
  title: string;
  created_at: string;
  parent_ids: string[];
  message: string;
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
}

/** The Commit entity: `created_at` is the committed date, `message` the full raw message. */
export function commitBasic(commit: CommitInfo): CommitBasic {
  return {
    id: commit.oid,
    short_id: shortId(commit.oid),
    title: commitTitle(commit.message),
    created_at: gitTime(commit.committer.timestamp, commit.committer.timezoneOffset),
    parent_ids: [...commit.parents],
    message: commit.message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: gitTime(commit.author.timestamp, commit.author.timezoneOffset),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: gitTime(commit.committer.timestamp, commit.committer.timezoneOffset),
  };
}

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

/** CommitDetail: Commit + stats, the latest pipeline's status, last_pipeline, project_id. */
export function commitDetail(commit: CommitInfo, extra: { stats?: CommitStats; status: string | null; lastPipeline: unknown; projectId: number }) {
  return {
    ...commitBasic(commit),
    ...(extra.stats ? { stats: extra.stats } : {}),
    status: extra.status,
    last_pipeline: extra.lastPipeline ?? null,
    project_id: extra.projectId,
  };
}
