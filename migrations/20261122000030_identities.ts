// External identities of users (GitLab 10.8's `identities`): a provider name and the user's id
// there (`extern_uid`), set by an admin with `provider` and `extern_uid` on POST/PUT /users,
// shown in UserPublic and found by GET /users?provider=&extern_uid=. One identity per provider
// and user; an extern_uid belongs to one user per provider, compared without case (10.8's
// `uniqueness: { scope: :provider, case_sensitive: false }`), hence the index on lower().
// A deleted user's identities go with them (CASCADE).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('identities', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('provider', 255).notNullable();
    t.string('extern_uid', 255);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['user_id', 'provider']);
  });
  await knex.raw('CREATE INDEX identities_provider_lower_extern_uid ON identities (provider, lower(extern_uid))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('identities');
}
