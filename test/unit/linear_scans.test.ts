// Scans that replaced super-linear regexes read what the regexes read: the
// identity split of a commit line and protected-branch wildcards on every short string of
// the characters that matter, and the Markdown masks of mention extraction, also on inputs
// of unclosed openers.
import { expect } from 'chai';
import { splitIdentity } from '../../src/git/identity.js';
import { maskInline } from '../../src/finders/markdown_masks.js';
import { extractMentions } from '../../src/finders/mentions.js';
import { ruleMatches } from '../../src/policy/branches.js';

function* strings(alphabet: string[], maxLength: number): Generator<string> {
  let level = [''];
  for (let n = 1; n <= maxLength; n++) {
    level = level.flatMap((s) => alphabet.map((c) => s + c));
    yield* level;
  }
}

describe('splitIdentity', () => {
  it('splits a commit line as isomorphic-git does', () => {
    expect(splitIdentity('A U Thor <a@example.com> 1700000000 +0100')).to.deep.equal(['A U Thor', 'a@example.com', '1700000000', '+0100']);
    expect(splitIdentity('no email 1 +0000')).to.equal(null);
  });

  it('agrees with /^(.*) <(.*)> (.*) (.*)$/ on every string up to 7 characters', () => {
    let checked = 0;
    for (const line of strings(['a', ' ', '<', '>', '\n'], 7)) {
      const m = /^(.*) <(.*)> (.*) (.*)$/.exec(line);
      expect(splitIdentity(line), JSON.stringify(line)).to.deep.equal(m ? m.slice(1) : null);
      checked++;
    }
    expect(checked).to.equal(97655);
  });
});

describe('maskInline', () => {
  it('blanks code spans, comments, elements, links, autolinks and URLs, keeping positions', () => {
    const line = 'a `@x` b <!-- @c --> <A href=x>@d</a> [@e](u) <http://@f> http://g/@h ```x`` @i';
    const masked = maskInline(line);
    expect(masked.length).to.equal(line.length);
    expect(masked.replace(/ +/g, ' ')).to.equal('a b ```x`` @i');
  });

  it('matches a backtick run only with a run of the same length', () => {
    expect(maskInline('``a`b`` @x')).to.equal('        @x');
    expect(maskInline('`a`` @x')).to.equal('`a`` @x');
  });

  it('reads long lines of unclosed openers to their end', () => {
    // (A line that starts with three backticks opens a fence: the run starts after an x.)
    for (const opener of ['<!--', '<a ', '<code>', '<a:', '[](x', 'x`', '[[']) {
      const line = `${opener === 'x`' ? `x${'`'.repeat(20_000)}` : opener.repeat(20_000)} @tail`;
      expect(maskInline(line), opener).to.equal(line);
      expect(extractMentions(line).names, opener).to.deep.equal(['tail']);
    }
  });
});

describe('ruleMatches (protected-branch wildcards)', () => {
  /** The regex it replaces: each `*` a lazy `.*?`, the rest literal, anchored. */
  const byRegex = (rule: string, branch: string) =>
    new RegExp(
      `^${rule
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*?')}$`,
    ).test(branch);

  it('agrees with the wildcard regex on every rule up to 6 and name up to 5 characters', () => {
    const names = [...strings(['a', 'b'], 5)];
    let checked = 0;
    for (const rule of strings(['a', 'b', '*'], 6)) {
      if (!rule.includes('*')) continue;
      for (const name of names) {
        expect(ruleMatches(rule, name), `${rule} ~ ${name}`).to.equal(byRegex(rule, name));
        checked++;
      }
    }
    expect(checked).to.equal(62 * (1092 - 126));
  });

  it('answers a rule of 30 stars against a 60-character name (minutes for the regex)', () => {
    expect(ruleMatches(`${'a*'.repeat(30)}b`, 'a'.repeat(60))).to.equal(false);
    expect(ruleMatches(`${'a*'.repeat(30)}b`, `${'a'.repeat(60)}b`)).to.equal(true);
  });
});
