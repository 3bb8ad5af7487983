// One byte range of an HTTP `Range` header (RFC 9110), what the LFS client sends to resume a
// download: `bytes=<first>-<last>`, `bytes=<first>-` or `bytes=-<suffix length>`. Several
// ranges, other units or a malformed header are ignored (the whole object is sent), as the RFC
// allows; a range that starts past the end is unsatisfiable (416).

const NUMBER = /^\d{1,16}$/;

export function byteRange(header: string, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header.startsWith('bytes=')) return null;
  const spec = header.slice('bytes='.length).trim();
  const dash = spec.indexOf('-');
  if (dash < 0 || spec.includes(',')) return null;
  const first = spec.slice(0, dash).trim();
  const last = spec.slice(dash + 1).trim();
  if (first === '') {
    if (!NUMBER.test(last)) return null;
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  if (!NUMBER.test(first) || (last !== '' && !NUMBER.test(last))) return null;
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
