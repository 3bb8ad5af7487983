// Feature flags (GitLab 10.8 lib/api/features.rb over Flipper 0.13, and its request spec):
// admins only; a gate set from `value` for everyone, for a feature group or for a user; the
// state and gates as 10.8's entity shows them; removal; and the refusals (a missing value, a
// percentage out of range, an unknown user, a name too long) storing nothing.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { openApiSchemas, type SchemaCheck } from '../helpers/openapi_schemas.js';

describe('features', function () {
  this.timeout(60_000);
  let s: TestServer;
  let schema: SchemaCheck;
  let user: { id: number; username: string; token: string };
  const off = { key: 'boolean', value: false };
  const set = (name: string, form: Record<string, string>) => s.post(`/features/${name}`, { form });
  const listed = async (name: string) => ((await s.get('/features')).body as { name: string }[]).find((f) => f.name === name);

  before(async () => {
    s = await bootServer();
    schema = await openApiSchemas(s);
    const made = await s.createUser('flag-user');
    user = { id: made.user.id, username: made.user.username, token: made.token };
  });
  after(async () => s?.close());

  it('answers 401 to the signed-out and 403 to non-admins', async () => {
    const calls: [string, string][] = [
      ['GET', '/features'],
      ['POST', '/features/guarded'],
      ['DELETE', '/features/guarded'],
    ];
    for (const [method, path] of calls) {
      const form = method === 'GET' ? undefined : { value: 'true' };
      const anonymous = await s.request(method, path, { token: null, form });
      expect(anonymous.status, `${method} ${path}`).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const denied = await s.request(method, path, { token: user.token, form });
      expect(denied.status, `${method} ${path}`).to.equal(403);
      expect(denied.body).to.deep.equal({ message: '403 Forbidden' });
    }
    expect(await listed('guarded')).to.equal(undefined);
  });

  it('creates an enabled feature, for everyone, a feature group, a user, or both', async () => {
    const on = await set('on_feature', { value: 'true' });
    expect(on.status).to.equal(201);
    schema(on.body, 'Feature');
    expect(on.body).to.deep.equal({ name: 'on_feature', state: 'on', gates: [{ key: 'boolean', value: true }] });

    const group = await set('group_feature', { value: 'true', feature_group: 'perf_team' });
    expect(group.body).to.deep.equal({ name: 'group_feature', state: 'conditional', gates: [off, { key: 'groups', value: ['perf_team'] }] });

    const actor = await set('user_feature', { value: 'true', user: user.username.toUpperCase() });
    expect(actor.body).to.deep.equal({ name: 'user_feature', state: 'conditional', gates: [off, { key: 'actors', value: [`User:${user.id}`] }] });

    const both = await set('both_feature', { value: 'true', user: user.username, feature_group: 'perf_team' });
    expect(both.status).to.equal(201);
    schema(both.body, 'Feature');
    expect(both.body).to.deep.equal({
      name: 'both_feature',
      state: 'conditional',
      gates: [off, { key: 'groups', value: ['perf_team'] }, { key: 'actors', value: [`User:${user.id}`] }],
    });
    const again = await set('both_feature', { value: 'true', feature_group: 'perf_team' });
    expect(again.body).to.deep.equal(both.body);
  });

  it('sets a percentage of time: conditional, on at 100, none for a value that is no number', async () => {
    const half = await set('percent_feature', { value: '50' });
    expect(half.status).to.equal(201);
    expect(half.body).to.deep.equal({ name: 'percent_feature', state: 'conditional', gates: [off, { key: 'percentage_of_time', value: 50 }] });
    const thirty = await s.post('/features/percent_feature', { json: { value: 30 } });
    expect(thirty.body.gates).to.deep.equal([off, { key: 'percentage_of_time', value: 30 }]);
    const full = await set('percent_feature', { value: ' 100%' });
    expect(full.body).to.deep.equal({ name: 'percent_feature', state: 'on', gates: [off, { key: 'percentage_of_time', value: 100 }] });
    // Ruby's to_i of a word is 0: the feature is persisted with a 0% gate, which is not shown.
    const word = await set('word_feature', { value: 'abc' });
    expect(word.status).to.equal(201);
    expect(word.body).to.deep.equal({ name: 'word_feature', state: 'off', gates: [off] });
    expect(await listed('word_feature')).to.deep.equal(word.body);
  });

  it('disables a feature (every gate cleared), or only for the given group or user', async () => {
    await set('mixed', { value: '40' });
    const enabled = await s.post('/features/mixed', { json: { value: true } });
    expect(enabled.body).to.deep.equal({
      name: 'mixed',
      state: 'on',
      gates: [
        { key: 'boolean', value: true },
        { key: 'percentage_of_time', value: 40 },
      ],
    });
    const disabled = await set('mixed', { value: 'false' });
    expect(disabled.status).to.equal(201);
    expect(disabled.body).to.deep.equal({ name: 'mixed', state: 'off', gates: [off] });

    await set('targets', { value: 'true', feature_group: 'perf_team', user: user.username });
    await set('targets', { value: 'true', feature_group: 'qa' });
    const noPerf = await set('targets', { value: '0', feature_group: 'perf_team' });
    expect(noPerf.body).to.deep.equal({ name: 'targets', state: 'conditional', gates: [off, { key: 'groups', value: ['qa'] }, { key: 'actors', value: [`User:${user.id}`] }] });
    const noUser = await s.post('/features/targets', { json: { value: false, user: user.username, feature_group: 'qa' } });
    expect(noUser.body).to.deep.equal({ name: 'targets', state: 'off', gates: [off] });
  });

  it('lists every persisted feature in the order first set', async () => {
    const r = await s.get('/features');
    expect(r.status).to.equal(200);
    schema(r.body, 'Feature', true);
    const names = r.body.map((f: { name: string }) => f.name);
    expect(names).to.include.ordered.members(['on_feature', 'group_feature', 'user_feature', 'both_feature', 'percent_feature', 'word_feature', 'mixed', 'targets']);
    expect(r.body.find((f: { name: string }) => f.name === 'on_feature')).to.deep.equal({ name: 'on_feature', state: 'on', gates: [{ key: 'boolean', value: true }] });
    expect(r.headers.get('x-total')).to.equal(null);
  });

  it('removes a feature and its gates (204, also when there was none)', async () => {
    await set('doomed', { value: 'true', feature_group: 'perf_team' });
    const gone = await s.delete('/features/doomed');
    expect(gone.status).to.equal(204);
    expect(gone.text).to.equal('');
    expect(await listed('doomed')).to.equal(undefined);
    expect(await s.db('feature_gates').whereNotIn('feature_id', s.db('features').select('id'))).to.deep.equal([]);
    const again = await s.delete('/features/doomed');
    expect(again.status).to.equal(204);
    const fresh = await set('doomed', { value: 'false' });
    expect(fresh.body).to.deep.equal({ name: 'doomed', state: 'off', gates: [off] });
  });

  it('refuses a missing value, a percentage out of range, an unknown user and a name too long, storing nothing', async () => {
    const before = await s.get('/features');
    const missing = await s.post('/features/refused');
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({ error: 'value is missing' });
    const over = await set('refused', { value: '150' });
    expect(over.status).to.equal(400);
    expect(over.body).to.deep.equal({ message: 'value must be a positive number less than or equal to 100, but was 150' });
    const huge = await set('refused', { value: '99999999999999999999' });
    expect(huge.status).to.equal(400);
    expect(huge.body).to.deep.equal({ message: 'value must be a positive number less than or equal to 100, but was 99999999999999999999' });
    const negative = await set('percent_feature', { value: '-5' });
    expect(negative.status).to.equal(400);
    expect(negative.body).to.deep.equal({ message: 'value must be a positive number less than or equal to 100, but was -5' });
    const nobody = await set('refused', { value: 'true', user: 'no-such-user' });
    expect(nobody.status).to.equal(404);
    expect(nobody.body).to.deep.equal({ message: '404 User Not Found' });
    const long = await set('x'.repeat(256), { value: 'true' });
    expect(long.status).to.equal(400);
    expect(long.body).to.deep.equal({ message: { name: ['is too long (maximum is 255 characters)'] } });
    const longGroup = await set('refused', { value: 'true', feature_group: 'g'.repeat(256) });
    expect(longGroup.status).to.equal(400);
    expect(longGroup.body).to.deep.equal({ message: { feature_group: ['is too long (maximum is 255 characters)'] } });
    const nul = await s.post('/features/refused', { json: { value: 'true', feature_group: 'a\u0000b' } });
    expect(nul.status).to.equal(400);
    expect(nul.body).to.deep.equal({ error: 'feature_group is invalid' });
    expect((await s.get('/features')).body).to.deep.equal(before.body);
  });

  it('ignores the targets of a percentage, as 10.8 does (an unknown user included)', async () => {
    const r = await set('percent_only', { value: '20', user: 'no-such-user', feature_group: 'perf_team' });
    expect(r.status).to.equal(201);
    expect(r.body).to.deep.equal({ name: 'percent_only', state: 'conditional', gates: [off, { key: 'percentage_of_time', value: 20 }] });
  });
});
