import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where this Coffer installation lives. Works from src/ (tests) and dist/src/ (built):
 * walks up from this module to the package.json named "coffer".
 */
interface PackageInfo {
  readonly root: string;
  readonly version: string;
}

let cached: PackageInfo | undefined;

function findPackage(): PackageInfo {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as {
          name?: unknown;
          version?: unknown;
        };
        if (parsed.name === 'coffer') {
          return {
            root: dir,
            version: typeof parsed.version === 'string' ? parsed.version : '0.0.0',
          };
        }
      } catch {
        // not ours: keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { root: process.cwd(), version: '0.0.0' };
}

function packageInfo(): PackageInfo {
  cached ??= findPackage();
  return cached;
}

export function packageVersion(): string {
  return packageInfo().version;
}

/** `bin/coffer.js` of this installation: what a spawned daemon runs. */
export function defaultBinaryPath(): string {
  return join(packageInfo().root, 'bin', 'coffer.js');
}
