// GitLab 10.8's Pages domain entities, in their key order: PagesDomain (a project's: `domain,
// url, verified, verification_code, enabled_until` and, with a certificate, `certificate
// {subject, expired, certificate, certificate_text}`) and PagesDomainBasic (the admins' list:
// `project_id` after `url`, and `certificate_expiration {expired, expiration}`). `url` is
// https when a certificate is stored. The private key is never shown.
import type { PagesDomainRow } from '../store/pages_domain_rows.js';

/** What is shown of the stored certificate (computed from it by the caller). */
export interface CertificateView {
  subject: string;
  expired: boolean;
  expiration: string;
}

function common(d: PagesDomainRow) {
  return {
    url: `${d.certificate ? 'https' : 'http'}://${d.domain}`,
    verified: d.verified_at !== null,
    verification_code: d.verification_code,
    enabled_until: d.enabled_until,
  };
}

export function pagesDomainEntity(d: PagesDomainRow, cert: CertificateView | null) {
  const { url, ...rest } = common(d);
  return {
    domain: d.domain,
    url,
    ...rest,
    ...(d.certificate && cert ? { certificate: { subject: cert.subject, expired: cert.expired, certificate: d.certificate, certificate_text: d.certificate_text ?? '' } } : {}),
  };
}

export function pagesDomainBasicEntity(d: PagesDomainRow, cert: CertificateView | null) {
  const { url, ...rest } = common(d);
  return {
    domain: d.domain,
    url,
    project_id: d.project_id,
    ...rest,
    ...(d.certificate && cert ? { certificate_expiration: { expired: cert.expired, expiration: cert.expiration } } : {}),
  };
}
