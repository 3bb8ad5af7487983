// The composite status of a set of jobs, rule by rule as GitLab 10.8 orders them.
import { expect } from 'chai';
import { compositeStatus, type CiStatus, type StatusFacts } from '../../src/store/ci_statuses.js';
import { boundedRegexTest } from '../../src/services/ci/ref_policy.js';

const jobs = (...list: (CiStatus | [CiStatus, boolean])[]): StatusFacts[] =>
  list.map((x) => (Array.isArray(x) ? { status: x[0], allow_failure: x[1] } : { status: x, allow_failure: false }));

describe('CI composite status', () => {
  it('follows GitLab 10.8 rules, first match wins', () => {
    const cases: [StatusFacts[], CiStatus][] = [
      [jobs(), 'skipped'],
      [jobs('skipped', ['failed', true]), 'success'],
      [jobs('skipped', 'skipped'), 'skipped'],
      [jobs('success', 'success'), 'success'],
      [jobs('created', 'created'), 'created'],
      [jobs('success', 'skipped'), 'success'],
      [jobs('success', 'skipped', 'canceled'), 'canceled'],
      [jobs('created', 'skipped', 'pending'), 'pending'],
      [jobs('success', 'running'), 'running'],
      [jobs('success', 'pending'), 'running'],
      [jobs('success', 'manual'), 'manual'],
      [jobs('success', ['manual', true]), 'success'],
      [jobs('success', 'created'), 'running'],
      [jobs('success', 'failed'), 'failed'],
      [jobs('success', ['failed', true]), 'success'],
      [jobs('failed', 'canceled'), 'failed'],
    ];
    for (const [set, status] of cases) expect(compositeStatus(set), JSON.stringify(set)).to.equal(status);
  });
});

describe('CI only/except regexes', () => {
  it('match as JavaScript regexes, and a regex that backtracks without end is stopped and does not match', () => {
    expect(boundedRegexTest('^release-\\d+$', 'release-12')).to.equal(true);
    expect(boundedRegexTest('^release-\\d+$', 'main')).to.equal(false);
    expect(boundedRegexTest('(', 'x')).to.equal(false); // invalid
    // Unbounded, this one runs for hours: the test's own timeout would fail it.
    expect(boundedRegexTest('^(a+)+$', `${'a'.repeat(40)}b`)).to.equal(false);
  });
});
