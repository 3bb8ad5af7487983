// A namespace's folder under the repositories root (`<full_path>/`, holding `<project>.git`):
// removed with its user (a rename moves each repository: repository_moves.ts).
import fs from 'node:fs';
import path from 'node:path';

export function namespaceDir(root: string, fullPath: string): string {
  const base = path.resolve(root);
  const dir = path.resolve(base, fullPath);
  if (!fullPath || !dir.startsWith(base + path.sep)) throw new Error(`namespace folder escapes the repositories root: ${fullPath}`);
  return dir;
}

export async function removeNamespaceDir(root: string, fullPath: string): Promise<void> {
  await fs.promises.rm(namespaceDir(root, fullPath), { recursive: true, force: true });
}
