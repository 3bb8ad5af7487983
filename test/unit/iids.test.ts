// Per-project iid counters: dense, per usage, and untouched by a rolled-back transaction.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { nextIid } from '../../src/store/iids.js';

describe('store/iids', () => {
  let s: TestServer;
  let projectId: number;
  before(async () => {
    s = await bootServer();
    projectId = (await s.post('/projects', { json: { name: 'counted' } })).body.id;
  });
  after(async () => s.close());

  it('counts from 1 per project and per usage', async () => {
    const issues = [];
    for (let i = 0; i < 3; i++) issues.push(await s.db.transaction((tx) => nextIid(tx, projectId, 'issues')));
    expect(issues).to.deep.equal([1, 2, 3]);
    expect(await s.db.transaction((tx) => nextIid(tx, projectId, 'merge_requests'))).to.equal(1);
  });

  it('gives a number back when its transaction rolls back', async () => {
    await s.db
      .transaction(async (tx) => {
        await nextIid(tx, projectId, 'milestones');
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await s.db.transaction((tx) => nextIid(tx, projectId, 'milestones'))).to.equal(1);
  });

  it('never hands out the same number to concurrent transactions', async () => {
    const got = await Promise.all(Array.from({ length: 20 }, () => s.db.transaction((tx) => nextIid(tx, projectId, 'issues'))));
    expect(new Set(got).size).to.equal(20);
    expect(Math.max(...got)).to.equal(23);
  });
});
