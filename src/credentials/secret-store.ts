import type { CofferPaths } from '../config/home.js';
import { CofferError } from '../domain/errors.js';
import type { SecretBackendInfo, SecretStore } from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';
import { accountOf, refOf } from './secret-account.js';
import type { SecretBackend } from './secret-backend.js';
import { FileBackend } from './file-backend.js';
import { KeychainBackend } from './keychain-backend.js';

/** `COFFER_KEYCHAIN`: `file` forces the fallback (tests, CI); unset or `auto` probes. */
export type KeychainMode = 'auto' | 'file';

export function keychainModeFrom(env: NodeJS.ProcessEnv): KeychainMode {
  const value = (env['COFFER_KEYCHAIN'] ?? '').trim().toLowerCase();
  if (value === '' || value === 'auto') return 'auto';
  if (value === 'file') return 'file';
  throw new CofferError(
    'INVALID_INPUT',
    `COFFER_KEYCHAIN must be "auto" or "file", not "${value}"`,
  );
}

/** The keychain as the store needs it: a backend that can also tell whether it works. */
export interface ProbedBackend extends SecretBackend {
  /** undefined when usable, else why not. */
  probe(): Promise<string | undefined>;
}

export interface SecretStoreOptions {
  readonly paths: Pick<CofferPaths, 'secretsFile'>;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the one fallback warning goes. */
  readonly logger?: Logger;
  /** Tests inject a fake keychain; the default is the OS one. */
  readonly keychain?: () => ProbedBackend;
}

interface Selected {
  readonly backend: SecretBackend;
  readonly info: SecretBackendInfo;
}

/**
 * The SecretStore the daemon uses. The backend is chosen on first use, not at start:
 * a daemon whose servers hold no secrets never touches the keychain (which may prompt
 * the user). Chosen once per process, so the fallback warning is written once.
 */
export function createSecretStore(options: SecretStoreOptions): SecretStore {
  return secretStoreOn(backendSelector(options));
}

/** Picks the backend once, on first use, for every store built on it. */
export type BackendSelector = () => Promise<{
  readonly backend: SecretBackend;
  readonly info: SecretBackendInfo;
}>;

export function backendSelector(options: SecretStoreOptions): BackendSelector {
  const mode = keychainModeFrom(options.env ?? process.env);
  let selected: Promise<Selected> | undefined;
  return () => {
    selected ??= chooseBackend(mode, options);
    return selected;
  };
}

export function secretStoreOn(select: BackendSelector): SecretStore {
  return {
    backend: async () => (await select()).info,
    get: async (ref) => (await select()).backend.get(accountOf(ref)),
    set: async (ref, value) => (await select()).backend.set(accountOf(ref), value),
    delete: async (ref) => (await select()).backend.delete(accountOf(ref)),
    list: async () => {
      const accounts = await (await select()).backend.accounts();
      return accounts.flatMap((account) => {
        const ref = refOf(account);
        return ref === undefined ? [] : [ref];
      });
    },
  };
}

async function chooseBackend(mode: KeychainMode, options: SecretStoreOptions): Promise<Selected> {
  const file = new FileBackend(options.paths.secretsFile);
  if (mode === 'file') return useFile(file, 'COFFER_KEYCHAIN=file is set', options.logger);
  const keychain = (options.keychain ?? (() => new KeychainBackend()))();
  const problem = await keychain.probe();
  if (problem !== undefined)
    return useFile(file, `no OS keychain is reachable (${problem})`, options.logger);
  warnAboutLeftovers(file, options.logger);
  return { backend: keychain, info: { backend: 'keychain' } };
}

function useFile(file: FileBackend, reason: string, logger: Logger | undefined): Selected {
  logger?.warn(
    { secretsFile: file.path, reason },
    `Secrets are kept in ${file.path} (mode 0600, not encrypted), not in the OS keychain: ${reason}`,
  );
  return { backend: file, info: { backend: 'file', location: file.path, reason } };
}

/** Secrets set while the keychain was unreachable stay in the file, unseen: say so. */
function warnAboutLeftovers(file: FileBackend, logger: Logger | undefined): void {
  try {
    const count = file.size();
    if (count > 0)
      logger?.warn(
        { secretsFile: file.path, count },
        `${file.path} holds ${count} secret(s) from a time the OS keychain was unreachable; they are not used now: set them again with \`coffer secrets set\` and remove the file`,
      );
  } catch {
    // An unreadable leftover file is not a reason to refuse the keychain.
  }
}
