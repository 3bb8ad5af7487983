// SSH keys: users' keys and deploy keys in one table, as GitLab 10.8 keeps them (`keys` with a
// `type` of Key or DeployKey), so that a fingerprint is unique across both (the same public key
// cannot be a user's key and a deploy key) and git over SSH finds any key with one indexed
// lookup. Only the public key is stored, with its MD5 fingerprint.
//
// `user_id` is the key's owner for a user key and the creator of a deploy key. Deleting a user
// deletes their own keys (services/users/deletion.ts) and leaves the deploy keys they created
// without a creator (SET NULL), as GitLab leaves them to its ghost user.
//
// `deploy_keys_projects` enables a deploy key in a project, with `can_push` per project; a
// deploy key no project uses any more is deleted with its last link (services/keys/deploy_keys.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('keys', (t) => {
    t.increments('id');
    t.string('type', 16).notNullable(); // 'Key' | 'DeployKey'
    t.integer('user_id').references('users.id').onDelete('SET NULL');
    t.string('title', 255).notNullable();
    t.text('key').notNullable();
    t.string('fingerprint', 64).notNullable().unique();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['user_id', 'type']);
    t.index(['type']);
  });

  await knex.schema.createTable('deploy_keys_projects', (t) => {
    t.increments('id');
    t.integer('deploy_key_id').notNullable().references('keys.id').onDelete('CASCADE');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.boolean('can_push').notNullable().defaultTo(false);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['deploy_key_id', 'project_id']);
    t.index(['project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('deploy_keys_projects');
  await knex.schema.dropTable('keys');
}
