// "Nothing a client sends is silently dropped": posts the documented parameters
// of a create or update endpoint, then reads the object back and checks that every parameter
// shows in the answer and in what a later GET returns. A parameter shown under another name
// or form gives its expectation in `shows`; one that no entity shows (a password, a file)
// names the check that proves it was kept in `checkedBy`, so none is left out unseen.
import { expect } from 'chai';
import type { Reply, TestServer } from './server.js';

export interface RoundTrip {
  /** What the test calls it (the assertion messages name it). */
  name: string;
  method: 'POST' | 'PUT';
  path: string;
  token?: string;
  status?: number;
  /** The parameters, as a client sends them (JSON). */
  params: Record<string, unknown>;
  /** Where to read the object back: a path, from the write's answer. */
  readBack: (written: any) => string;
  /** Picks the object out of what the read-back path answers (a list, or a larger object). */
  pick?: (body: any, written: any) => any;
  /** Expectations for parameters that show differently: key → [field, value] pairs of the answer. */
  shows?: Record<string, Record<string, unknown>>;
  /** Parameters checked some other way, with that check (run after the write). */
  checkedBy?: Record<string, (written: any) => Promise<unknown>>;
}

function expectShown(name: string, where: string, body: Record<string, unknown>, key: string, value: unknown, shows: RoundTrip['shows']): void {
  const expected = shows?.[key] ?? { [key]: value };
  for (const [field, want] of Object.entries(expected)) {
    const got = field.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), body);
    expect(got, `${name}: ${key} in the ${where} (as ${field})`).to.deep.equal(want);
  }
}

/** Runs one round trip; returns the write's answer. */
export async function roundTrip(s: TestServer, t: RoundTrip): Promise<any> {
  const r: Reply = await s.request(t.method, t.path, { token: t.token, json: t.params });
  expect(r.status, `${t.name}: ${r.text}`).to.equal(t.status ?? (t.method === 'POST' ? 201 : 200));
  const back: Reply = await s.get(t.readBack(r.body), { token: t.token });
  expect(back.status, `${t.name} read back: ${back.text}`).to.equal(200);
  const object = t.pick ? t.pick(back.body, r.body) : back.body;
  expect(object, `${t.name}: not found when read back`).to.not.equal(undefined);
  for (const [key, value] of Object.entries(t.params)) {
    const check = t.checkedBy?.[key];
    if (check) {
      await check(r.body);
      continue;
    }
    expectShown(t.name, 'answer', r.body, key, value, t.shows);
    expectShown(t.name, 'object read back', object, key, value, t.shows);
  }
  return r.body;
}
