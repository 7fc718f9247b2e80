import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Coffer's home holds a bearer token and, in the fallback, secrets: every directory
 * is 0700 and every file 0600, whatever the umask says (mode on create is masked by
 * the umask, so chmod after).
 */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}

/** Writes atomically (temp file + rename) with mode 0600. */
export function writePrivateFile(path: string, contents: string): void {
  ensurePrivateDir(dirname(path));
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, contents, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}
