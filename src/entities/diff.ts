// GitLab's Diff entity (lib/api/entities.rb `Diff`, 10.8): the fields in its order; the
// engine's extra bookkeeping (too_large, line counts) is not part of the API.
import type { FileDiff } from '../git/diff.js';

export type DiffEntity = Omit<FileDiff, 'too_large' | 'additions' | 'deletions'>;

export function diffEntity(d: FileDiff): DiffEntity {
  return {
    old_path: d.old_path,
    new_path: d.new_path,
    a_mode: d.a_mode,
    b_mode: d.b_mode,
    new_file: d.new_file,
    renamed_file: d.renamed_file,
    deleted_file: d.deleted_file,
    diff: d.diff,
  };
}
