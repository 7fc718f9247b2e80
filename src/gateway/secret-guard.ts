import { findCredentialShapes } from '../domain/credential-shapes.js';
import type { GuardedSecrets, JsonObject } from '../domain/ports.js';
import {
  refuseCredentials,
  refuseForeignSecrets,
  type GuardEvent,
} from '../domain/secret-refusals.js';
import { buildSecretMatcher, type SecretMatcher } from '../domain/secret-scan.js';

export interface SecretGuardOptions {
  readonly secrets: GuardedSecrets;
  /** COFFER_BLOCK_CREDENTIALS: refuse credential shapes instead of only flagging them. */
  readonly blockCredentials?: boolean;
}

/** A text with every stored secret in it replaced by its marker. */
export type TextRedaction = (text: string) => string;

/** What the guard made of a result: the result to pass on and what it did. */
export interface GuardedResult {
  readonly result: JsonObject;
  readonly events: GuardEvent[];
}

/**
 * The secret guard (issue 20.3), one per daemon, shared by every session. Outgoing
 * params are scanned as JSON text once: a stored secret of another server is refused
 * (SECRET_BLOCKED), a credential shape is flagged, or refused when blocking is on
 * (CREDENTIAL_BLOCKED). Results are scanned the same way and, only when a secret is
 * there, walked to replace it by its marker. The matcher is built on first need after
 * a change of secrets or definitions (invalidate), never per call.
 */
export class SecretGuard {
  private matcher: Promise<SecretMatcher> | undefined;
  /** The matcher `matcher` resolved to, while it is still the current one. */
  private built: SecretMatcher | undefined;

  constructor(private readonly options: SecretGuardOptions) {}

  get blocksCredentials(): boolean {
    return this.options.blockCredentials === true;
  }

  /** Secrets, OAuth tokens or server definitions changed: the next check reads them again. */
  invalidate(): void {
    this.matcher = undefined;
    this.built = undefined;
  }

  /** Throws SECRET_BLOCKED or CREDENTIAL_BLOCKED; else the events to record. */
  async checkOutgoing(server: string, params: unknown): Promise<GuardEvent[]> {
    let text = JSON.stringify(params ?? null);
    const matcher = await this.current();
    if (!matcher.empty) {
      const found = matcher.redact(text);
      refuseForeignSecrets(found.hits, server);
      // A server's own secret passes, even when it also has a credential's shape.
      text = found.text;
    }
    const kinds = findCredentialShapes(text);
    refuseCredentials(kinds, server, this.blocksCredentials);
    return kinds.length === 0 ? [] : ['credential_flagged'];
  }

  /** The result with every stored secret replaced by `[redacted: secret NAME]`. */
  async redactResult(result: JsonObject): Promise<GuardedResult> {
    const matcher = await this.current();
    if (matcher.empty || matcher.find(JSON.stringify(result)).length === 0)
      return { result, events: [] };
    return { result: redactTree(result, matcher) as JsonObject, events: ['redacted'] };
  }

  /**
   * Hands `use` the value with every stored secret replaced: at once when the matcher is
   * built (so a server's log line keeps its place beside the answers), else once it is.
   * Not at all when the secrets cannot be read: a log line is not worth the guess.
   */
  withRedacted<T>(value: T, use: (redacted: T) => void): void {
    const apply = (matcher: SecretMatcher): void =>
      use(
        matcher.empty || matcher.find(JSON.stringify(value ?? null)).length === 0
          ? value
          : (redactTree(value, matcher) as T),
      );
    if (this.built !== undefined) return apply(this.built);
    void this.current().then(apply, () => undefined);
  }

  /** A text a client will read (a server's instructions) with every stored secret replaced. */
  async redactText(text: string): Promise<string> {
    const matcher = await this.current();
    return matcher.empty ? text : matcher.redact(text).text;
  }

  /**
   * For what Coffer writes down of a client's own words (a tool name, a client name: the
   * activity log and coffer.log), which must not keep a stored secret either.
   */
  async textRedaction(): Promise<TextRedaction> {
    return redactionBy(await this.current());
  }

  /** The same without waiting, once the matcher is built; undefined until then. */
  readyTextRedaction(): TextRedaction | undefined {
    return this.built === undefined ? undefined : redactionBy(this.built);
  }

  /**
   * Runs `use` with the text redaction: at once when the matcher is built, else once it
   * is; with `unreadable` when the secrets cannot be read. For writes that need not wait.
   */
  withTextRedaction(use: (redaction: TextRedaction) => void, unreadable: TextRedaction): void {
    const ready = this.readyTextRedaction();
    if (ready !== undefined) use(ready);
    else void this.textRedaction().then(use, () => use(unreadable));
  }

  private current(): Promise<SecretMatcher> {
    if (this.matcher === undefined) {
      const building = this.options.secrets.known().then(buildSecretMatcher);
      void building.then(
        (matcher) => {
          if (this.matcher === building) this.built = matcher;
        },
        () => undefined,
      );
      // A failed read (a locked keychain) fails this call and is tried again on the next.
      building.catch(() => {
        if (this.matcher === building) this.matcher = undefined;
      });
      this.matcher = building;
    }
    return this.matcher;
  }
}

function redactionBy(matcher: SecretMatcher): TextRedaction {
  return matcher.empty ? (text) => text : (text) => matcher.redact(text).text;
}

/** Every string of a JSON value, keys included, with the secrets in it replaced. */
function redactTree(value: unknown, matcher: SecretMatcher): unknown {
  if (typeof value === 'string') return matcher.redact(value).text;
  if (Array.isArray(value)) return value.map((item) => redactTree(item, matcher));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      matcher.redact(key).text,
      redactTree(item, matcher),
    ]),
  );
}
