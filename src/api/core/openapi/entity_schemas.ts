// Where the OpenAPI document finds the schema of each response a route declares
// (`response: { schema: 'Branch' }`): GitLab 10.8's own file where GitLab committed one (read
// and converted by openapi/gitlab_schemas.ts), else Wharf's own description of its entity (src/entities),
// else a plain value type. A name found in none of them is still documented, as an object
// described in words: add it here when you declare it.
import type { JsonSchema } from './gitlab_schemas.js';

/** A GitLab schema file, or the `items` of a GitLab list file. */
export interface GitLabSource {
  file: string;
  items?: boolean;
}

const V4 = 'public_api/v4';

export const GITLAB_ENTITIES: Readonly<Record<string, GitLabSource>> = {
  Blob: { file: `${V4}/blobs.json`, items: true },
  Board: { file: `${V4}/board.json` },
  Branch: { file: `${V4}/branch.json` },
  Commit: { file: `${V4}/commit/basic.json` },
  CommitDetail: { file: `${V4}/commit/detail.json` },
  CommitStats: { file: `${V4}/commit_stats.json` },
  CommitNote: { file: `${V4}/commit_note.json` },
  Contributor: { file: 'contributor.json' },
  Issue: { file: `${V4}/issue.json` },
  IssueBasic: { file: `${V4}/issue.json` }, // what issues.json lists
  MergeRequestBasic: { file: `${V4}/merge_requests.json`, items: true },
  Milestone: { file: `${V4}/milestones.json`, items: true },
  Note: { file: `${V4}/notes.json`, items: true },
  PipelineBasic: { file: `${V4}/pipeline/basic.json` },
  Project: { file: `${V4}/projects.json`, items: true },
  Release: { file: `${V4}/release.json` },
  Snippet: { file: `${V4}/snippets.json`, items: true },
  Tag: { file: `${V4}/tag.json` },
  UserBasic: { file: `${V4}/user/basic.json` },
  UserPublic: { file: `${V4}/user/public.json` },
  UserAdmin: { file: `${V4}/user/admin.json` },
  UserLogin: { file: `${V4}/user/login.json` },
};

const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });

const accessLevel: JsonSchema = {
  type: 'object',
  required: ['access_level', 'access_level_description'],
  properties: { access_level: { type: 'integer', enum: [0, 30, 40] }, access_level_description: { type: 'string' } },
};

/** Entities GitLab committed no schema for, as Wharf renders them (src/entities, src/api). */
export const WHARF_ENTITIES: Readonly<Record<string, JsonSchema>> = {
  // entities/label.ts
  Label: {
    type: 'object',
    required: ['id', 'name', 'color', 'description', 'open_issues_count', 'closed_issues_count', 'open_merge_requests_count', 'priority', 'subscribed'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      color: { type: 'string', description: 'A CSS colour, e.g. "#FF0000".' },
      description: nullable('string'),
      open_issues_count: { type: 'integer' },
      closed_issues_count: { type: 'integer' },
      open_merge_requests_count: { type: 'integer' },
      priority: nullable('integer'),
      subscribed: { type: 'boolean' },
    },
  },
  // entities/protected_branch.ts (CE: exactly one access level of each kind)
  ProtectedBranch: {
    type: 'object',
    required: ['name', 'push_access_levels', 'merge_access_levels'],
    properties: {
      name: { type: 'string', description: 'A branch name or a wildcard such as "release-*".' },
      push_access_levels: { type: 'array', items: accessLevel },
      merge_access_levels: { type: 'array', items: accessLevel },
    },
  },
  // entities/ci_variable.ts (a project's or a group's CI variable)
  Variable: {
    type: 'object',
    required: ['key', 'value', 'protected'],
    properties: { key: { type: 'string' }, value: { type: 'string' }, protected: { type: 'boolean' } },
  },
  // api/files.ts: what creating, updating or deleting one file answers
  FileWrite: {
    type: 'object',
    required: ['file_path', 'branch'],
    properties: { file_path: { type: 'string' }, branch: { type: 'string' } },
  },
  // entities/discussion.ts: a thread of notes (Note entities)
  Discussion: {
    type: 'object',
    required: ['id', 'individual_note', 'notes'],
    properties: {
      id: { type: 'string', description: "The discussion's id: 40 hexadecimal digits." },
      individual_note: { type: 'boolean', description: 'A plain comment, not a thread one can reply to.' },
      notes: { type: 'array', items: { type: 'object', description: 'Note entities, oldest first.' } },
    },
  },
  // api/commit_notes.ts: a branch or tag containing a commit
  BasicRef: {
    type: 'object',
    required: ['type', 'name'],
    properties: { type: { type: 'string', enum: ['branch', 'tag'] }, name: { type: 'string' } },
  },
  // api/issue_extras.ts
  UserAgentDetail: {
    type: 'object',
    required: ['user_agent', 'ip_address', 'akismet_submitted'],
    properties: { user_agent: { type: 'string' }, ip_address: { type: 'string' }, akismet_submitted: { type: 'boolean' } },
  },
  // api/version.ts
  Version: {
    type: 'object',
    required: ['version', 'revision'],
    properties: { version: { type: 'string' }, revision: { type: 'string' } },
  },
  // entities/commit_status.ts: a job or an external CI's status of a commit
  CommitStatus: {
    type: 'object',
    required: ['id', 'sha', 'ref', 'status', 'name', 'target_url', 'description', 'created_at', 'started_at', 'finished_at', 'allow_failure', 'coverage', 'author'],
    properties: {
      id: { type: 'integer' },
      sha: { type: 'string' },
      ref: { type: 'string' },
      status: { type: 'string', enum: ['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual'] },
      name: { type: 'string' },
      target_url: nullable('string'),
      description: nullable('string'),
      created_at: { type: 'string', format: 'date-time' },
      started_at: nullable('string'),
      finished_at: nullable('string'),
      allow_failure: { type: 'boolean' },
      coverage: nullable('number'),
      author: { type: ['object', 'null'], description: 'UserBasic: the user who posted it (or whose job it is).' },
    },
  },
  // entities/broadcast_message.ts
  BroadcastMessage: {
    type: 'object',
    required: ['id', 'message', 'starts_at', 'ends_at', 'color', 'font', 'active'],
    properties: {
      id: { type: 'integer' },
      message: { type: 'string' },
      starts_at: { type: 'string', format: 'date-time' },
      ends_at: { type: 'string', format: 'date-time' },
      color: { ...nullable('string'), description: 'The background colour, e.g. "#E75E40".' },
      font: { ...nullable('string'), description: 'The text colour, e.g. "#FFFFFF".' },
      active: { type: 'boolean', description: 'Started and not yet ended.' },
    },
  },
  // entities/feature.ts: a feature flag and the gates that are set
  Feature: {
    type: 'object',
    required: ['name', 'state', 'gates'],
    properties: {
      name: { type: 'string' },
      state: { type: 'string', enum: ['on', 'off', 'conditional'] },
      gates: {
        type: 'array',
        items: {
          type: 'object',
          required: ['key', 'value'],
          properties: {
            key: { type: 'string', enum: ['boolean', 'groups', 'actors', 'percentage_of_actors', 'percentage_of_time'] },
            value: {
              type: ['boolean', 'integer', 'array'],
              items: { type: 'string' },
              description: 'boolean: true or false; groups and actors: names ("User:12"); percentages: 1 to 100.',
            },
          },
        },
      },
    },
  },
  // entities/board.ts: a label list of a board (the items of board.json's `lists`)
  List: {
    type: 'object',
    required: ['id', 'label', 'position'],
    properties: {
      id: { type: 'integer' },
      label: {
        type: 'object',
        required: ['id', 'name', 'color', 'description'],
        description: "LabelBasic: the list's label.",
        properties: { id: { type: 'integer' }, name: { type: 'string' }, color: { type: 'string' }, description: nullable('string') },
      },
      position: nullable('integer'),
    },
  },
  // entities/repository_storage_health.ts
  RepositoryStorageHealth: {
    type: 'object',
    required: ['storage_name', 'failing_on_hosts', 'total_failures'],
    properties: {
      storage_name: { type: 'string' },
      failing_on_hosts: { type: 'array', items: { type: 'string' } },
      total_failures: { type: 'integer' },
    },
  },
  // entities/email.ts: a user's secondary e-mail
  Email: {
    type: 'object',
    required: ['id', 'email'],
    properties: { id: { type: 'integer' }, email: { type: 'string' } },
  },
  // entities/gpg_key.ts: a user's GPG key, the armored public key as stored
  GPGKey: {
    type: 'object',
    required: ['id', 'key', 'created_at'],
    properties: { id: { type: 'integer' }, key: { type: 'string' }, created_at: { type: 'string', format: 'date-time' } },
  },
  // entities/user_activity.ts: the day of a user's last activity (twice, under its old name too)
  UserActivity: {
    type: 'object',
    required: ['username', 'last_activity_on', 'last_activity_at'],
    properties: { username: { type: 'string' }, last_activity_on: { type: 'string', format: 'date' }, last_activity_at: { type: 'string', format: 'date' } },
  },
};

/** Bodies that are a bare JSON value (`true` from block/unblock, ...). */
export const SCALAR_RESPONSES: Readonly<Record<string, JsonSchema>> = {
  boolean: { type: 'boolean' },
  string: { type: 'string' },
  integer: { type: 'integer' },
  object: { type: 'object' },
};
