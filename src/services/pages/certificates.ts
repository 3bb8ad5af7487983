// A Pages domain's certificate and key as GitLab 10.8's PagesDomain model checks and shows
// them, with Node's crypto:
// - the certificate: the first PEM certificate of the text ("must be a valid PEM certificate");
// - the key: a PEM RSA private key, unencrypted ("must be a valid PEM private key");
// - they match (key: "doesn't match the certificate"), checked whenever either is given;
// - the chain: a self-signed certificate needs none; any other must chain, through the
//   certificates that follow it in the text, to a root — one in the text that signs itself, or
//   one of Node's CA store (certificate: "misses intermediates"). Validity dates are not
//   checked: an expired certificate is accepted and shown `expired: true`.
// What it shows: the subject as OpenSSL's one-line form (`/CN=example.com/O=Org`), whether it
// has expired, the expiry date, and the text `openssl x509 -text` prints of it (rendered once,
// when stored, by the `openssl` command; Node's own summary where that command is missing).
import crypto from 'node:crypto';
import tls from 'node:tls';
import { execFile } from 'node:child_process';

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

/** The PEM certificate blocks of a text, in order (a plain scan, no regular expression). */
function pemBlocks(text: string): string[] {
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(BEGIN, from);
    if (start === -1) return blocks;
    const end = text.indexOf(END, start);
    if (end === -1) return blocks;
    blocks.push(text.slice(start, end + END.length));
    from = end + END.length;
  }
}

function parse(pem: string): crypto.X509Certificate | null {
  try {
    return new crypto.X509Certificate(pem);
  } catch {
    return null;
  }
}

/** The leaf certificate of a PEM text (its first), or null when there is none. */
function leafCertificate(text: string): crypto.X509Certificate | null {
  const first = pemBlocks(text)[0];
  return first ? parse(first) : null;
}

/** The RSA private key of a PEM text, or null. */
function privateKey(text: string): crypto.KeyObject | null {
  if (!text.includes('-----BEGIN')) return null;
  try {
    const key = crypto.createPrivateKey({ key: text, format: 'pem' });
    return key.asymmetricKeyType === 'rsa' ? key : null;
  } catch {
    return null;
  }
}

function signs(issuer: crypto.X509Certificate, cert: crypto.X509Certificate): boolean {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

function selfSigned(cert: crypto.X509Certificate): boolean {
  return signs(cert, cert);
}

let systemRoots: crypto.X509Certificate[] | null = null;
function roots(): crypto.X509Certificate[] {
  systemRoots ??= tls.rootCertificates.map(parse).filter((c): c is crypto.X509Certificate => c !== null);
  return systemRoots;
}

/** PagesDomain#has_intermediates?: self-signed, or chained to a root through the given certificates. */
function chainVerifies(text: string): boolean {
  const certs = pemBlocks(text)
    .map(parse)
    .filter((c): c is crypto.X509Certificate => c !== null);
  const leaf = certs[0];
  if (!leaf) return false;
  if (selfSigned(leaf)) return true;
  const trusted = [...certs.filter(selfSigned), ...roots()];
  const intermediates = certs.slice(1).filter((c) => !selfSigned(c));
  let current = leaf;
  // Each step moves to a different intermediate: the walk ends within their number.
  for (let step = 0; step <= intermediates.length; step++) {
    if (trusted.some((root) => signs(root, current))) return true;
    const next = intermediates.find((c) => c !== current && signs(c, current));
    if (!next) return false;
    current = next;
  }
  return false;
}

/** The model's certificate and key errors (GitLab's messages, in its order). */
export function certificateErrors(certificate: string | null, key: string | null): { certificate: string[]; key: string[] } {
  const errors = { certificate: [] as string[], key: [] as string[] };
  const cert = certificate ? leafCertificate(certificate) : null;
  const pkey = key ? privateKey(key) : null;
  if (certificate && !cert) errors.certificate.push('must be a valid PEM certificate');
  if (key && !pkey) errors.key.push('must be a valid PEM private key');
  if (certificate || key) {
    let matches = false;
    try {
      matches = !!cert && !!pkey && cert.checkPrivateKey(pkey);
    } catch {
      matches = false;
    }
    if (!matches) errors.key.push("doesn't match the certificate");
  }
  if (certificate && !chainVerifies(certificate)) errors.certificate.push('misses intermediates');
  return errors;
}

export interface CertificateFacts {
  subject: string;
  expired: boolean;
  expiration: string;
}

/** What the entities show of a stored certificate (null when it no longer parses). */
export function certificateFacts(certificate: string, at = new Date()): CertificateFacts | null {
  const cert = leafCertificate(certificate);
  if (!cert) return null;
  const notBefore = new Date(cert.validFrom);
  const notAfter = new Date(cert.validTo);
  return {
    subject: `/${cert.subject.split('\n').join('/')}`,
    expired: at < notBefore || notAfter < at,
    expiration: notAfter.toISOString(),
  };
}

function nodeSummary(cert: crypto.X509Certificate): string {
  return [
    'Certificate:',
    `    Serial Number: ${cert.serialNumber}`,
    `    Issuer: ${cert.issuer.split('\n').join(', ')}`,
    '    Validity',
    `        Not Before: ${cert.validFrom}`,
    `        Not After : ${cert.validTo}`,
    `    Subject: ${cert.subject.split('\n').join(', ')}`,
    `    SHA256 Fingerprint: ${cert.fingerprint256}`,
    '',
  ].join('\n');
}

/** OpenSSL's text of the leaf certificate (Certificate#to_text). */
export async function certificateText(certificate: string): Promise<string | null> {
  const cert = leafCertificate(certificate);
  if (!cert) return null;
  const pem = cert.toString();
  return new Promise((resolve) => {
    const child = execFile('openssl', ['x509', '-noout', '-text'], { timeout: 10_000, maxBuffer: 1024 * 1024 }, (err, stdout) => {
      resolve(err || !stdout ? nodeSummary(cert) : stdout);
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(pem);
  });
}
