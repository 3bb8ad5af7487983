// What GitLab 10.8's POST /features/:name makes of its `value` text (the API's gate_value):
// 'true' enables, '0' and 'false' disable, anything else is Ruby's String#to_i of it — a
// percentage of time, so "30" is 30, "30%" is 30 and "abc" is 0 (a 0% gate, shown as none).
// Flipper then refuses a percentage outside 0..100 (an ArgumentError, which 10.8 answers with
// a 500); here it is a 400 with Flipper's message, and nothing is stored.
import { Rejected } from '../../store/domain_errors.js';

/** Ruby's String#to_i: leading whitespace, a sign, digits with single underscores between them. */
function rubyToI(text: string): bigint {
  const m = /^[ \t\n\v\f\r]*([+-]?)(\d+(?:_\d+)*)/.exec(text);
  if (!m) return 0n;
  const n = BigInt(m[2].replace(/_/g, ''));
  return m[1] === '-' ? -n : n;
}

export function gateValue(text: string): boolean | number {
  if (text === 'true') return true;
  if (text === '0' || text === 'false') return false;
  const n = rubyToI(text);
  if (n < 0n || n > 100n) throw new Rejected(`value must be a positive number less than or equal to 100, but was ${n}`);
  return Number(n);
}
