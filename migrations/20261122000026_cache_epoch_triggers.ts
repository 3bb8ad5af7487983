// Every write to a table that a per-process cache depends on moves its topic's epoch in
// `cache_epochs`, by trigger, inside the writer's own transaction (the contract of
// src/store/cache_epochs.ts). A trigger cannot be forgotten by a new service, a cascaded
// delete or a bulk import, so no process serves a revoked token, a removed member or a stale
// list count after the change committed, whichever process made it (issue #12).
import type { Knex } from 'knex';

/** Which tables move which topic (src/store/cache_epochs.ts lists what each topic guards). */
export const EPOCH_TABLES: Record<string, string[]> = {
  tokens: ['personal_access_tokens'],
  users: ['users'],
  memberships: ['members', 'project_group_links', 'namespace_ancestors', 'namespaces'],
  projects: ['projects', 'namespaces', 'users_star_projects', 'custom_attributes', 'project_statistics', 'protected_branches'],
  issuables: ['issues', 'merge_requests', 'issue_assignees', 'label_links', 'labels', 'milestones', 'award_emoji'],
};

function sqlite(knex: Knex): boolean {
  return knex.client.dialect === 'sqlite3';
}

function pairs(): [string, string[]][] {
  const byTable = new Map<string, string[]>();
  for (const [topic, tables] of Object.entries(EPOCH_TABLES)) {
    for (const table of tables) byTable.set(table, [...(byTable.get(table) ?? []), topic]);
  }
  return [...byTable];
}

export async function up(knex: Knex): Promise<void> {
  for (const topic of Object.keys(EPOCH_TABLES)) {
    await knex('cache_epochs').insert({ topic, epoch: 0 }).onConflict('topic').ignore();
  }
  if (sqlite(knex)) {
    for (const [table, topics] of pairs()) {
      const bump = `UPDATE cache_epochs SET epoch = epoch + 1 WHERE topic IN (${topics.map((t) => `'${t}'`).join(', ')});`;
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
        await knex.raw(`CREATE TRIGGER ${table}_epoch_${op.toLowerCase()} AFTER ${op} ON ${table} BEGIN ${bump} END`);
      }
    }
    return;
  }
  await knex.raw(`CREATE OR REPLACE FUNCTION wharf_bump_epochs() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE cache_epochs SET epoch = epoch + 1 WHERE topic = ANY (TG_ARGV);
      RETURN NULL;
    END $$`);
  for (const [table, topics] of pairs()) {
    await knex.raw(`CREATE TRIGGER ${table}_epoch AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION wharf_bump_epochs(${topics.map((t) => `'${t}'`).join(', ')})`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of pairs()) {
    if (sqlite(knex)) {
      for (const op of ['insert', 'update', 'delete']) await knex.raw(`DROP TRIGGER IF EXISTS ${table}_epoch_${op}`);
    } else {
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_epoch ON ${table}`);
    }
  }
  if (!sqlite(knex)) await knex.raw('DROP FUNCTION IF EXISTS wharf_bump_epochs()');
}
