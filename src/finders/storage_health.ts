// The health of Wharf's one repository storage, 'default' (the WHARF_REPOS folder), for
// GitLab 10.8's circuit breaker API. 10.8 counts each host's recent failures to reach a
// storage in Redis; Wharf keeps no such count and checks now instead: the folder is failing
// on this host, once, when it is not a directory this process can read, write and enter.
import fs from 'node:fs';
import os from 'node:os';
import type { RepoStore } from '../git/repos.js';

const STORAGE_NAME = 'default';

export interface StorageHealth {
  name: string;
  failures: { host: string; count: number }[];
}

async function accessible(dir: string): Promise<boolean> {
  try {
    const stat = await fs.promises.stat(dir);
    if (!stat.isDirectory()) return false;
    await fs.promises.access(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Every storage Wharf has (one), with its failures. */
export async function repositoryStorageHealth(repos: RepoStore): Promise<StorageHealth[]> {
  const failures = (await accessible(repos.root)) ? [] : [{ host: os.hostname(), count: 1 }];
  return [{ name: STORAGE_NAME, failures }];
}
