import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root (the folder that holds package.json). */
export const REPOSITORY_ROOT = join(__dirname, '..', '..');

/** Every file below a top folder of the repository whose name `keep` accepts, as paths from its root (node_modules left out). */
export function filesUnder(top: string, keep: (name: string) => boolean = () => true): string[] {
  if (!existsSync(join(REPOSITORY_ROOT, top))) return [];
  return (readdirSync(join(REPOSITORY_ROOT, top), { recursive: true, withFileTypes: true }) as { name: string; parentPath: string; isFile(): boolean }[])
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('node_modules') && keep(entry.name))
    .map((entry) => join(entry.parentPath, entry.name).slice(REPOSITORY_ROOT.length + 1));
}
