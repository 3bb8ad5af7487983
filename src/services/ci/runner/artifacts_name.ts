// The artifacts archive's name (GitLab's `artifacts: name`, `artifacts` by default), as GitLab
// Runner expands it (`$VAR`, `${VAR}`) and uploads `<name>.zip`: it becomes artifacts_file's
// filename and the download's file name. Only the job's predefined and .gitlab-ci.yml variables
// are expanded (a secret variable's value never reaches an API answer), and the result is made
// a plain file name: no folder separators or control characters, at most 200 characters.
// (On disk every archive is stored under its job id: storage.ts.)

function expand(text: string, vars: Record<string, string>): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '$') {
      out += text[i++];
      continue;
    }
    const braced = text[i + 1] === '{';
    let j = braced ? i + 2 : i + 1;
    const start = j;
    while (j < text.length && /[A-Za-z0-9_]/.test(text[j])) j++;
    const key = text.slice(start, j);
    if (!key || (braced && text[j] !== '}')) {
      out += text[i++];
      continue;
    }
    out += vars[key] ?? '';
    i = braced ? j + 1 : j;
  }
  return out;
}

export function artifactsFilename(name: string | undefined, vars: Record<string, string>): string {
  let base = '';
  for (const c of expand(name ?? 'artifacts', vars)) base += c < ' ' || c === '\x7f' || c === '/' || c === '\\' || c === '"' ? '_' : c;
  base = base.trim().slice(0, 200);
  if (!base || base === '.' || base === '..') base = 'artifacts';
  return `${base}.zip`;
}
