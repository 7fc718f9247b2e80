import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDir } from '../config/private-files.js';
import { CofferError } from '../domain/errors.js';
import type { SecretBackend } from './secret-backend.js';

const FILE_VERSION = 1;

interface SecretsFile {
  readonly version: number;
  readonly secrets: Record<string, string>;
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/** Never quotes the file: a parse error's text may contain part of a secret. */
function corrupt(path: string): CofferError {
  return new CofferError('STORE_FAILURE', `The secrets file ${path} is not valid`, {
    hint: 'restore it from a backup or remove it and set the secrets again with `coffer secrets set`',
  });
}

/** Runs synchronous work behind the async contract: a throw becomes a rejection. */
function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

function parseSecrets(text: string, path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw corrupt(path);
  }
  if (parsed === null || typeof parsed !== 'object') throw corrupt(path);
  const { version, secrets } = parsed as Partial<SecretsFile>;
  if (version !== FILE_VERSION || secrets === null || typeof secrets !== 'object')
    throw corrupt(path);
  for (const value of Object.values(secrets)) if (typeof value !== 'string') throw corrupt(path);
  return { ...secrets };
}

/**
 * The fallback where no OS keychain is reachable: `$COFFER_HOME/secrets.json`, mode
 * 0600, JSON `{version, secrets: {account: value}}`. Written whole, atomically (temp
 * file, fsync, rename), so a crash leaves the old file or the new one, never half.
 * Reads and writes are synchronous: the file is small, and a read-modify-write that
 * never yields cannot interleave with another one in this process.
 */
export class FileBackend implements SecretBackend {
  constructor(readonly path: string) {}

  get(account: string): Promise<string | undefined> {
    return settle(() => this.read()[account]);
  }

  set(account: string, value: string): Promise<void> {
    return settle(() => {
      const secrets = this.read();
      secrets[account] = value;
      this.write(secrets);
    });
  }

  delete(account: string): Promise<boolean> {
    return settle(() => {
      const secrets = this.read();
      if (!(account in secrets)) return false;
      delete secrets[account];
      this.write(secrets);
      return true;
    });
  }

  accounts(): Promise<string[]> {
    return settle(() => Object.keys(this.read()));
  }

  /** Number of secrets kept, without reading any into the caller's hands. */
  size(): number {
    return Object.keys(this.read()).length;
  }

  private read(): Record<string, string> {
    let text: string;
    try {
      // Someone loosened the mode: tighten it before reading secrets out of it.
      if ((statSync(this.path).mode & 0o077) !== 0) chmodSync(this.path, 0o600);
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return Object.create(null) as Record<string, string>;
      throw new CofferError('STORE_FAILURE', `Cannot read the secrets file ${this.path}`, {
        cause: error,
      });
    }
    return Object.assign(
      Object.create(null) as Record<string, string>,
      parseSecrets(text, this.path),
    );
  }

  private write(secrets: Record<string, string>): void {
    ensurePrivateDir(dirname(this.path));
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const body = `${JSON.stringify({ version: FILE_VERSION, secrets }, null, 2)}\n`;
    try {
      const fd = openSync(temp, 'wx', 0o600);
      try {
        writeSync(fd, body);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      chmodSync(temp, 0o600);
      renameSync(temp, this.path);
    } catch (error) {
      try {
        unlinkSync(temp);
      } catch {
        // Nothing to clean up.
      }
      throw new CofferError('STORE_FAILURE', `Cannot write the secrets file ${this.path}`, {
        cause: error,
      });
    }
  }
}
