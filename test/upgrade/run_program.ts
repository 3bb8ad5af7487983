// Runs one of Wharf's built programs (dist/src/<name>.js) in a child process with only the
// environment given (and PATH), to its exit: its exit code and output. A program still running
// after `limitMs` (a server that started when it should have refused) is killed and reported
// with code null, so that a test fails instead of hanging.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runProgram(name: string, env: Record<string, string>, limitMs = 60_000): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(SRC, `${name}.js`)], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
