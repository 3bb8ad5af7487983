// The counts a project answer shows, kept as columns instead of counted on every request
// (issue #12): `forks_count` (direct forks, GitLab's ForksCountService) and
// `open_issues_count` (open, non-confidential issues, GitLab's OpenIssuesCountService).
// Triggers keep them in step inside the transaction of every write to `projects` and
// `issues`, whoever writes (a service, a cascaded delete, a bulk import); the columns are
// filled from the current rows once here.
import type { Knex } from 'knex';

function sqlite(knex: Knex): boolean {
  return knex.client.dialect === 'sqlite3';
}

const SQLITE_TRIGGERS = [
  `CREATE TRIGGER projects_forks_count_insert AFTER INSERT ON projects WHEN NEW.forked_from_id IS NOT NULL BEGIN
     UPDATE projects SET forks_count = forks_count + 1 WHERE id = NEW.forked_from_id; END`,
  `CREATE TRIGGER projects_forks_count_delete AFTER DELETE ON projects WHEN OLD.forked_from_id IS NOT NULL BEGIN
     UPDATE projects SET forks_count = forks_count - 1 WHERE id = OLD.forked_from_id; END`,
  `CREATE TRIGGER projects_forks_count_update AFTER UPDATE OF forked_from_id ON projects
     WHEN OLD.forked_from_id IS NOT NEW.forked_from_id BEGIN
     UPDATE projects SET forks_count = forks_count - 1 WHERE id = OLD.forked_from_id;
     UPDATE projects SET forks_count = forks_count + 1 WHERE id = NEW.forked_from_id; END`,
  `CREATE TRIGGER issues_open_count_insert AFTER INSERT ON issues WHEN NEW.state = 'opened' AND NOT NEW.confidential BEGIN
     UPDATE projects SET open_issues_count = open_issues_count + 1 WHERE id = NEW.project_id; END`,
  `CREATE TRIGGER issues_open_count_delete AFTER DELETE ON issues WHEN OLD.state = 'opened' AND NOT OLD.confidential BEGIN
     UPDATE projects SET open_issues_count = open_issues_count - 1 WHERE id = OLD.project_id; END`,
  `CREATE TRIGGER issues_open_count_update AFTER UPDATE OF state, confidential, project_id ON issues BEGIN
     UPDATE projects SET open_issues_count = open_issues_count - 1
       WHERE id = OLD.project_id AND OLD.state = 'opened' AND NOT OLD.confidential;
     UPDATE projects SET open_issues_count = open_issues_count + 1
       WHERE id = NEW.project_id AND NEW.state = 'opened' AND NOT NEW.confidential; END`,
];

const PG_TRIGGERS = [
  `CREATE OR REPLACE FUNCTION wharf_forks_count() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.forked_from_id IS NOT NULL THEN
       UPDATE projects SET forks_count = forks_count - 1 WHERE id = OLD.forked_from_id;
     END IF;
     IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.forked_from_id IS NOT NULL THEN
       UPDATE projects SET forks_count = forks_count + 1 WHERE id = NEW.forked_from_id;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER projects_forks_count AFTER INSERT OR DELETE OR UPDATE OF forked_from_id ON projects
     FOR EACH ROW EXECUTE FUNCTION wharf_forks_count()`,
  `CREATE OR REPLACE FUNCTION wharf_open_issues_count() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.state = 'opened' AND NOT OLD.confidential THEN
       UPDATE projects SET open_issues_count = open_issues_count - 1 WHERE id = OLD.project_id;
     END IF;
     IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.state = 'opened' AND NOT NEW.confidential THEN
       UPDATE projects SET open_issues_count = open_issues_count + 1 WHERE id = NEW.project_id;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER issues_open_count AFTER INSERT OR DELETE OR UPDATE OF state, confidential, project_id ON issues
     FOR EACH ROW EXECUTE FUNCTION wharf_open_issues_count()`,
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.integer('forks_count').notNullable().defaultTo(0);
    t.integer('open_issues_count').notNullable().defaultTo(0);
  });
  await knex('projects').update({
    forks_count: knex('projects as f').count('*').whereRaw('f.forked_from_id = projects.id'),
    open_issues_count: knex('issues as i').count('*').whereRaw('i.project_id = projects.id').where({ 'i.state': 'opened', 'i.confidential': false }),
  });
  for (const sql of sqlite(knex) ? SQLITE_TRIGGERS : PG_TRIGGERS) await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  if (sqlite(knex)) {
    for (const t of ['projects_forks_count_insert', 'projects_forks_count_delete', 'projects_forks_count_update',
      'issues_open_count_insert', 'issues_open_count_delete', 'issues_open_count_update']) await knex.raw(`DROP TRIGGER IF EXISTS ${t}`);
  } else {
    await knex.raw('DROP TRIGGER IF EXISTS projects_forks_count ON projects');
    await knex.raw('DROP TRIGGER IF EXISTS issues_open_count ON issues');
    await knex.raw('DROP FUNCTION IF EXISTS wharf_forks_count()');
    await knex.raw('DROP FUNCTION IF EXISTS wharf_open_issues_count()');
  }
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('forks_count');
    t.dropColumn('open_issues_count');
  });
}
