// GitLab's duration strings (Gitlab::TimeTrackingFormatter.parse over ChronicDuration with
// 8-hour days and 5-day weeks) and their human rendering.
import { expect } from 'chai';
import { parseDuration } from '../../src/services/issuables/time_tracking.js';
import { humanTime } from '../../src/store/durations.js';

const H = 3600;

describe('Durations', () => {
  it('parses units and their combinations', () => {
    const cases: [string, number][] = [
      ['3h30m', 3 * H + 1800],
      ['1h30m', 5400],
      ['90m', 5400],
      ['1w 2d 3h 30m', 5 * 8 * H + 2 * 8 * H + 3 * H + 1800],
      ['1w', 5 * 8 * H],
      ['3w1h', 15 * 8 * H + H],
      ['1d', 8 * H],
      ['1mo', 30 * 8 * H],
      ['1y', 31557600],
      ['30s', 30],
      ['2 hours 15 minutes', 2 * H + 900],
      ['1 hour and 30 mins', 5400],
      ['1H30M', 5400],
      ['1.5h', 5400],
    ];
    for (const [text, seconds] of cases) expect(parseDuration(text), text).to.equal(seconds);
  });

  it('takes hours when no unit is given, and one of a leading bare unit', () => {
    expect(parseDuration('2')).to.equal(2 * H);
    expect(parseDuration('1.5')).to.equal(5400);
    expect(parseDuration('h')).to.equal(H);
    expect(parseDuration('1 2')).to.equal(2 * H); // a number followed by a number counts nothing
  });

  it('reads clock notation from the seconds up', () => {
    expect(parseDuration('1:30')).to.equal(90);
    expect(parseDuration('1:00:00')).to.equal(H);
  });

  it('negates a leading minus', () => {
    expect(parseDuration('-2h')).to.equal(-2 * H);
    expect(parseDuration('-1w 1d')).to.equal(-6 * 8 * H);
  });

  it('drops fractions of a second as the integer column does', () => {
    expect(parseDuration('1.5s')).to.equal(1);
  });

  it('refuses what parses to nothing or zero', () => {
    for (const text of ['foo', '', '   ', '0', '0h', '-', 'hours of fun'.replace('hours', 'xx'), '99999999999w']) {
      expect(parseDuration(text), JSON.stringify(text)).to.equal(null);
    }
  });

  it('renders human time with 8-hour days, 5-day weeks and 4-week months', () => {
    expect(humanTime(0)).to.equal(null);
    expect(humanTime(12600)).to.equal('3h 30m');
    expect(humanTime(5 * 8 * H + 2 * 8 * H + 3 * H + 1800)).to.equal('1w 2d 3h 30m');
    expect(humanTime(15 * 8 * H + H)).to.equal('3w 1h');
    expect(humanTime(4 * 5 * 8 * H)).to.equal('1mo');
    expect(humanTime(90)).to.equal('1m 30s');
  });
});
