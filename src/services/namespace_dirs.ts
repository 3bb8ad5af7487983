// A namespace's folder under the repositories root (`<full_path>/`, holding `<project>.git`):
// renamed with its user, removed with it.
import fs from 'node:fs';
import path from 'node:path';

export function namespaceDir(root: string, fullPath: string): string {
  const base = path.resolve(root);
  const dir = path.resolve(base, fullPath);
  if (!fullPath || !dir.startsWith(base + path.sep)) throw new Error(`namespace folder escapes the repositories root: ${fullPath}`);
  return dir;
}

/** Moves the folder if there is one; false when there was nothing to move. */
export async function moveNamespaceDir(root: string, from: string, to: string): Promise<boolean> {
  const src = namespaceDir(root, from);
  const dst = namespaceDir(root, to);
  if (!fs.existsSync(src)) return false;
  // A change of case only is the same folder on case-insensitive file systems.
  if (src.toLowerCase() !== dst.toLowerCase() && fs.existsSync(dst)) {
    throw new Error(`a folder already exists at ${to}`);
  }
  await fs.promises.mkdir(path.dirname(dst), { recursive: true });
  await fs.promises.rename(src, dst);
  return true;
}

export async function removeNamespaceDir(root: string, fullPath: string): Promise<void> {
  await fs.promises.rm(namespaceDir(root, fullPath), { recursive: true, force: true });
}
