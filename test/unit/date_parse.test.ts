// The Date._parse port (src/http/date_parse.ts) and the casts GitLab 10.8 applies with it
// (src/http/date_casts.ts), against facts recorded from Ruby 3.1: for each string, what
// Date._parse(s, false) returns, what Rails 4.2's date column makes of it
// (Date.new(*values_at(:year, :mon, :mday)), nil when unreadable), and what Grape's
// Date.parse / DateTime.parse give (nil where they raise). "Today" is 2026-11-23.
import { expect } from 'chai';
import { rubyDateParse, MAX_DATE_LENGTH } from '../../src/http/date_parse.js';
import { grapeDate, grapeDateTime, railsDate, railsTime } from '../../src/http/date_casts.js';

type Row = [string, Record<string, unknown>, string | null, string | null, string | null];

const NOW = new Date('2026-11-23T12:00:00Z');

const RUBY: Row[] = [
  ['2020-01-01', { year: 2020, mon: 1, mday: 1 }, '2020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['2020-01-01T00:00:00Z', { zone: 'Z', hour: 0, min: 0, sec: 0, year: 2020, mon: 1, mday: 1, offset: 0 }, '2020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['2020-01-01T23:30:00-05:00', { zone: '-05:00', hour: 23, min: 30, sec: 0, year: 2020, mon: 1, mday: 1, offset: -18000 }, '2020-01-01', '2020-01-01', '2020-01-02T04:30:00.000Z'],
  [
    '2020-01-01T10:20:30.123+05:30',
    { zone: '+05:30', hour: 10, min: 20, sec: 30, sec_fraction: 0.123, year: 2020, mon: 1, mday: 1, offset: 19800 },
    '2020-01-01',
    '2020-01-01',
    '2020-01-01T04:50:30.123Z',
  ],
  ['2020/01/01', { year: 2020, mon: 1, mday: 1 }, '2020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['2020/1/2', { year: 2020, mon: 1, mday: 2 }, '2020-01-02', '2020-01-02', '2020-01-02T00:00:00.000Z'],
  ['Jan 1 2020', { year: 2020, mon: 1, mday: 1 }, '2020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['January 1st, 2020', { year: 2020, mon: 1, mday: 1 }, '2020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['1 Jan 2020', { year: 2020, mon: 1, mday: 1 }, '2020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['01-Jan-2020', { year: 2020, mon: 1, mday: 1 }, '2020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['20200101', { year: 2020, mon: 1, mday: 1 }, '2020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['20200101T101010Z', { year: 2020, mon: 1, mday: 1, hour: 10, min: 10, sec: 10, zone: 'Z', offset: 0 }, '2020-01-01', '2020-01-01', '2020-01-01T10:10:10.000Z'],
  ['Wed, 01 Jan 2020 10:00 EST', { wday: 3, zone: 'EST', hour: 10, min: 0, year: 2020, mon: 1, mday: 1, offset: -18000 }, '2020-01-01', '2020-01-01', '2020-01-01T15:00:00.000Z'],
  ['Wednesday, January 1st, 2020 3pm PST', { wday: 3, zone: 'PST', hour: 15, year: 2020, mon: 1, mday: 1, offset: -28800 }, '2020-01-01', '2020-01-01', '2020-01-01T23:00:00.000Z'],
  [
    '2020-06-15 10:00 Pacific Daylight Time',
    { zone: 'Pacific Daylight Time', hour: 10, min: 0, year: 2020, mon: 6, mday: 15, offset: -25200 },
    '2020-06-15',
    '2020-06-15',
    '2020-06-15T17:00:00.000Z',
  ],
  ['2020-06-15 10:00 GMT+2', { zone: 'GMT+2', hour: 10, min: 0, year: 2020, mon: 6, mday: 15, offset: 7200 }, '2020-06-15', '2020-06-15', '2020-06-15T08:00:00.000Z'],
  ['2020-13-01', { year: 2020, mon: 13, mday: 1 }, null, null, null],
  ['2020-02-30', { year: 2020, mon: 2, mday: 30 }, null, null, null],
  ['2021-02-29', { year: 2021, mon: 2, mday: 29 }, null, null, null],
  ['2020-02-29', { year: 2020, mon: 2, mday: 29 }, '2020-02-29', '2020-02-29', '2020-02-29T00:00:00.000Z'],
  ['foo', {}, null, null, null],
  ['tomorrow', {}, null, null, null],
  ['12/31/2020', { year: 2020, mon: 31, mday: 12 }, null, null, null],
  ['31.12.2020', { year: 2020, mon: 12, mday: 31 }, '2020-12-31', '2020-12-31', '2020-12-31T00:00:00.000Z'],
  ["'20-01-01", { year: 20, mon: 1, mday: 1 }, '0020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['20-01-01', { year: 20, mon: 1, mday: 1 }, '0020-01-01', '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['2020-W01-3', { cwyear: 2020, cweek: 1, cwday: 3 }, null, '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['2020-001', { year: 2020, yday: 1 }, null, '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['--12-25', { mon: 12, mday: 25 }, null, '2026-12-25', '2026-12-25T00:00:00.000Z'],
  ['10:30 pm', { hour: 22, min: 30 }, null, null, '2026-11-23T22:30:00.000Z'],
  ['Jan 2020', { year: 2020, mon: 1 }, null, '2020-01-01', '2020-01-01T00:00:00.000Z'],
  ['2020-06', { mon: 20, mday: 20, zone: '-06', offset: -21600 }, null, null, null],
  ['15 June', { mon: 6, mday: 15 }, null, '2026-06-15', '2026-06-15T00:00:00.000Z'],
  ['Mon 2020', { wday: 1, mon: 20, mday: 20 }, null, null, null],
  ['1/2', { mon: 1, mday: 2 }, null, '2026-01-02', '2026-01-02T00:00:00.000Z'],
  ['2020-01-01T24:00:00Z', { zone: 'Z', hour: 24, min: 0, sec: 0, year: 2020, mon: 1, mday: 1, offset: 0 }, '2020-01-01', '2020-01-01', '2020-01-02T00:00:00.000Z'],
  ['1999-12-31 23:59:60', { hour: 23, min: 59, sec: 60, year: 1999, mon: 12, mday: 31 }, '1999-12-31', '1999-12-31', '1999-12-31T23:59:59.000Z'],
];

function rounded(h: Record<string, unknown> | null): Record<string, unknown> | null {
  if (h === null) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(h)) out[k] = typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v;
  return out;
}

describe('Date._parse port', () => {
  for (const [input, hash, rails, date, dateTime] of RUBY) {
    it(`reads ${JSON.stringify(input)} as Ruby does`, () => {
      expect(rounded(rubyDateParse(input, false) as Record<string, unknown>)).to.deep.equal(hash);
      expect(railsDate(input), 'Rails date column').to.equal(rails);
      expect(grapeDate(input, NOW), 'Date.parse').to.equal(date);
      expect(grapeDateTime(input, NOW), 'DateTime.parse').to.equal(dateTime);
    });
  }

  it('completes two-digit years only when asked (Date.parse), not for a Rails cast', () => {
    expect(rubyDateParse('99-12-31', true)).to.deep.equal({ year: 1999, mon: 12, mday: 31 });
    expect(rubyDateParse('68-12-31', true)).to.deep.equal({ year: 2068, mon: 12, mday: 31 });
    expect(rubyDateParse('0099-12-31', true)).to.deep.equal({ year: 99, mon: 12, mday: 31 });
    expect(railsDate('99-12-31')).to.equal('0099-12-31');
  });

  it('reads an empty string as no date and refuses a string past the length bound', () => {
    expect(railsDate('')).to.equal(null);
    expect(rubyDateParse(`2020-01-01${' '.repeat(MAX_DATE_LENGTH)}`, false)).to.equal(null);
    expect(railsDate(`${'9'.repeat(MAX_DATE_LENGTH + 1)}`)).to.equal(null);
  });

  it('stays fast on long hostile strings (linear scans, bounded input)', () => {
    const hostile = ['1'.repeat(MAX_DATE_LENGTH), '1-'.repeat(MAX_DATE_LENGTH / 2), 'jan '.repeat(MAX_DATE_LENGTH / 4), "'-".repeat(MAX_DATE_LENGTH / 2)];
    for (const s of hostile) expect(() => grapeDateTime(s, NOW)).not.to.throw();
  });

  it('refuses dates outside years 1–9999 that the database could not store', () => {
    expect(railsDate('10000-01-01')).to.equal(null);
    expect(railsDate('0000-01-01')).to.equal(null);
    expect(grapeDate('-0001-01-01', NOW)).to.equal(null);
  });

  it("casts a string to a datetime column as Time.zone.parse does (UTC, today's date filled in)", () => {
    expect(railsTime('2020-01-01T10:00:00+02:00', NOW)).to.equal('2020-01-01T08:00:00.000Z');
    expect(railsTime('10:30', NOW)).to.equal('2026-11-23T10:30:00.000Z');
    expect(railsTime('Jan 5 2020', NOW)).to.equal('2020-01-05T00:00:00.000Z');
    expect(railsTime('not a time', NOW)).to.equal(null);
  });
});
