// `@name` extraction as GitLab's reference extractor does it: code and links are not
// mentions, names end where GitLab's path rule ends them, leading mentions of a paragraph
// are "directly addressed", and a title never addresses anyone directly.
import { expect } from 'chai';
import { extractMentions, extractTitleMentions } from '../../src/finders/mentions.js';
import { commitTitle } from '../../src/services/push/push_events.js';

describe('mentions', () => {
  it('finds usernames and group paths, lower-cased, once each', () => {
    const m = extractMentions('Hello @Alice and @bob, also @group/sub and @alice again.');
    expect(m.names).to.deep.equal(['alice', 'bob', 'group/sub']);
    expect(m.direct).to.deep.equal([]);
  });

  it('ignores code spans, fenced and indented code, links, e-mail addresses and URLs', () => {
    const text = [
      'See `@incode` and ``@double`` here, mail me at pat@example.com or https://x.test/@url.',
      '',
      '```',
      '@fenced',
      '```',
      '',
      '    @indented',
      '',
      '[@linked](http://example.com) <!-- @comment --> ok @real',
    ].join('\n');
    expect(extractMentions(text).names).to.deep.equal(['real']);
  });

  it('ends a name before a trailing dot, and not at dashes or dots inside it', () => {
    expect(extractMentions('thanks @bob. and @mary-jane.doe!').names).to.deep.equal(['bob', 'mary-jane.doe']);
  });

  it('takes the leading mentions of each paragraph as directly addressed', () => {
    const m = extractMentions('@alice @bob please look\n\nthen @carol\n\n@dave: you too\n\n> @erin quoted');
    expect(m.direct).to.deep.equal(['alice', 'bob', 'dave']);
    expect(m.names).to.deep.equal(['alice', 'bob', 'carol', 'dave', 'erin']);
  });

  it('stops at the first text that is not blank: "@a, @b" addresses only a', () => {
    expect(extractMentions('@a, @b hi').direct).to.deep.equal(['a']);
    expect(extractMentions('@a\n@b hi').direct).to.deep.equal(['a', 'b']);
    expect(extractMentions('- @listed item').direct).to.deep.equal([]);
  });

  it('never addresses anyone directly from a title', () => {
    const m = extractTitleMentions('@alice fix `@code` for @bob');
    expect(m.names).to.deep.equal(['alice', 'bob']);
    expect(m.direct).to.deep.equal([]);
  });
});

describe('push commit titles', () => {
  it('keeps the first line, stripped, and cuts past 70 characters to 67 and "..."', () => {
    expect(commitTitle('  Fix it  \n\nbody')).to.equal('Fix it');
    expect(commitTitle('x'.repeat(70))).to.equal('x'.repeat(70));
    expect(commitTitle(`${'y'.repeat(71)}\nrest`)).to.equal(`${'y'.repeat(67)}...`);
    expect(commitTitle(null)).to.equal(null);
  });
});
