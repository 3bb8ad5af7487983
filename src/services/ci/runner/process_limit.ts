// How many processes a job's bash may have (ulimit -u): a fork bomb stops at the limit instead
// of exhausting the machine. The kernel counts RLIMIT_NPROC over every process of the user
// the job runs as (the server's, or job_user.ts's), so the limit is what that user runs now
// plus a margin. The kernel does not apply it to root: job_user.ts keeps jobs from being root.
import fs from 'node:fs';
import os from 'node:os';

export const JOB_PROCESS_MARGIN = 256;

function userProcessCount(uid: number): number {
  let count = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.statSync(`/proc/${entry}`).uid === uid) count++;
    } catch {
      // the process ended meanwhile
    }
  }
  return count;
}

export function jobProcessLimit(uid: number = os.userInfo().uid): number {
  try {
    return userProcessCount(uid) + JOB_PROCESS_MARGIN;
  } catch {
    return 4096;
  }
}
