import { randomBytes } from 'node:crypto';
import type * as KeyringModule from '@napi-rs/keyring';
import type { AsyncEntry, EntryOptions } from '@napi-rs/keyring';
import { CofferError } from '../domain/errors.js';
import { KEYCHAIN_SERVICE } from './secret-account.js';
import type { SecretBackend } from './secret-backend.js';

/**
 * The OS keychain through @napi-rs/keyring: the only module that imports it (DESIGN.md
 * §1). macOS Keychain, Windows Credential Manager, and on Linux the Secret Service
 * only: the library would otherwise fall back silently to the kernel keyring, which
 * forgets everything at reboot (and is per login session, so the CLI and the daemon
 * may not even share it). Where no Secret Service runs, the file fallback is used
 * instead, and said so.
 */
const entryOptions: EntryOptions | undefined =
  process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined;

type Keyring = typeof KeyringModule;
let keyring: Promise<Keyring> | undefined;

/**
 * Loaded on first use, not at daemon start: a platform without a prebuilt binary (or
 * a daemon whose servers hold no secrets) must still start; the probe then fails and
 * the file fallback is used.
 */
function loadKeyring(): Promise<Keyring> {
  keyring ??= import('@napi-rs/keyring');
  return keyring;
}

/** A keychain that hangs (a locked keyring waiting for a prompt) must not hang Coffer. */
const DEFAULT_TIMEOUT_MS = 15_000;

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function keychainFailure(action: string, error: unknown): CofferError {
  return new CofferError(
    'STORE_FAILURE',
    `The OS keychain could not ${action}: ${reasonOf(error)}`,
    {
      hint: 'unlock the keychain, or set COFFER_KEYCHAIN=file to keep secrets in a 0600 file instead',
      cause: error,
    },
  );
}

export class KeychainBackend implements SecretBackend {
  constructor(
    private readonly service: string = KEYCHAIN_SERVICE,
    private readonly timeoutMs: number = DEFAULT_TIMEOUT_MS,
  ) {}

  async get(account: string): Promise<string | undefined> {
    try {
      const value = await (await this.entry(account)).getPassword(this.signal());
      return value ?? undefined;
    } catch (error) {
      throw keychainFailure('read a secret', error);
    }
  }

  async set(account: string, value: string): Promise<void> {
    try {
      await (await this.entry(account)).setPassword(value, this.signal());
    } catch (error) {
      throw keychainFailure('store a secret', error);
    }
  }

  async delete(account: string): Promise<boolean> {
    try {
      return await (await this.entry(account)).deleteCredential(this.signal());
    } catch (error) {
      throw keychainFailure('delete a secret', error);
    }
  }

  /** The search answers passwords too: they are dropped here, at once. */
  async accounts(): Promise<string[]> {
    try {
      const { findCredentialsAsync } = await loadKeyring();
      const found = await findCredentialsAsync(this.service, undefined, this.signal());
      return found.map((credential) => credential.account);
    } catch (error) {
      throw keychainFailure('list secrets', error);
    }
  }

  /**
   * A real round trip (set, get, delete of a throw-away entry): the only reliable way
   * to know the keychain works, since "present but locked" or "no D-Bus session" show
   * up only when used. Resolves undefined when usable, else the reason.
   */
  async probe(): Promise<string | undefined> {
    const account = `probe/${process.pid}-${randomBytes(4).toString('hex')}`;
    const marker = randomBytes(8).toString('hex');
    try {
      const entry = await this.entry(account);
      await entry.setPassword(marker, this.signal());
      const read = await entry.getPassword(this.signal());
      await entry.deleteCredential(this.signal());
      return read === marker ? undefined : 'the keychain did not return what was stored';
    } catch (error) {
      return reasonOf(error);
    }
  }

  private async entry(account: string): Promise<AsyncEntry> {
    const { AsyncEntry } = await loadKeyring();
    return new AsyncEntry(this.service, account, entryOptions);
  }

  private signal(): AbortSignal {
    return AbortSignal.timeout(this.timeoutMs);
  }
}
