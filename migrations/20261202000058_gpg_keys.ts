// Users' GPG keys (GitLab 10.8's `gpg_keys` and `gpg_key_subkeys`): the armored public key as
// given (stripped), its primary key id and fingerprint (upper-case hex, each unique, as 10.8's
// validations ask) and one row per subkey with its own id and fingerprint. Keys go with their
// user, subkeys with their key (ON DELETE CASCADE).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('gpg_keys', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.string('primary_keyid', 16).notNullable().unique();
    t.string('fingerprint', 64).notNullable().unique();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['user_id']);
  });
  await knex.schema.createTable('gpg_key_subkeys', (t) => {
    t.increments('id');
    t.integer('gpg_key_id').notNullable().references('gpg_keys.id').onDelete('CASCADE');
    t.string('keyid', 16).notNullable().unique();
    t.string('fingerprint', 64).notNullable().unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('gpg_key_subkeys');
  await knex.schema.dropTableIfExists('gpg_keys');
}
