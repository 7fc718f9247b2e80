/** The credentials port (implemented by src/credentials). */
import type { KnownSecret } from '../secret-scan.js';

export type SecretKind = 'env' | 'header';

/** Which secret: the value of env var / header `name` of server `server`. Never the value. */
export interface SecretRef {
  readonly server: string;
  readonly kind: SecretKind;
  readonly name: string;
}

/** Where secrets are kept, safe to show: never a value. */
export interface SecretBackendInfo {
  readonly backend: 'keychain' | 'file';
  /** The fallback file, when backend is `file`. */
  readonly location?: string;
  /** Why the OS keychain is not used, when backend is `file`. */
  readonly reason?: string;
}

/**
 * The user's secrets, kept in the OS keychain (or the 0600 fallback file). Values go
 * in through `set` and out through `get` only, to be handed to an upstream at spawn or
 * connect time; they are never stored elsewhere, logged or answered by the API.
 */
export interface SecretStore {
  /** Picks the backend on first use (a real probe); later calls reuse it. */
  backend(): Promise<SecretBackendInfo>;
  /** undefined when the secret is not set. */
  get(ref: SecretRef): Promise<string | undefined>;
  set(ref: SecretRef, value: string): Promise<void>;
  /** False when there was nothing to delete. */
  delete(ref: SecretRef): Promise<boolean>;
  /** Names of every stored secret, never values. */
  list(): Promise<SecretRef[]>;
}

/**
 * The secrets the guard looks for (issue 20.3), each with the servers that own it: a
 * server owns the secrets its definition names (`secret_env`, `secret_headers`) and, when
 * remote, its stored OAuth access and refresh tokens. One
 * entry per distinct value, so a value two servers share belongs to both. Values stay
 * in memory, inside the matcher: never logged, stored or answered.
 */
export interface GuardedSecrets {
  known(): Promise<KnownSecret[]>;
}
