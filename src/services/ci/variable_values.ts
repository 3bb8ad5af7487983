// CI variable values at rest: sealed with the server secret (security/secret_box.ts), as GitLab 10.8
// keeps Ci::Variable#value encrypted (attr_encrypted under its db_key_base), so that a copy of
// the database does not hand out every project's deploy credentials. They are opened only to
// answer the variables API and to hand a job its environment. A value stored before sealing
// (or put into the table by hand) does not start with `v1:` and is read as it is.
import type { Config } from '../../config.js';
import { open, seal } from '../security/secret_box.js';

const PURPOSE = 'ci variable';

export function sealValue(config: Pick<Config, 'serverSecret'>, plain: string): string {
  return seal(config, PURPOSE, plain);
}

export function revealValue(config: Pick<Config, 'serverSecret'>, stored: string): string {
  return stored.startsWith('v1:') ? open(config, PURPOSE, stored) : stored;
}
