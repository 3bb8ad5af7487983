// Comments (notes), award emoji and explicit subscriptions of issues and merge requests.
// All three are polymorphic on their target, as in GitLab: `noteable_type`/`awardable_type`/
// `subscribable_type` hold the class name ('Issue', 'MergeRequest'; award emoji also
// 'Note'), with no foreign key on the target id; the services delete them with their
// target. Rows go with their project (CASCADE); a deleted author leaves notes to the Ghost
// User (SET NULL), while award emoji and subscriptions go with their user.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notes', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('noteable_type', 32).notNullable();
    t.integer('noteable_id').notNullable();
    t.integer('author_id').references('users.id').onDelete('SET NULL');
    t.text('body').notNullable();
    t.boolean('system').notNullable().defaultTo(false);
    t.integer('updated_by_id').references('users.id').onDelete('SET NULL');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['noteable_type', 'noteable_id', 'created_at']);
    t.index(['author_id']);
    t.index(['project_id']);
  });

  await knex.schema.createTable('award_emoji', (t) => {
    t.increments('id');
    t.string('awardable_type', 32).notNullable();
    t.integer('awardable_id').notNullable();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['awardable_type', 'awardable_id', 'name', 'user_id']);
    // my_reaction_emoji: the user's awards of one name on one kind of target.
    t.index(['user_id', 'name', 'awardable_type']);
  });

  await knex.schema.createTable('subscriptions', (t) => {
    t.increments('id');
    t.string('subscribable_type', 32).notNullable();
    t.integer('subscribable_id').notNullable();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('project_id').references('projects.id').onDelete('CASCADE');
    t.boolean('subscribed').notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['subscribable_type', 'subscribable_id', 'user_id']);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('subscriptions');
  await knex.schema.dropTableIfExists('award_emoji');
  await knex.schema.dropTableIfExists('notes');
}
