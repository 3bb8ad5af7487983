// How many processes a job's bash may have (ulimit -u): a fork bomb stops at the limit instead
// of exhausting the machine. The kernel counts RLIMIT_NPROC over every process of the user,
// and the job runs as the server's user, so the limit is what the user runs now plus a margin.
import fs from 'node:fs';
import os from 'node:os';

export const JOB_PROCESS_MARGIN = 256;

function userProcessCount(): number {
  const uid = os.userInfo().uid;
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

export function jobProcessLimit(): number {
  try {
    return userProcessCount() + JOB_PROCESS_MARGIN;
  } catch {
    return 4096;
  }
}
