// Environment slugs (services/ci/record_deployment.ts) follow GitLab 10.8's
// Environment#generate_slug: kept when already valid, otherwise cleaned, cut, and suffixed.
import { expect } from 'chai';
import { environmentSlug } from '../../src/services/ci/record_deployment.js';

describe('environment slugs', () => {
  it('keeps a name that is already a valid slug', () => {
    expect(environmentSlug('production')).to.equal('production');
    expect(environmentSlug('review1')).to.equal('review1');
  });

  it('cleans, prefixes, squeezes dashes, cuts, and adds a 6-character random suffix', () => {
    expect(environmentSlug('Review/Feature  X')).to.match(/^review-feature-x-[0-9a-f]{6}$/);
    expect(environmentSlug('1st')).to.match(/^env-1st-[0-9a-f]{6}$/);
    const long = environmentSlug('staging/' + 'a'.repeat(100));
    expect(long).to.match(/^staging-aaaaaaaaa-[0-9a-f]{6}$/);
    expect(long.length).to.equal(24);
    expect(environmentSlug('a---')).to.match(/^a-[0-9a-f]{6}$/);
  });

  it('makes two slugs of the same unclean name differ', () => {
    expect(environmentSlug('Prod')).to.not.equal(environmentSlug('Prod'));
  });
});
