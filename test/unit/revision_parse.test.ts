// Revision suffixes (`master~2^{}^2`) parsed in one pass: the same split as the
// regex it replaces, on every short string of the characters that matter, and a 100 KB
// `a~~~…~X` (which held that regex for half a minute) read as one plain name.
import { expect } from 'chai';
import { parseRevision, type RevisionStep } from '../../src/git/revision.js';

/** What the old /^(.+?)((?:~\d*|\^\d*|\^\{\})+)$/ made of a revision. */
function byRegex(rev: string): { base: string; steps: RevisionStep[] } {
  const m = /^(.+?)((?:~\d*|\^\d*|\^\{\})+)$/.exec(rev);
  if (!m) return { base: rev, steps: [] };
  const steps = [...m[2].matchAll(/([~^])(\{\}|\d*)/g)].map(([, op, n]): RevisionStep => (n === '{}' ? { op: 'peel' } : { op: op as '~' | '^', count: n === '' ? 1 : Number(n) }));
  return { base: m[1], steps };
}

function* strings(alphabet: string[], maxLength: number): Generator<string> {
  let level = [''];
  for (let n = 1; n <= maxLength; n++) {
    level = level.flatMap((s) => alphabet.map((c) => s + c));
    yield* level;
  }
}

describe('parseRevision', () => {
  it('splits the suffixes git knows', () => {
    expect(parseRevision('master')).to.deep.equal({ base: 'master', steps: [] });
    expect(parseRevision('master~2')).to.deep.equal({ base: 'master', steps: [{ op: '~', count: 2 }] });
    expect(parseRevision('v1.0^')).to.deep.equal({ base: 'v1.0', steps: [{ op: '^', count: 1 }] });
    expect(parseRevision('HEAD^2~')).to.deep.equal({
      base: 'HEAD',
      steps: [
        { op: '^', count: 2 },
        { op: '~', count: 1 },
      ],
    });
    expect(parseRevision('tag^{}~3')).to.deep.equal({ base: 'tag', steps: [{ op: 'peel' }, { op: '~', count: 3 }] });
    expect(parseRevision('release-2~10')).to.deep.equal({ base: 'release-2', steps: [{ op: '~', count: 10 }] });
    expect(parseRevision('~')).to.deep.equal({ base: '~', steps: [] });
    expect(parseRevision('^{}')).to.deep.equal({ base: '^{}', steps: [] });
  });

  it('makes the same split as the regex it replaces, on every string up to 6 characters', () => {
    let checked = 0;
    for (const rev of strings(['a', '1', '~', '^', '{', '}'], 6)) {
      expect(parseRevision(rev), JSON.stringify(rev)).to.deep.equal(byRegex(rev));
      checked++;
    }
    expect(checked).to.equal(55986);
  });

  it('keeps a count too large to be exact as one that walks past any root', () => {
    expect(parseRevision(`a~${'9'.repeat(30)}`).steps).to.deep.equal([{ op: '~', count: Infinity }]);
  });

  it('reads 100 KB of ~ ending in another character as one name', () => {
    const rev = `a${'~'.repeat(100_000)}X`;
    expect(parseRevision(rev)).to.deep.equal({ base: rev, steps: [] });
    const suffixes = parseRevision(`a${'~'.repeat(100_000)}`);
    expect([suffixes.base, suffixes.steps.length]).to.deep.equal(['a', 100_000]);
  });
});
