// Git housekeeping of a bare repository, with the commands GitLab 10.8's GitGarbageCollectWorker
// ran: `gc`, a full repack (`repack -A -d --pack-kept-objects`: every object in one pack) or
// an incremental one (`repack -d`: loose objects into a new pack). Bitmaps are written by gc and
// full repacks when asked (housekeeping_bitmaps_enabled), never by an incremental repack, which
// cannot write them. Git's own locks keep this safe beside concurrent pushes and reads.
import { execFile } from 'node:child_process';

export type HousekeepingTask = 'gc' | 'full_repack' | 'incremental_repack';

function housekeepingCommand(task: HousekeepingTask, bitmaps: boolean): string[] {
  switch (task) {
    case 'gc':
      return ['-c', `repack.writeBitmaps=${bitmaps}`, 'gc', '--quiet'];
    case 'full_repack':
      return ['-c', `repack.writeBitmaps=${bitmaps}`, 'repack', '-A', '-d', '--pack-kept-objects', '--quiet'];
    case 'incremental_repack':
      return ['-c', 'repack.writeBitmaps=false', 'repack', '-d', '--quiet'];
  }
}

function git(gitdir: string, args: string[], signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', ['--git-dir', gitdir, ...args], { signal, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (err, stdout, stderr) => {
      if (err)
        reject(
          new Error(
            `git ${args.filter((a) => a !== '-c').join(' ')} failed: ${String(stderr || err.message)
              .trim()
              .slice(0, 2000)}`,
          ),
        );
      else resolve(stdout);
    });
  });
}

export async function runHousekeeping(gitdir: string, task: HousekeepingTask, bitmaps: boolean, signal?: AbortSignal): Promise<void> {
  await git(gitdir, housekeepingCommand(task, bitmaps), signal);
}

/** `git count-objects -v` as numbers: loose `count`, `packs`, `size-pack` (KiB), … */
export async function countObjects(gitdir: string): Promise<Record<string, number>> {
  const out = await git(gitdir, ['count-objects', '-v']);
  const counts: Record<string, number> = {};
  for (const line of out.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) counts[line.slice(0, colon).trim()] = Number(line.slice(colon + 1).trim());
  }
  return counts;
}
