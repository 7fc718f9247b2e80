import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Coffer's home holds a bearer token and, in the fallback, secrets: every directory it
 * makes is 0700 and every file 0600, whatever the umask says (mode on create is masked
 * by the umask, so chmod after). A folder that was there already keeps its mode: a
 * COFFER_HOME set to a shared one (/tmp) must not lock everyone else out of it, and the
 * files in it are 0600 anyway.
 */
export function ensurePrivateDir(path: string): void {
  const first = mkdirSync(path, { recursive: true, mode: 0o700 });
  // One that was there must still be ours to write in (not left to root by `sudo coffer`).
  if (first === undefined) return accessSync(path, constants.W_OK | constants.X_OK);
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    chmodSync(dir, 0o700);
    if (dir === resolve(first) || dirname(dir) === dir) break;
  }
}

/** Writes atomically (temp file + rename) with mode 0600; a write that fails leaves no temp. */
export function writePrivateFile(path: string, contents: string): void {
  ensurePrivateDir(dirname(path));
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, contents, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
