// An avatar (table `avatars`, migration 31) belongs to its owner row but cannot have a foreign
// key (its owner is a user, a project or a group namespace by `model`): a trigger removes it,
// in the deleting transaction, when its owner's row is deleted — by a service, a cascade or an
// import alike — so no image of a deleted user, project or group stays stored or served.
// Rows left by owners deleted before this migration are removed once.
import type { Knex } from 'knex';

const OWNERS = [
  { table: 'users', model: 'user', when: '' },
  { table: 'projects', model: 'project', when: '' },
  { table: 'namespaces', model: 'group', when: "OLD.kind = 'group'" },
];

function sqlite(knex: Knex): boolean {
  return knex.client.dialect === 'sqlite3';
}

export async function up(knex: Knex): Promise<void> {
  for (const { table, model } of OWNERS) {
    await knex('avatars').where({ model }).whereNotExists(knex(table).select(1).whereRaw('?? = avatars.model_id', [`${table}.id`])).delete();
  }
  if (sqlite(knex)) {
    for (const { table, model, when } of OWNERS) {
      await knex.raw(`CREATE TRIGGER ${table}_avatar_delete AFTER DELETE ON ${table} ${when ? `WHEN ${when} ` : ''}BEGIN
        DELETE FROM avatars WHERE model = '${model}' AND model_id = OLD.id; END`);
    }
    return;
  }
  await knex.raw(`CREATE OR REPLACE FUNCTION wharf_delete_avatar() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM avatars WHERE model = TG_ARGV[0] AND model_id = OLD.id;
      RETURN NULL;
    END $$`);
  for (const { table, model, when } of OWNERS) {
    await knex.raw(`CREATE TRIGGER ${table}_avatar_delete AFTER DELETE ON ${table}
      FOR EACH ROW ${when ? `WHEN (${when}) ` : ''}EXECUTE FUNCTION wharf_delete_avatar('${model}')`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table } of OWNERS) {
    await knex.raw(sqlite(knex) ? `DROP TRIGGER IF EXISTS ${table}_avatar_delete` : `DROP TRIGGER IF EXISTS ${table}_avatar_delete ON ${table}`);
  }
  if (!sqlite(knex)) await knex.raw('DROP FUNCTION IF EXISTS wharf_delete_avatar()');
}
