// The Key model's validations (GitLab 10.8 app/models/key.rb), as `{"message":{field:[...]}}`
// errors in GitLab's order and words:
//   title        presence, at most 255 characters
//   key          presence, at most 5000 characters, starts with `ssh-` or `ecdsa-`
//   fingerprint  unique among all keys (users' and deploy keys alike), and present: a key
//                that cannot be parsed has none ("cannot be generated")
//   key          the type's restriction: a type that cannot be told (or is forbidden) is
//                "type is forbidden. Must be RSA, DSA, ECDSA, or ED25519"; a key smaller than
//                the restriction "must be at least N bits"
// Deploy keys are validated through their project link, so their fields come prefixed
// (`deploy_key.title`), as Rails names the errors of a nested record.
import type { ApplicationSettings } from '../../store/settings_catalogue.js';
import { KEY_TECHNOLOGIES, parsePublicKey, sanitizeKey, type KeyTechnology, type PublicKey } from './ssh_public_key.js';

const MAX_TITLE = 255;
const MAX_KEY = 5000;

/** GitLab's ApplicationSetting::FORBIDDEN_KEY_VALUE. */
const FORBIDDEN_KEY = -1;

/**
 * Minimum bits per key type (0: any size; FORBIDDEN_KEY: not allowed), GitLab's
 * `*_key_restriction` settings. Their defaults: every type allowed at any size.
 */
export type KeyRestrictions = Readonly<Record<KeyTechnology, number>>;
const DEFAULT_KEY_RESTRICTIONS: KeyRestrictions = { rsa: 0, dsa: 0, ecdsa: 0, ed25519: 0 };

/** The `*_key_restriction` application settings as KeyRestrictions. */
export function keyRestrictionsOf(
  settings: Pick<ApplicationSettings, 'rsa_key_restriction' | 'dsa_key_restriction' | 'ecdsa_key_restriction' | 'ed25519_key_restriction'>,
): KeyRestrictions {
  return { rsa: settings.rsa_key_restriction, dsa: settings.dsa_key_restriction, ecdsa: settings.ecdsa_key_restriction, ed25519: settings.ed25519_key_restriction };
}

/** A key as the model holds it before validation: the sanitized text and what it parses to. */
export interface PreparedKey {
  /** The text to store (Key#key=: sanitized; null when blank). */
  text: string | null;
  publicKey: PublicKey | null;
}

export function prepareKey(raw: string): PreparedKey {
  if (raw.trim() === '') return { text: null, publicKey: null };
  const text = sanitizeKey(raw);
  return { text, publicKey: text.length <= MAX_KEY ? parsePublicKey(text) : null };
}

/** "RSA, DSA, ECDSA, or ED25519" (Array#to_sentence with GitLab's connectors). */
function sentence(words: string[]): string {
  if (words.length <= 1) return words.join('');
  if (words.length === 2) return `${words[0]} or ${words[1]}`;
  return `${words.slice(0, -1).join(', ')}, or ${words[words.length - 1]}`;
}

function restrictionError(publicKey: PublicKey | null, restrictions: KeyRestrictions): string | null {
  const restriction = publicKey ? restrictions[publicKey.technology] : FORBIDDEN_KEY;
  if (restriction === FORBIDDEN_KEY) {
    const allowed = KEY_TECHNOLOGIES.filter((t) => restrictions[t] !== FORBIDDEN_KEY).map((t) => t.toUpperCase());
    return `type is forbidden. Must be ${sentence(allowed)}`;
  }
  return publicKey && publicKey.bits < restriction ? `must be at least ${restriction} bits` : null;
}

/** Ruby's /\A(ssh|ecdsa)-.*\Z/: the prefix, and no line break but an optional final one. */
function formatValid(text: string): boolean {
  const newline = text.indexOf('\n');
  return (text.startsWith('ssh-') || text.startsWith('ecdsa-')) && (newline === -1 || newline === text.length - 1);
}

/** Errors of the title alone (an update that changes only the title). */
export function titleErrors(title: string): string[] {
  if (title.trim() === '') return ["can't be blank"];
  return title.length > MAX_TITLE ? [`is too long (maximum is ${MAX_TITLE} characters)`] : [];
}

/**
 * The model's errors, in GitLab's order; empty when the key may be saved. `fingerprintTaken`:
 * another key already has the prepared key's fingerprint.
 */
export function keyErrors(title: string, prepared: PreparedKey, fingerprintTaken: boolean, restrictions: KeyRestrictions = DEFAULT_KEY_RESTRICTIONS): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const m of titleErrors(title)) add('title', m);
  const text = prepared.text ?? '';
  if (prepared.text === null) add('key', "can't be blank");
  if (text.length > MAX_KEY) add('key', `is too long (maximum is ${MAX_KEY} characters)`);
  if (!formatValid(text)) add('key', 'is invalid');
  if (fingerprintTaken) add('fingerprint', 'has already been taken');
  if (!prepared.publicKey) add('fingerprint', 'cannot be generated');
  const restricted = restrictionError(prepared.publicKey, restrictions);
  if (restricted) add('key', restricted);
  return errors;
}

/** The errors of a deploy key as its project link reports them (`deploy_key.title`, …). */
export function nested(errors: Record<string, string[]>, association = 'deploy_key'): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [`${association}.${field}`, messages]));
}
