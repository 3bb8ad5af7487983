// Storing a job's artifacts (GitLab Runner's "Uploading artifacts..."): the archive is made
// inside the job's sandbox by sandbox_helper.ts as the job's user, so the server never opens a
// file of the checkout; the server only receives the archive's bytes on a pipe and writes them
// to a temp name beside the final one, renamed once whole. An archive over the instance's
// `max_artifacts_size` is dropped, as GitLab answers such an upload 413 ("too large archive").
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { Deps } from '../../../deps.js';
import type { BuildRow } from '../../../store/ci_rows.js';
import { settingsOf } from '../../settings/application_settings.js';
import { expireInSeconds } from './artifacts.js';
import type { JobSpace } from './job_space.js';
import { runControlled, type RunControl } from './run_shell.js';
import { artifactsFile } from './storage.js';
import type { TraceWriter } from './trace.js';

export interface ArtifactsOptions {
  paths?: string[];
  expire_in?: string;
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** What the job's row gets, and whether storing failed the job (GitLab Runner fails it then). */
export interface Collected {
  changes: Partial<BuildRow>;
  failed: boolean;
}

/** The helper's exit code when there was nothing to archive (a warning, not a failure). */
const NOTHING_TO_ARCHIVE = 3;

export async function collectArtifacts(
  deps: Deps,
  build: BuildRow,
  space: JobSpace,
  a: ArtifactsOptions,
  filename: string,
  trace: TraceWriter,
  control: RunControl,
): Promise<Collected> {
  trace.note('Uploading artifacts...');
  const target = artifactsFile(deps, build.project_id, build.id);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const maxBytes = (await settingsOf(deps)).max_artifacts_size * 1024 * 1024;
  let bytes = 0;
  let tooLarge = false;
  // 0644: a later job's sandbox shows it read-only (its data folder stays closed, 0700).
  const file = fs.createWriteStream(temp, { flags: 'wx', mode: 0o644 });
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) tooLarge = true;
      done(null, tooLarge ? undefined : chunk);
    },
  });
  counter.pipe(file);
  const closed = new Promise<void>((resolve, reject) => {
    file.on('close', () => resolve());
    file.on('error', reject);
  });
  try {
    const code = await runControlled(space.config, space.helperStep('collect', a.paths ?? []), space.helperEnv(), trace, control, counter);
    counter.end();
    await closed;
    if (tooLarge) {
      trace.note(`ERROR: Uploading artifacts to coordinator... too large archive (over ${maxBytes} bytes)`);
      return { changes: {}, failed: true };
    }
    if (code !== 0) return { changes: {}, failed: code !== NOTHING_TO_ARCHIVE && !control.stopReason() };
    fs.chmodSync(temp, 0o644); // whatever the umask
    await fsyncFile(temp);
    fs.renameSync(temp, target);
  } finally {
    fs.rmSync(temp, { force: true });
  }
  const expire = expireInSeconds(a.expire_in);
  const changes = {
    artifacts_file: filename,
    artifacts_size: fs.statSync(target).size,
    artifacts_expire_at: expire === null ? null : new Date(Date.now() + expire * 1000).toISOString(),
  };
  return { changes, failed: false };
}
