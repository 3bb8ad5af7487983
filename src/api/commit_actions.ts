// The `actions[]` parameter of GitLab 10.8's POST /projects/:id/repository/commits
// (lib/api/commits.rb): each entry becomes one file action of the commit service
// (services/repository/file_writes.ts), or the index's refusal of it.
import { coerceAnyString, coerceBoolean, coerceString } from '../http/params.js';
import { paramError } from '../http/errors.js';
import { fileContent, type CommitRequest, type FileAction } from '../services/repository/file_writes.js';

const ACTIONS = ['create', 'create_dir', 'update', 'move', 'delete', 'chmod'] as const;

/**
 * `actions[]` of the commits endpoint. A list that is not a list of objects, or a chmod
 * without `execute_filemode`, is a parameter error (Grape's words, as GitLab 11 declared
 * them); the rest is checked as GitLab 10.8's index applies each action, in order, so an
 * unknown action or a missing path or content answers with the index's message.
 */
export function parseActions(raw: unknown): CommitRequest['actions'] {
  // Form bodies with indexed keys (actions[0][action]=...) arrive as an object of indices.
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' && Object.keys(raw).every((k) => /^\d+$/.test(k)) ? Object.values(raw) : null;
  if (!list || list.some((a) => !a || typeof a !== 'object' || Array.isArray(a))) throw paramError('actions is invalid');
  return list.map((a: Record<string, unknown>, i) => {
    const str = (key: string): string | undefined => {
      const value = a[key];
      if (value === undefined || value === null) return undefined;
      try {
        return key === 'content' ? coerceAnyString(value) : coerceString(value); // file bytes may hold NUL
      } catch {
        throw paramError(`actions[${i}][${key}] is invalid`);
      }
    };
    const name = str('action') ?? '';
    const file = str('file_path') ?? '';
    const rawContent = str('content');
    const content = rawContent === undefined ? null : fileContent(rawContent, str('encoding'));
    const lastCommitId = str('last_commit_id');
    const invalid = (message: string): FileAction => ({ action: 'invalid', message });
    if (!(ACTIONS as readonly string[]).includes(name)) return invalid(`Unknown action '${name}'`);
    switch (name as (typeof ACTIONS)[number]) {
      case 'create':
        return content === null ? invalid('You must provide content') : { action: 'create', filePath: file, content };
      case 'create_dir':
        return { action: 'create_dir', filePath: file };
      case 'update':
        return content === null ? invalid('You must provide content') : { action: 'update', filePath: file, content, lastCommitId };
      case 'move':
        return { action: 'move', filePath: file, previousPath: str('previous_path') ?? '', content, lastCommitId };
      case 'delete':
        return { action: 'delete', filePath: file, lastCommitId };
      case 'chmod': {
        if (a.execute_filemode === undefined || a.execute_filemode === null) throw paramError(`actions[${i}][execute_filemode] is missing`);
        let executable: boolean;
        try {
          executable = coerceBoolean(a.execute_filemode);
        } catch {
          throw paramError(`actions[${i}][execute_filemode] is invalid`);
        }
        return { action: 'chmod', filePath: file, executable };
      }
    }
  });
}
