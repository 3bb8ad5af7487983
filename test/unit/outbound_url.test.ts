// services/security/outbound_url.ts: which literal addresses a webhook may reach without
// `allow_local_requests_from_hooks_and_services`, whatever their spelling, and the lookup
// that refuses a name resolving to a local address; and every address of this host's own
// interfaces, as 10.8's UrlBlocker refuses Socket.ip_address_list.
import { expect } from 'chai';
import os from 'node:os';
import { assertAllowedUrl, assertPublicAddress, BlockedAddress, guardedLookup, isPublicAddress } from '../../src/services/security/outbound_url.js';

describe('outbound_url', () => {
  const blocked = [
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::abcd',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    'not-an-address',
    '',
  ];
  const open = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.0.2.10', '2001:4860:4860::8888', '::ffff:8.8.8.8', '2a00:1450::1'];

  for (const address of blocked) {
    it(`refuses ${address || '(empty)'}`, () => {
      expect(isPublicAddress(address)).to.equal(false);
      expect(() => assertPublicAddress(address)).to.throw(BlockedAddress);
    });
  }
  for (const address of open) {
    it(`allows ${address}`, () => {
      expect(isPublicAddress(address)).to.equal(true);
      expect(() => assertPublicAddress(address)).to.not.throw();
    });
  }

  it("refuses every address of this host's own interfaces, and their IPv4-mapped form", () => {
    const own = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
    expect(own.length).to.be.greaterThan(0);
    for (const a of own) {
      expect(isPublicAddress(a.address), a.address).to.equal(false);
      if (a.family === 'IPv4') expect(isPublicAddress(`::ffff:${a.address}`), a.address).to.equal(false);
    }
  });

  it('refuses other schemes and literal local hosts in URLs, unless local requests are allowed', () => {
    expect(() => assertAllowedUrl(new URL('ftp://example.com/'), true)).to.throw(BlockedAddress);
    expect(() => assertAllowedUrl(new URL('http://[::ffff:127.0.0.1]:80/'), false)).to.throw(BlockedAddress);
    expect(() => assertAllowedUrl(new URL('http://127.0.0.1/'), true)).to.not.throw();
    expect(() => assertAllowedUrl(new URL('https://example.com/'), false)).to.not.throw();
  });

  it('refuses a name that resolves to a local address, and lets it through when allowed', async () => {
    const resolve = (allow: boolean) =>
      new Promise<{ err: Error | null; address: string }>((done) => guardedLookup(allow)('localhost', { family: 4 }, (err, address) => done({ err, address: address as string })));
    const refused = await resolve(false);
    expect(refused.err).to.be.instanceOf(BlockedAddress);
    const allowed = await resolve(true);
    expect(allowed.err).to.equal(null);
    expect(allowed.address).to.equal('127.0.0.1');
  });
});
