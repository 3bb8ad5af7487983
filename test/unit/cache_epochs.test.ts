// The cache epochs (store/cache_epochs.ts): a reading shared by concurrent callers never
// misses a write committed before a caller asked, and the triggers of migration 000026 move
// a topic in the writer's own transaction (a rolled-back write moves nothing).
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { bumpEpoch, readEpochs } from '../../src/store/cache_epochs.js';

describe('store/cache_epochs', () => {
  let s: TestServer;
  before(async () => {
    s = await bootServer();
  });
  after(async () => s.close());

  it('sees a write committed while an earlier reading was still running', async () => {
    for (let i = 0; i < 20; i++) {
      const first = readEpochs(s.db); // may still be running when the write below commits
      const before = (await s.db('cache_epochs').where({ topic: 'tokens' }).first()).epoch as number;
      await s.db.transaction((tx) => bumpEpoch(tx, 'tokens'));
      const second = readEpochs(s.db);
      expect((await second).get('tokens')).to.equal(Number(before) + 1);
      await first;
    }
  });

  it('shares one reading among callers that ask while another is running', async () => {
    const running = readEpochs(s.db);
    const a = readEpochs(s.db);
    const b = readEpochs(s.db);
    expect(a).to.equal(b);
    expect(a).to.not.equal(running);
    await Promise.all([running, a]);
    const later = readEpochs(s.db);
    expect(later).to.not.equal(a);
    await later;
  });

  it('moves a topic by trigger in the writing transaction, and not when it rolls back', async () => {
    const epoch = async () => (await readEpochs(s.db)).get('users') ?? 0;
    const start = await epoch();
    await s.db
      .transaction(async (tx) => {
        await tx('users').where({ username: 'root' }).update({ name: 'Rolled Back' });
        expect((await readEpochs(tx)).get('users')).to.equal(start + 1); // inside: already moved
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await epoch()).to.equal(start);
    await s.db('users').where({ username: 'root' }).update({ updated_at: new Date().toISOString() });
    expect(await epoch()).to.equal(start + 1);
  });
});
