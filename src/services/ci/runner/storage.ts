// Where a CI job's stored files live: its trace (log) and its artifacts archive, under the
// server's data folder beside project exports (`<repos>/@wharf/…`), by numeric ids only, so no
// client-given name ever becomes part of these paths.
import path from 'node:path';
import type { Deps } from '../../../deps.js';

function idPart(n: number): string {
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`not a job id: ${n}`);
  return String(n);
}

export function traceFile(deps: Pick<Deps, 'repos'>, projectId: number, buildId: number): string {
  return path.join(deps.repos.root, '@wharf', 'ci', 'traces', idPart(projectId), `${idPart(buildId)}.log`);
}

export function artifactsFile(deps: Pick<Deps, 'repos'>, projectId: number, buildId: number): string {
  return path.join(deps.repos.root, '@wharf', 'ci', 'artifacts', idPart(projectId), idPart(buildId), 'artifacts.zip');
}
