// Discussions, commit comments and the issue extras of GitLab 10.8 (issue #19).
// - notes: `type` (null for a plain comment, 'DiscussionNote', 'DiffNote', 'LegacyDiffNote'
//   for a commit comment on a line), `discussion_id` (GitLab's SHA1 hex naming the thread a
//   note belongs to; a plain comment is a thread of its own), `position` (a DiffNote's place
//   in the diff, as JSON), `line_code` (a commit comment's line), `commit_id` (the commit a
//   note on a commit belongs to: `noteable_type` 'Commit', `noteable_id` 0, as GitLab keeps
//   its noteable_id empty) and `resolved_at`/`resolved_by_id` of resolvable notes. Existing
//   notes get a discussion id each.
// - user_agent_details: the user agent and IP address an issue was created from (admins read
//   them: GET .../issues/:iid/user_agent_detail).
// - issues.moved_to_id: the issue a moved issue went to (GitLab's `moved_to`), which also
//   makes moving it a second time refused. resolved_by_id and moved_to_id carry no foreign
//   key: a deleted user or issue leaves an id nothing answers to (shown as no resolver).
import crypto from 'node:crypto';
import type { Knex } from 'knex';

const BATCH = 500;

function discussionId(type: string, id: number): string {
  const underscored = type.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  return crypto.createHash('sha1').update(`discussion-${underscored}-${id}-${crypto.randomBytes(16).toString('hex')}`).digest('hex');
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notes', (t) => {
    t.string('type', 32);
    t.string('discussion_id', 40);
    t.text('position');
    t.string('line_code', 255);
    t.string('commit_id', 40);
    t.string('resolved_at', 30);
    // No foreign keys added to existing tables: knex rebuilds a SQLite table to add one, which
    // would drop the triggers other migrations hung on it (the search index of issues).
    t.integer('resolved_by_id');
  });
  for (let lastId = 0; ; ) {
    const rows: { id: number; noteable_type: string; noteable_id: number }[] = await knex('notes')
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(BATCH)
      .select('id', 'noteable_type', 'noteable_id');
    if (!rows.length) break;
    for (const r of rows) await knex('notes').where({ id: r.id }).update({ discussion_id: discussionId(r.noteable_type, r.noteable_id) });
    lastId = rows[rows.length - 1].id;
  }
  await knex.schema.alterTable('notes', (t) => {
    t.index(['discussion_id']);
    t.index(['project_id', 'commit_id']);
  });

  await knex.schema.createTable('user_agent_details', (t) => {
    t.increments('id');
    t.string('subject_type', 32).notNullable();
    t.integer('subject_id').notNullable();
    t.text('user_agent').notNullable();
    t.string('ip_address', 64).notNullable();
    t.boolean('submitted').notNullable().defaultTo(false);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['subject_type', 'subject_id']);
  });

  await knex.schema.alterTable('issues', (t) => {
    t.integer('moved_to_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('issues', (t) => {
    t.dropColumn('moved_to_id');
  });
  await knex.schema.dropTableIfExists('user_agent_details');
  await knex.schema.alterTable('notes', (t) => {
    t.dropIndex(['project_id', 'commit_id']);
    t.dropIndex(['discussion_id']);
    for (const c of ['type', 'discussion_id', 'position', 'line_code', 'commit_id', 'resolved_at', 'resolved_by_id']) t.dropColumn(c);
  });
}
