// Version ordering for tag names (GitLab sorts tags by name with the VersionSorter gem):
// digit runs compare as numbers, other runs as bytes, so v1.10 sorts after v1.9.
function chunks(s: string): (string | number)[] {
  return (s.match(/\d+|\D+/g) ?? []).map((c) => (/^\d/.test(c) ? Number(c) : c));
}

export function compareVersions(a: string, b: string): number {
  const x = chunks(a);
  const y = chunks(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const u = x[i];
    const v = y[i];
    if (u === v) continue;
    if (typeof u === 'number' && typeof v === 'number') return u - v;
    // A number sorts before text at the same place (1.0 before 1.0a handled by length below).
    if (typeof u === 'number') return -1;
    if (typeof v === 'number') return 1;
    return u < v ? -1 : 1;
  }
  return x.length - y.length || (a < b ? -1 : a > b ? 1 : 0);
}
