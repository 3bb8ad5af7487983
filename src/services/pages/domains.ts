// Adding, changing and removing a project's custom Pages domains (GitLab 10.8's PagesDomain
// model through the API's create, update and destroy). Validation comes first and stores
// nothing on failure: the hostname and its uniqueness (any case), the certificate and key
// (services/pages/certificates.ts), the Pages-host restriction — the model's messages in its
// order. A new domain gets a random verification code and is unverified. The private key is
// sealed (services/security/secret_box.ts) before it is written and never returned; an update given a
// certificate without a key keeps the stored key, one given neither removes both (GitLab's).
import crypto from 'node:crypto';
import { isUniqueViolation, type Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { Config } from '../../config.js';
import type { PagesDomainRow } from '../../store/pages_domain_rows.js';
import { now } from '../../store/time.js';
import { Invalid } from '../../store/domain_errors.js';
import { domainTaken } from '../../finders/pages_domains.js';
import { hostnameErrors, restrictedDomainError } from './domain_names.js';
import { certificateErrors, certificateText } from './certificates.js';
import { open, seal } from '../security/secret_box.js';

const KEY_PURPOSE = 'pages domain key';

export interface PagesDomainInput {
  domain: string;
  certificate: string | null;
  key: string | null;
}

type Deps = { db: Conn; config: Config };

async function validate(deps: Deps, input: PagesDomainInput, exceptId?: number): Promise<void> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, messages: string[]) => {
    if (messages.length) errors[field] = [...(errors[field] ?? []), ...messages];
  };
  add('domain', hostnameErrors(input.domain));
  if (await domainTaken(deps.db, input.domain, exceptId)) add('domain', ['has already been taken']);
  const certs = certificateErrors(input.certificate, input.key);
  if (input.certificate)
    add(
      'certificate',
      certs.certificate.filter((m) => m !== 'misses intermediates'),
    );
  if (input.key)
    add(
      'key',
      certs.key.filter((m) => m !== "doesn't match the certificate"),
    );
  const restricted = restrictedDomainError(input.domain, deps.config.pagesHost ?? '');
  if (restricted) add('domain', [restricted]);
  add(
    'key',
    certs.key.filter((m) => m === "doesn't match the certificate"),
  );
  add(
    'certificate',
    certs.certificate.filter((m) => m === 'misses intermediates'),
  );
  if (Object.keys(errors).length) throw new Invalid(errors);
}

async function columnsOf(deps: Deps, input: PagesDomainInput) {
  return {
    domain: input.domain,
    certificate: input.certificate,
    certificate_text: input.certificate ? await certificateText(input.certificate) : null,
    encrypted_key: input.key ? seal(deps.config, KEY_PURPOSE, input.key) : null,
  };
}

export async function createPagesDomain(deps: Deps, projectId: number, input: PagesDomainInput): Promise<PagesDomainRow> {
  await validate(deps, input);
  const stamp = now();
  try {
    const id = await insertReturningId(deps.db, 'pages_domains', {
      project_id: projectId,
      ...(await columnsOf(deps, input)),
      verification_code: crypto.randomBytes(16).toString('hex'),
      verified_at: null,
      enabled_until: null,
      created_at: stamp,
      updated_at: stamp,
    });
    return deps.db('pages_domains').where({ id }).first();
  } catch (err) {
    if (isUniqueViolation(err)) throw new Invalid({ domain: ['has already been taken'] });
    throw err;
  }
}

/** GitLab's update: `certificate` and `key` as given (null when absent), the stored key kept for a new certificate alone. */
export async function updatePagesDomain(deps: Deps, domain: PagesDomainRow, given: { certificate?: string; key?: string }): Promise<PagesDomainRow> {
  const certificate = given.certificate ?? null;
  const keptKey = given.certificate !== undefined && given.key === undefined && domain.encrypted_key ? open(deps.config, KEY_PURPOSE, domain.encrypted_key) : null;
  const input = { domain: domain.domain, certificate, key: given.key ?? keptKey };
  await validate(deps, input, domain.id);
  await deps
    .db('pages_domains')
    .where({ id: domain.id })
    .update({ ...(await columnsOf(deps, input)), updated_at: now() });
  return deps.db('pages_domains').where({ id: domain.id }).first();
}

export async function deletePagesDomain(db: Conn, domain: PagesDomainRow): Promise<void> {
  await db('pages_domains').where({ id: domain.id }).delete();
}
