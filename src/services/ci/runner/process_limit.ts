// How many processes a job may have (RLIMIT_NPROC, set by sandbox.ts with prlimit) when the
// job shares its uid with the server (a server that does not run as root cannot give jobs a
// user of their own): the kernel counts RLIMIT_NPROC over every process of the uid, so the
// limit is what that user runs now plus the job's own allowance. A job with a uid of its own
// (job_user.ts) gets the allowance alone.
import fs from 'node:fs';
import os from 'node:os';

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

export function jobProcessLimit(allowance: number, uid: number = os.userInfo().uid): number {
  try {
    return userProcessCount(uid) + allowance;
  } catch {
    return 4096 + allowance;
  }
}
