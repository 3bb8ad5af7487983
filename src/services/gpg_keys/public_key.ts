// Reading an armored OpenPGP public key as GitLab 10.8's Gitlab::Gpg does with GPGME, through
// the openpgp library: the primary key's fingerprint and 16-digit key id (upper-case hex, as
// the GpgKey model answers them), its subkeys' ids and fingerprints, and the e-mails of its
// user ids (lower-cased). A text openpgp cannot read as one public key gives nothing, as an
// import of nothing does in GitLab.
import { readKey } from 'openpgp';

export interface GpgPublicKey {
  fingerprint: string;
  primaryKeyid: string;
  subkeys: { keyid: string; fingerprint: string }[];
  emails: string[];
}

export async function readGpgPublicKey(armored: string): Promise<GpgPublicKey | null> {
  let key;
  try {
    key = await readKey({ armoredKey: armored });
  } catch {
    return null;
  }
  if (key.isPrivate()) return null;
  return {
    fingerprint: key.getFingerprint().toUpperCase(),
    primaryKeyid: key.getKeyID().toHex().toUpperCase(),
    subkeys: key.subkeys.map((s) => ({ keyid: s.getKeyID().toHex().toUpperCase(), fingerprint: s.getFingerprint().toUpperCase() })),
    emails: key.users.flatMap((u) => (u.userID?.email ? [u.userID.email.toLowerCase()] : [])),
  };
}
