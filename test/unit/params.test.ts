// Parameter coercion and GitLab's validation messages.
import { expect } from 'chai';
import { p, parseValues } from '../../src/http/params.js';
import { ApiError } from '../../src/http/errors.js';

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ApiError);
    expect((err as ApiError).status).to.equal(400);
    return (err as ApiError).body;
  }
  throw new Error('expected a 400');
}

describe('params', () => {
  it('coerces booleans from true/false/1/0 and JSON', () => {
    const schema = { a: p.boolean(), b: p.boolean(), c: p.boolean(), d: p.boolean(), e: p.boolean() };
    expect(parseValues({ a: 'true', b: '0', c: true, d: 1, e: 'FALSE' }, schema)).to.deep.equal({ a: true, b: false, c: true, d: true, e: false });
    expect(errorOf(() => parseValues({ a: 'maybe' }, schema))).to.deep.equal({ error: 'a is invalid' });
  });

  it('coerces integers and refuses the rest', () => {
    expect(parseValues({ n: '42' }, { n: p.integer() })).to.deep.equal({ n: 42 });
    expect(parseValues({ n: -3 }, { n: p.integer() })).to.deep.equal({ n: -3 });
    for (const bad of ['4.2', 'x', '1e3', {}]) {
      expect(errorOf(() => parseValues({ n: bad }, { n: p.integer() }))).to.deep.equal({ error: 'n is invalid' });
    }
  });

  it('reports missing required parameters in declaration order, joined', () => {
    const schema = { id: p.integer().required(), title: p.string().required(), x: p.string() };
    expect(errorOf(() => parseValues({}, schema))).to.deep.equal({ error: 'id is missing, title is missing' });
  });

  it('checks allowed values, blanks, defaults', () => {
    const schema = { state: p.string().values(['opened', 'closed']), title: p.string().notBlank(), sort: p.string().default('desc') };
    expect(parseValues({ state: 'opened', title: 't' }, schema)).to.deep.equal({ state: 'opened', title: 't', sort: 'desc' });
    expect(errorOf(() => parseValues({ state: 'open', title: ' ' }, schema))).to.deep.equal({
      error: 'state does not have a valid value, title is empty',
    });
    expect(errorOf(() => parseValues({ title: null }, schema))).to.deep.equal({ error: 'title is empty' });
  });

  it('takes bracket arrays, single values and comma lists', () => {
    expect(parseValues({ ids: ['1', '2'] }, { ids: p.array(p.integer()) })).to.deep.equal({ ids: [1, 2] });
    expect(parseValues({ ids: '7' }, { ids: p.array(p.integer()) })).to.deep.equal({ ids: [7] });
    expect(parseValues({ ids: '1,2,3' }, { ids: p.integerList() })).to.deep.equal({ ids: [1, 2, 3] });
    expect(errorOf(() => parseValues({ ids: ['1', 'x'] }, { ids: p.array(p.integer()) }))).to.deep.equal({ error: 'ids is invalid' });
  });

  it('validates dates and normalises datetimes to UTC', () => {
    expect(parseValues({ d: '2018-02-28' }, { d: p.date() })).to.deep.equal({ d: '2018-02-28' });
    expect(errorOf(() => parseValues({ d: '2018-02-30' }, { d: p.date() }))).to.deep.equal({ error: 'd is invalid' });
    expect(parseValues({ t: '2018-03-12T12:00:00+02:00' }, { t: p.datetime() })).to.deep.equal({ t: '2018-03-12T10:00:00.000Z' });
    expect(errorOf(() => parseValues({ t: 'yesterday' }, { t: p.datetime() }))).to.deep.equal({ error: 't is invalid' });
  });

  it('applies at_least_one_of and mutually_exclusive rules', () => {
    const schema = { a: p.string(), b: p.string() };
    expect(errorOf(() => parseValues({}, schema, { atLeastOneOf: ['a', 'b'] }))).to.deep.equal({
      error: 'a, b are missing, at least one parameter must be provided',
    });
    expect(errorOf(() => parseValues({ a: '1', b: '2' }, schema, { mutuallyExclusive: [['a', 'b']] }))).to.deep.equal({
      error: 'a, b are mutually exclusive',
    });
  });

  it('applies all_or_none_of, and rules declared between parameters in declaration order', () => {
    const schema = { a: p.string(), b: p.string(), n: p.integer().required(), m: p.integer() };
    expect(parseValues({ a: 'x', b: 'y', n: '1' }, schema, { allOrNoneOf: ['a', 'b'] })).to.deep.equal({ a: 'x', b: 'y', n: 1, m: undefined });
    expect(parseValues({ n: '1' }, schema, { allOrNoneOf: ['a', 'b'] })).to.include({ n: 1 });
    expect(errorOf(() => parseValues({ b: 'y', n: '1' }, schema, { allOrNoneOf: ['a', 'b'] }))).to.deep.equal({
      error: 'a, b provide all or none of parameters',
    });
    // A rule checked right after `b`: its message comes before n's and m's, the trailing rule's last.
    const rules = { after: { b: { atLeastOneOf: ['a', 'b'] } }, allOrNoneOf: ['m', 'a'] };
    expect(errorOf(() => parseValues({ m: 'x' }, schema, rules))).to.deep.equal({
      error: 'a, b are missing, at least one parameter must be provided, n is missing, m is invalid, m, a provide all or none of parameters',
    });
    // An invalid parameter does not skip the rule declared after it.
    expect(errorOf(() => parseValues({ b: {}, n: '1' }, { b: p.string(), n: p.integer() }, { after: { b: { allOrNoneOf: ['b', 'n', 'z'] } } }))).to.deep.equal({
      error: 'b is invalid, b, n, z provide all or none of parameters',
    });
  });

  it('reads hashes of strings', () => {
    expect(parseValues({ h: { k: 'v', n: 1 } }, { h: p.hash() })).to.deep.equal({ h: { k: 'v', n: '1' } });
    expect(errorOf(() => parseValues({ h: 'flat' }, { h: p.hash() }))).to.deep.equal({ error: 'h is invalid' });
  });

  it("refuses a null for a required or not-blank parameter as Grape's allow_blank does; a default replaces it; an optional null is not given, unless nullable", () => {
    const schema = {
      title: p.string().required(),
      count: p.integer().required(),
      name: p.string().notBlank(),
      sort: p.string().default('desc'),
      due: p.date(),
      on: p.boolean(),
      cleared: p.string().nullable(),
    };
    expect(errorOf(() => parseValues({ title: null, count: null, name: null, due: null }, schema))).to.deep.equal({
      error: 'title is empty, count is empty, name is empty',
    });
    expect(parseValues({ title: 't', count: 1, sort: null, due: null, on: null, cleared: null }, schema)).to.deep.equal({
      title: 't',
      count: 1,
      name: undefined,
      sort: 'desc',
      due: undefined,
      on: undefined,
      cleared: null,
    });
  });

  it('does not count an optional null in the rules between parameters; a nullable one counts', () => {
    const schema = { a: p.boolean(), b: p.string().nullable(), c: p.integer() };
    const rules = { atLeastOneOf: ['a', 'c'], mutuallyExclusive: [['a', 'c']] };
    expect(errorOf(() => parseValues({ a: null }, schema, rules))).to.deep.equal({ error: 'a, c are missing, at least one parameter must be provided' });
    expect(parseValues({ a: null, c: 1 }, schema, rules)).to.deep.equal({ a: undefined, b: undefined, c: 1 });
    expect(parseValues({ b: null }, schema, { atLeastOneOf: ['b'] })).to.deep.equal({ a: undefined, b: null, c: undefined });
  });

  it("requires a `given` flag's companions only when the flag is sent true (Grape's given ... requires)", () => {
    const schema = { on: p.boolean(), url: p.string(), n: p.integer() };
    const rules = { after: { url: { given: { on: ['url'] } } } };
    expect(errorOf(() => parseValues({ on: 'true', n: 'x' }, schema, rules))).to.deep.equal({ error: 'url is missing, n is invalid' });
    expect(errorOf(() => parseValues({ on: true }, schema, rules))).to.deep.equal({ error: 'url is missing' });
    expect(parseValues({ on: false }, schema, rules)).to.include({ on: false });
    expect(parseValues({}, schema, rules)).to.deep.equal({ on: undefined, url: undefined, n: undefined });
    expect(parseValues({ on: '1', url: 'http://x' }, schema, rules)).to.include({ on: true, url: 'http://x' });
    // An invalid flag is not true: only its own error.
    expect(errorOf(() => parseValues({ on: 'perhaps' }, schema, rules))).to.deep.equal({ error: 'on is invalid' });
  });

  it('reads decimals from numbers and their text', () => {
    expect(parseValues({ f: '0.25' }, { f: p.float() })).to.deep.equal({ f: 0.25 });
    expect(parseValues({ f: 3 }, { f: p.float() })).to.deep.equal({ f: 3 });
    for (const bad of ['', ' ', 'fast', 'Infinity', {}]) {
      expect(
        errorOf(() => parseValues({ f: bad }, { f: p.float() })),
        String(bad),
      ).to.deep.equal({ error: 'f is invalid' });
    }
  });
});
