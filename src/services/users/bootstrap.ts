// First start: the administrator `root` (id 1) and a token to reach the API with. Several
// processes may start at once on one database: each check and its insert share one write
// transaction (writers take turns), so root and the configured token are created once.
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import { insertUser } from './users.js';
import { createToken, tokenDigest } from './tokens.js';
import { advanceIdSequence } from '../../store/ids.js';

export async function bootstrap(deps: Deps): Promise<void> {
  const { db, config, log } = deps;
  const fresh = await db.transaction(async (tx) => {
    const existing = await tx('users').count({ n: '*' }).first();
    if (Number(existing?.n ?? 0) !== 0) return false;
    await insertUser(tx, {
      username: 'root',
      email: 'admin@example.com',
      name: 'Administrator',
      admin: true,
      extra: { id: 1 } as never,
    });
    await advanceIdSequence(tx, 'users');
    return true;
  });
  if (fresh) log.info('created the administrator account "root"');

  if (config.rootToken) {
    const secret = config.rootToken;
    const outcome = await db.transaction(async (tx) => {
      const known = await tx('personal_access_tokens')
        .where({ token_digest: tokenDigest(secret) })
        .first('id');
      if (known) return 'known';
      // root may have been deleted since: the token then belongs to the oldest active admin.
      const admin = await tx('users').where({ admin: true, state: 'active' }).orderBy('id').first('id');
      if (!admin) return 'no admin';
      await createToken(tx, { userId: admin.id, name: 'WHARF_ROOT_TOKEN', scopes: ['api', 'sudo'], secret });
      return 'created';
    });
    if (outcome === 'no admin') log.warn('WHARF_ROOT_TOKEN is set but no active administrator exists to own it');
  } else if (fresh) {
    const { token } = await createToken(db, { userId: 1, name: 'initial root token', scopes: ['api', 'sudo'] });
    const dir = config.db.startsWith('postgres') ? path.resolve('db') : path.dirname(config.db);
    const file = path.join(dir, 'initial_root_token');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
    log.info({ file }, 'generated a personal access token for root; it is in %s', file);
  }
}
