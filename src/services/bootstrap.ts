// First start: the administrator `root` (id 1) and a token to reach the API with.
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../deps.js';
import { insertUser } from './users.js';
import { createToken, tokenDigest } from './tokens.js';

export async function bootstrap(deps: Deps): Promise<void> {
  const { db, config, log } = deps;
  const existing = await db('users').count({ n: '*' }).first();
  const fresh = Number(existing?.n ?? 0) === 0;
  if (fresh) {
    await db.transaction((tx) =>
      insertUser(tx, {
        username: 'root',
        email: 'admin@example.com',
        name: 'Administrator',
        admin: true,
        extra: { id: 1 } as never,
      }),
    );
    log.info('created the administrator account "root"');
  }

  if (config.rootToken) {
    const known = await db('personal_access_tokens').where({ token_digest: tokenDigest(config.rootToken) }).first('id');
    // root may have been deleted since: the token then belongs to the oldest active admin.
    const admin = await db('users').where({ admin: true, state: 'active' }).orderBy('id').first('id');
    if (!known && admin) {
      await createToken(db, { userId: admin.id, name: 'WHARF_ROOT_TOKEN', scopes: ['api', 'sudo'], secret: config.rootToken });
    } else if (!known) {
      log.warn('WHARF_ROOT_TOKEN is set but no active administrator exists to own it');
    }
  } else if (fresh) {
    const { token } = await createToken(db, { userId: 1, name: 'initial root token', scopes: ['api', 'sudo'] });
    const dir = config.db.startsWith('postgres') ? path.resolve('db') : path.dirname(config.db);
    const file = path.join(dir, 'initial_root_token');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
    log.info({ file }, 'generated a personal access token for root; it is in %s', file);
  }
}
