// The journal of repository moves: one small file per project, written (and flushed to disk)
// before its repository folder moves, removed once the database row that names the folder
// agrees with the disk. A kill between the folder move and the row update leaves the entry
// behind, and whoever next takes that project's lock (or the next start) finishes the move
// or undoes it, by what the row says (services/repository/recovery.ts). So a project never
// ends up without its repository, and no folder is left that no project owns.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A folder moving from one `<namespace>/<project>` path to another (rename, transfer). */
interface MoveEntry {
  op: 'move';
  from: string;
  to: string;
}

/** A deleted project's folder, moved aside into the trash before its rows are deleted. */
interface DeleteEntry {
  op: 'delete';
  from: string;
  /** The folder's name in the trash. */
  trash: string;
}

export type JournalEntry = MoveEntry | DeleteEntry;

const NAME = /^[a-z0-9-]+$/;

export class RepoJournal {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  private file(key: string): string {
    if (!NAME.test(key)) throw new Error(`invalid journal key: ${key}`);
    return path.join(this.dir, `${key}.json`);
  }

  /** Writes the entry durably: temporary file, fsync, rename, fsync of the folder. */
  async write(key: string, entry: JournalEntry): Promise<void> {
    const tmp = path.join(this.dir, `.${key}.${crypto.randomBytes(6).toString('hex')}.tmp`);
    const file = await fs.promises.open(tmp, 'wx', 0o600);
    try {
      await file.writeFile(JSON.stringify(entry));
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.promises.rename(tmp, this.file(key));
    await syncDir(this.dir);
  }

  async read(key: string): Promise<JournalEntry | null> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.file(key), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      return JSON.parse(text) as JournalEntry;
    } catch {
      return null; // cannot be half-written (renamed into place); unreadable means nothing to finish
    }
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.file(key), { force: true });
  }

  /** Keys with an entry (interrupted moves, or moves under way in another process). */
  async keys(): Promise<string[]> {
    const names = await fs.promises.readdir(this.dir);
    return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5));
  }
}

/** Makes a rename inside `dir` durable (POSIX: the folder itself must be flushed). */
export async function syncDir(dir: string): Promise<void> {
  let handle: fs.promises.FileHandle | null = null;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch {
    // some file systems cannot fsync a folder; the rename is still atomic
  } finally {
    await handle?.close();
  }
}
