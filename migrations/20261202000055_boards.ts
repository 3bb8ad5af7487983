// Issue boards as GitLab 10.8 keeps them: `boards` (one per project or per group: CE allows a
// single board per parent, so each parent column is unique, which also makes creating the
// default board on first read safe against a second request doing the same) and `lists` (a
// board's columns: `list_type` 0 backlog, 1 label, 2 closed, as 10.8's enum; a label list has
// its label and a position, unique per board and label). Every row hangs off its parent with
// ON DELETE CASCADE: deleting a project, a group or a board removes its boards or lists, and
// deleting a label removes its lists (10.8's foreign keys; the other lists keep their
// positions, gaps included, as they do in GitLab).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('boards', (t) => {
    t.increments('id');
    t.integer('project_id').references('projects.id').onDelete('CASCADE');
    t.integer('group_id').references('namespaces.id').onDelete('CASCADE');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['project_id']);
    t.unique(['group_id']);
  });
  await knex.schema.createTable('lists', (t) => {
    t.increments('id');
    t.integer('board_id').notNullable().references('boards.id').onDelete('CASCADE');
    t.integer('label_id').references('labels.id').onDelete('CASCADE');
    t.integer('list_type').notNullable().defaultTo(1);
    t.integer('position');
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['board_id', 'label_id']);
    // A board's lists in their order (10.8's `order(:list_type, :position)`).
    t.index(['board_id', 'list_type', 'position']);
    t.index(['label_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('lists');
  await knex.schema.dropTable('boards');
}
