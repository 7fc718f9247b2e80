/**
 * One place secrets can live (the OS keychain or the fallback file), addressed by
 * account name (see secret-account.ts). The SecretStore picks one on first use.
 */
export interface SecretBackend {
  get(account: string): Promise<string | undefined>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  /** Every account kept under Coffer's service; never values. */
  accounts(): Promise<string[]>;
}
