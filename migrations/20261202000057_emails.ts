// Users' secondary e-mails (GitLab 10.8's `emails` table): each belongs to one user and goes
// with them (ON DELETE CASCADE); an address is unique among every secondary e-mail (a unique
// index, stored lower-cased as the Email model writes it; the check against primary e-mails is
// the service's). `confirmed_at` is null until the address is confirmed: Wharf sends no mail, so
// only an admin's `skip_confirmation` confirms one.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('emails', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('email', 255).notNullable().unique();
    t.string('confirmed_at', 30);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('emails');
}
