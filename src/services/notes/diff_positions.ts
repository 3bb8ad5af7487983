// Where a diff note sits (GitLab 10.8's DiffNote validations over Gitlab::Diff::Position):
// `position[base_sha|start_sha|head_sha]` name the diff, `position_type` text or image,
// `new_path`/`old_path` the file, `new_line`/`old_line` the line (both for an unchanged line,
// one for an added or removed one), `width`/`height`/`x`/`y` a point of an image. Checked as
// the model checks it, with its errors:
// - only merge requests and commits take diff notes (`noteable_type` "is not included in the
//   list"); a merge request needs its three diff refs ("doesn't support new-style diff notes");
// - the refs must be the merge request's current ones or those of one of its older diff
//   versions (the caller passes the version the position names; 10.8 traced an older
//   position forward, Wharf keeps it on its version; else `position` "is invalid"), or the
//   commit's own (`commit_id` "does not match the diff refs");
// - a complete position: a path, a line (or the image point) and all three refs (`position`
//   "is invalid");
// - on text, the line must be a line of that file's diff (`diff_line` and `line_code` blank).
// The accepted position is stored as GitLab shows it (Position#to_h, its key order), with
// its line code.
import type { AnyNoteableType } from '../../store/note_kinds.js';
import { changesBetween, patchFor } from '../../git/diff.js';
import { lineCode, newLineOf, oldLineOf, patchLines } from '../../git/patch_lines.js';

export interface PositionInput {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  position_type: 'text' | 'image';
  new_path?: string | null;
  old_path?: string | null;
  new_line?: number | null;
  old_line?: number | null;
  width?: number | null;
  height?: number | null;
  x?: number | null;
  y?: number | null;
}

/** The commits a diff is taken between: base (merge base) to head; start is the target's head. */
export interface DiffRefs {
  base: string | null;
  start: string | null;
  head: string | null;
}

export type PositionCheck = { ok: true; position: string; lineCode: string | null } | { ok: false; errors: Record<string, string[]> };

const LINE_ERRORS = { diff_line: ["can't be blank"], line_code: ["can't be blank", 'must be a valid line code'] };

function complete(p: PositionInput): boolean {
  if (!(p.new_path || p.old_path) || !p.base_sha || !p.start_sha || !p.head_sha) return false;
  if (p.position_type === 'image') return [p.width, p.height, p.x, p.y].every((v) => v !== undefined && v !== null);
  return (p.old_line ?? null) !== null || (p.new_line ?? null) !== null;
}

/** Position#to_h, in its key order. */
function stored(p: PositionInput): string {
  const base = {
    base_sha: p.base_sha,
    start_sha: p.start_sha,
    head_sha: p.head_sha,
    old_path: p.old_path ?? null,
    new_path: p.new_path ?? null,
    position_type: p.position_type,
  };
  const rest =
    p.position_type === 'image'
      ? { width: p.width ?? null, height: p.height ?? null, x: p.x ?? null, y: p.y ?? null }
      : { old_line: p.old_line ?? null, new_line: p.new_line ?? null };
  return JSON.stringify({ ...base, ...rest });
}

/** The line code of the position's line in the diff between the refs, or null when it is none. */
async function lineCodeIn(gitdir: string, refs: DiffRefs, p: PositionInput): Promise<string | null> {
  const changes = await changesBetween(gitdir, refs.base, refs.head!);
  const change = changes.find((c) => (p.new_path && c.newPath === p.new_path) || (p.old_path && c.oldPath === p.old_path));
  if (!change) return null;
  const patch = await patchFor(gitdir, change);
  const filePath = patch.new_path || patch.old_path;
  const oldLine = p.old_line ?? null;
  const newLine = p.new_line ?? null;
  const line = patchLines(patch.diff).find((l) => oldLineOf(l) === oldLine && newLineOf(l) === newLine);
  return line ? lineCode(filePath, line) : null;
}

/**
 * Checks a position for a note on `noteableType` whose diff is `refs` (a merge request's
 * current refs, or a commit's: its first parent twice and itself) in `gitdir`.
 */
export async function checkPosition(gitdir: string, noteableType: AnyNoteableType, refs: DiffRefs | null, p: PositionInput): Promise<PositionCheck> {
  if (noteableType !== 'MergeRequest' && noteableType !== 'Commit') return { ok: false, errors: { noteable_type: ['is not included in the list'] } };
  if (!refs || !refs.head || (noteableType === 'MergeRequest' && (!refs.base || !refs.start))) {
    return { ok: false, errors: { noteable: ["doesn't support new-style diff notes"] } };
  }
  const sameRefs = p.base_sha === refs.base && p.start_sha === refs.start && p.head_sha === refs.head;
  if (!complete(p)) return { ok: false, errors: p.position_type === 'image' ? { position: ['is invalid'] } : { ...LINE_ERRORS, position: ['is invalid'] } };
  if (!sameRefs) return { ok: false, errors: noteableType === 'Commit' ? { commit_id: ['does not match the diff refs'] } : { position: ['is invalid'] } };
  if (p.position_type === 'image') return { ok: true, position: stored(p), lineCode: null };
  const code = await lineCodeIn(gitdir, refs, p);
  if (!code) return { ok: false, errors: LINE_ERRORS };
  return { ok: true, position: stored(p), lineCode: code };
}
