// Broadcast messages (GitLab 10.8 lib/api/broadcast_messages.rb and its request spec): admins
// only on every route, the defaults of a new message (now to an hour later, GitLab's colours),
// `active` from the two times, the model's validations with nothing stored on a refusal, the
// list newest first and paginated, `404 Not found`, and a conditional delete.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { openApiSchemas, type SchemaCheck } from '../helpers/openapi_schemas.js';

const KEYS = ['id', 'message', 'starts_at', 'ends_at', 'color', 'font', 'active'];
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HOUR = 3_600_000;

describe('broadcast messages', function () {
  this.timeout(60_000);
  let s: TestServer;
  let schema: SchemaCheck;
  let userToken: string;
  const count = async () => Number((await s.db('broadcast_messages').count({ n: '*' }))[0].n);

  before(async () => {
    s = await bootServer();
    schema = await openApiSchemas(s);
    userToken = (await s.createUser('bm-user')).token;
  });
  after(async () => s?.close());

  it('answers 401 to the signed-out and 403 to non-admins on every route', async () => {
    const made = await s.post('/broadcast_messages', { form: { message: 'Guarded' } });
    const one = `/broadcast_messages/${made.body.id}`;
    const calls: [string, string][] = [
      ['GET', '/broadcast_messages'],
      ['POST', '/broadcast_messages'],
      ['GET', one],
      ['PUT', one],
      ['DELETE', one],
    ];
    for (const [method, path] of calls) {
      const form = method === 'GET' ? undefined : { message: 'x' };
      const anonymous = await s.request(method, path, { token: null, form });
      expect(anonymous.status, `${method} ${path}`).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const denied = await s.request(method, path, { token: userToken, form });
      expect(denied.status, `${method} ${path}`).to.equal(403);
      expect(denied.body).to.deep.equal({ message: '403 Forbidden' });
    }
    expect((await s.get(one)).body.message).to.equal('Guarded');
  });

  it('creates a message starting now, ending an hour later, in GitLab colours', async () => {
    const before = Date.now();
    const r = await s.post('/broadcast_messages', { form: { message: 'Deploy in progress' } });
    const after = Date.now();
    expect(r.status).to.equal(201);
    expect(Object.keys(r.body)).to.deep.equal(KEYS);
    schema(r.body, 'BroadcastMessage');
    expect(r.body).to.deep.include({ message: 'Deploy in progress', color: '#E75E40', font: '#FFFFFF', active: true });
    expect(r.body.starts_at).to.match(ISO_MS);
    expect(r.body.ends_at).to.match(ISO_MS);
    const starts = Date.parse(r.body.starts_at);
    expect(starts).to.be.within(before - 1000, after + 1000);
    expect(Date.parse(r.body.ends_at) - starts).to.equal(HOUR);
    expect((await s.get(`/broadcast_messages/${r.body.id}`)).body).to.deep.equal(r.body);
  });

  it('takes given times (any zone, shown in UTC with milliseconds) and colours; active only between the times', async () => {
    const past = await s.post('/broadcast_messages', {
      json: { message: 'Past', starts_at: '2016-07-02 10:11:12', ends_at: '2016-07-02T15:11:12+02:00', color: '#000000', font: '#cecece' },
    });
    expect(past.status).to.equal(201);
    expect(past.body).to.deep.include({ starts_at: '2016-07-02T10:11:12.000Z', ends_at: '2016-07-02T13:11:12.000Z', color: '#000000', font: '#cecece', active: false });
    const future = await s.post('/broadcast_messages', { form: { message: 'Later', starts_at: '2999-01-01T00:00:00Z', ends_at: '2999-01-02T00:00:00Z', color: '#abc' } });
    expect(future.status).to.equal(201);
    expect(future.body).to.deep.include({ color: '#abc', active: false });
    const now = await s.post('/broadcast_messages', { form: { message: 'Now', starts_at: '2000-01-01T00:00:00Z', ends_at: '2999-01-01T00:00:00Z', font: '' } });
    expect(now.body).to.deep.include({ font: '', active: true });
  });

  it("refuses a missing, blank or badly coloured message with GitLab's answers, storing nothing", async () => {
    const before = await count();
    const missing = await s.post('/broadcast_messages', { form: { color: '#000' } });
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({ error: 'message is missing' });
    const nullMessage = await s.post('/broadcast_messages', { json: { message: null } });
    expect(nullMessage.status).to.equal(400);
    expect(nullMessage.body).to.deep.equal({ error: 'message is empty' });
    const blank = await s.post('/broadcast_messages', { form: { message: '  ', color: 'red', font: '#12345' } });
    expect(blank.status).to.equal(400);
    expect(blank.body).to.deep.equal({ message: { message: ["can't be blank"], color: ['must be a valid color code'], font: ['must be a valid color code'] } });
    const badTime = await s.post('/broadcast_messages', { form: { message: 'x', starts_at: 'not a time', ends_at: '' } });
    expect(badTime.status).to.equal(400);
    expect(badTime.body).to.deep.equal({ error: 'starts_at is invalid, ends_at is invalid' });
    const nul = await s.post('/broadcast_messages', { json: { message: 'a\u0000b' } });
    expect(nul.status).to.equal(400);
    expect(nul.body).to.deep.equal({ error: 'message is invalid' });
    expect(await count()).to.equal(before);
  });

  it('lists every message newest first, paginated', async () => {
    const total = await count();
    const r = await s.get('/broadcast_messages', { query: { per_page: 2 } });
    expect(r.status).to.equal(200);
    schema(r.body, 'BroadcastMessage', true);
    expect(r.headers.get('x-total')).to.equal(String(total));
    expect(r.headers.get('x-per-page')).to.equal('2');
    expect(r.body).to.have.length(2);
    expect(r.body[0].id).to.be.greaterThan(r.body[1].id);
    const all = await s.get('/broadcast_messages', { query: { per_page: 100 } });
    const ids = all.body.map((m: { id: number }) => m.id);
    expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));
    expect(ids.slice(0, 2)).to.deep.equal(r.body.map((m: { id: number }) => m.id));
    for (const m of all.body) expect(Object.keys(m)).to.deep.equal(KEYS);
  });

  it('answers 404 Not found for a missing message and 400 for an id that is not one', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const missing = await s.request(method, '/broadcast_messages/999999', { form: method === 'GET' ? undefined : { message: 'x' } });
      expect(missing.status, method).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Not found' });
      const invalid = await s.request(method, '/broadcast_messages/abc');
      expect(invalid.status, method).to.equal(400);
      expect(invalid.body).to.deep.equal({ error: 'id is invalid' });
    }
  });

  it('updates the given attributes only, validating the whole message', async () => {
    const made = (await s.post('/broadcast_messages', { form: { message: 'Original', starts_at: '2016-07-02T10:11:12Z' } })).body;
    const path = `/broadcast_messages/${made.id}`;
    const colours = await s.put(path, { form: { color: '#000000', font: '#cecece' } });
    expect(colours.status).to.equal(200);
    schema(colours.body, 'BroadcastMessage');
    expect(colours.body).to.deep.equal({ ...made, color: '#000000', font: '#cecece' });
    const times = await s.put(path, { json: { starts_at: '2016-07-02T10:11:12Z', ends_at: '2016-07-02T13:11:12.5Z' } });
    expect(times.body).to.deep.include({ starts_at: '2016-07-02T10:11:12.000Z', ends_at: '2016-07-02T13:11:12.500Z', active: false });
    const text = await s.put(path, { form: { message: 'new message' } });
    expect(text.body.message).to.equal('new message');
    const nothing = await s.put(path, {});
    expect(nothing.status).to.equal(200);
    expect(nothing.body).to.deep.equal(text.body);
    const cleared = await s.put(path, { json: { color: null } });
    expect(cleared.status).to.equal(200);
    expect(cleared.body.color).to.equal(null);

    const refused = await s.put(path, { form: { message: '', font: 'white' } });
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.equal({ message: { message: ["can't be blank"], font: ['must be a valid color code'] } });
    const noTimes = await s.put(path, { json: { starts_at: null, ends_at: null } });
    expect(noTimes.status).to.equal(400);
    expect(noTimes.body).to.deep.equal({ message: { starts_at: ["can't be blank"], ends_at: ["can't be blank"] } });
    const badTime = await s.put(path, { form: { ends_at: 'soon' } });
    expect(badTime.status).to.equal(400);
    expect(badTime.body).to.deep.equal({ error: 'ends_at is invalid' });
    expect((await s.get(path)).body).to.deep.equal(cleared.body);
  });

  it('deletes a message (204), refusing an older If-Unmodified-Since with 412', async () => {
    const made = (await s.post('/broadcast_messages', { form: { message: 'Short-lived' } })).body;
    const path = `/broadcast_messages/${made.id}`;
    const stale = await s.delete(path, { headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
    expect(stale.status).to.equal(412);
    expect(stale.body).to.deep.equal({ message: '412 Precondition Failed' });
    expect((await s.get(path)).status).to.equal(200);
    const before = await count();
    const gone = await s.delete(path);
    expect(gone.status).to.equal(204);
    expect(gone.text).to.equal('');
    expect(await count()).to.equal(before - 1);
    expect((await s.get(path)).status).to.equal(404);
  });
});
