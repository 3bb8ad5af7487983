// Row type of a project's Pages domain. The private key is only ever stored encrypted
// (services/security/secret_box.ts); nothing reads it back but the certificate check of an update.

export interface PagesDomainRow {
  id: number;
  project_id: number;
  domain: string;
  certificate: string | null;
  /** The certificate as `openssl x509 -text` printed it when it was stored. */
  certificate_text: string | null;
  encrypted_key: string | null;
  verification_code: string;
  verified_at: string | null;
  enabled_until: string | null;
  created_at: string;
  updated_at: string;
}
