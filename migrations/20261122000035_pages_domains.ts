// Custom domains of a project's Pages site (GitLab's pages_domains). The domain is unique
// whatever its case. The private key is stored only encrypted (AES-256-GCM under a key derived
// from the server secret in db/, services/security/secret_box.ts); the certificate's OpenSSL text is
// kept as it was rendered when stored. Domains go with their project.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('pages_domains', (t) => {
    t.increments('id');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('domain', 255).notNullable();
    t.text('certificate');
    t.text('certificate_text');
    t.text('encrypted_key');
    t.string('verification_code', 64).notNullable();
    t.string('verified_at', 30);
    t.string('enabled_until', 30);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['project_id', 'domain']);
  });
  await knex.raw('CREATE UNIQUE INDEX pages_domains_domain_lower ON pages_domains (lower(domain))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('pages_domains');
}
