// The lines of a file's patch with their numbers on each side, as GitLab 10.8's
// Gitlab::Diff::Parser numbers them: within a hunk (`@@ -a,b +c,d @@`) a context line has
// both numbers, a removed line (`type` 'old') its old number and the new side's current
// number, an added one (`type` 'new') its new number and the old side's current number;
// header and "\ No newline at end of file" lines are not lines of the file. What a diff
// position (`old_line`/`new_line`) and a line code (`<sha1 of path>_<old>_<new>`) name.
import crypto from 'node:crypto';

export interface PatchLine {
  type: 'old' | 'new' | null;
  oldPos: number;
  newPos: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function patchLines(patch: string): PatchLine[] {
  const out: PatchLine[] = [];
  let oldPos = 0;
  let newPos = 0;
  let inHunk = false;
  for (const line of patch.split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldPos = Number(hunk[1]);
      newPos = Number(hunk[2]);
      inHunk = true;
      continue;
    }
    if (!inHunk || line === '' || line.startsWith('\\')) continue;
    const mark = line[0];
    if (mark === '+') out.push({ type: 'new', oldPos, newPos: newPos++ });
    else if (mark === '-') out.push({ type: 'old', oldPos: oldPos++, newPos });
    else if (mark === ' ') out.push({ type: null, oldPos: oldPos++, newPos: newPos++ });
  }
  return out;
}

/** Gitlab::Diff::Line#old_line / #new_line: the number a position uses on each side, if any. */
export function oldLineOf(l: PatchLine): number | null {
  return l.type === 'new' ? null : l.oldPos;
}

export function newLineOf(l: PatchLine): number | null {
  return l.type === 'old' ? null : l.newPos;
}

/** Gitlab::Git.diff_line_code. */
export function lineCode(filePath: string, l: PatchLine): string {
  return `${crypto.createHash('sha1').update(filePath).digest('hex')}_${l.oldPos}_${l.newPos}`;
}
