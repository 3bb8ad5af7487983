// Building history in a bare repository with the real git command (a work clone, commits,
// push back), and reading real git's answers to compare Wharf's with.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: os.tmpdir(),
  GIT_AUTHOR_NAME: 'Ann Author',
  GIT_AUTHOR_EMAIL: 'ann@example.com',
  GIT_COMMITTER_NAME: 'Ann Author',
  GIT_COMMITTER_EMAIL: 'ann@example.com',
};

export function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd, env: { ...GIT_ENV, ...env }, maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
}

export function gitBuffer(cwd: string, args: string[]): Buffer {
  return execFileSync('git', args, { cwd, env: GIT_ENV, maxBuffer: 256 * 1024 * 1024 });
}

/** A work tree cloned from `bare` (created with `git init --bare` when missing). */
export class WorkTree {
  readonly dir: string;
  private clock = 1_500_000_000;

  constructor(readonly bare: string) {
    if (!fs.existsSync(path.join(bare, 'HEAD'))) {
      fs.mkdirSync(bare, { recursive: true });
      git(bare, ['init', '--bare', '-q', '-b', 'master']);
    }
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-work-'));
    git(this.dir, ['clone', '-q', bare, '.'], { GIT_TERMINAL_PROMPT: '0' });
    git(this.dir, ['symbolic-ref', 'HEAD', 'refs/heads/master']);
    git(this.dir, ['config', 'core.autocrlf', 'false']);
    git(this.dir, ['config', 'user.name', 'Ann Author']);
    git(this.dir, ['config', 'user.email', 'ann@example.com']);
  }

  write(file: string, content: string | Buffer, mode?: number): this {
    const p = path.join(this.dir, file);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.rmSync(p, { force: true });
    fs.writeFileSync(p, content);
    if (mode !== undefined) fs.chmodSync(p, mode);
    return this;
  }

  symlink(file: string, target: string): this {
    const p = path.join(this.dir, file);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.rmSync(p, { force: true });
    fs.symlinkSync(target, p);
    return this;
  }

  remove(file: string): this {
    git(this.dir, ['rm', '-q', '-r', file]);
    return this;
  }

  move(from: string, to: string): this {
    fs.mkdirSync(path.dirname(path.join(this.dir, to)), { recursive: true });
    git(this.dir, ['mv', from, to]);
    return this;
  }

  /** Commits everything with a deterministic date; returns the new commit id. */
  commit(message: string, author?: { name: string; email: string }): string {
    this.clock += 60;
    const date = `${this.clock} +0000`;
    const env: Record<string, string> = { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
    if (author) Object.assign(env, { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email });
    git(this.dir, ['add', '-A']);
    git(this.dir, ['commit', '-q', '--allow-empty', '-m', message], env);
    return git(this.dir, ['rev-parse', 'HEAD']).trim();
  }

  checkout(branch: string, create = false): this {
    git(this.dir, create ? ['checkout', '-q', '-b', branch] : ['checkout', '-q', branch]);
    return this;
  }

  push(...refs: string[]): this {
    git(this.dir, ['push', '-q', '--force', 'origin', ...(refs.length ? refs : ['--all'])]);
    if (!refs.length) git(this.dir, ['push', '-q', '--force', 'origin', '--tags']);
    return this;
  }

  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface GitFileDiff {
  status: string;
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  diff: string;
}

/**
 * Real git's diff of two commits, per file, in the shape GitLab 10.8 derived from libgit2:
 * the patch from its "---" (or "Binary") line on, "" when there is none.
 */
export function gitDiff(bare: string, from: string, to: string): GitFileDiff[] {
  const args = ['-c', 'core.quotePath=true', 'diff', '--no-color', '--no-ext-diff', '--no-indent-heuristic', '-M', '--full-index'];
  const raw = git(bare, [...args, '--raw', '-z', from, to]).split('\0');
  const files: GitFileDiff[] = [];
  for (let i = 0; i < raw.length - 1;) {
    const [aMode, bMode, , , status] = raw[i].slice(1).split(' ');
    const renamed = status.startsWith('R');
    const oldPath = raw[i + 1];
    const newPath = renamed ? raw[i + 2] : oldPath;
    i += renamed ? 3 : 2;
    if (status === 'T') {
      // git's patch shows a type change as a deletion then an addition.
      files.push({ status: 'D', old_path: oldPath, new_path: oldPath, a_mode: trimMode(aMode), b_mode: '0', diff: '' });
      files.push({ status: 'A', old_path: oldPath, new_path: oldPath, a_mode: '0', b_mode: trimMode(bMode), diff: '' });
      continue;
    }
    files.push({ status: status[0], old_path: oldPath, new_path: newPath, a_mode: trimMode(aMode), b_mode: trimMode(bMode), diff: '' });
  }
  const patch = gitBuffer(bare, [...args, from, to]).toString('utf8');
  const sections = patch.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  sections.forEach((s, k) => {
    const m = /^(---|Binary)/m.exec(s);
    files[k].diff = m ? s.slice(m.index) : '';
  });
  return files;
}

const trimMode = (m: string) => (/^0+$/.test(m) ? '0' : m.replace(/^0+(?=\d{6})/, ''));
