import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  ProgressNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CofferError } from '../domain/errors.js';
import type {
  JsonObject,
  UpstreamConnection,
  UpstreamPeer,
  UpstreamRequestOptions,
} from '../domain/ports.js';
import { fromSdkError, isBrokenStream, type SdkErrorContext } from './rpc-error.js';
import { RequestDeadline } from './request-deadline.js';
import { relayValidator } from '../domain/relay-validator.js';
import { handshakeError, startReport } from './handshake-error.js';

/** Accept any result object: a gateway relays verbatim (DESIGN.md §1). */
const looseResult = z.looseObject({});

type ProgressToken = string | number;

export interface SdkConnectionOptions {
  readonly server: string;
  readonly transport: Transport;
  readonly clientCapabilities: JsonObject;
  readonly peer: UpstreamPeer;
  readonly clientInfo: { name: string; version: string };
  readonly defaultTimeoutMs: number;
  /** Bounds the initialize handshake (a stdio upstream's start-up included). */
  readonly connectTimeoutMs: number;
  readonly maxTotalTimeoutMs?: number;
  /** Aborting it during the handshake closes the transport (and kills a stdio child). */
  readonly signal?: AbortSignal;
}

/**
 * One MCP client session with one upstream, built on the SDK Client but relaying raw
 * JSON-RPC: loose result schemas, the client's own progress tokens kept, upstream
 * requests and notifications handed to the session's peer.
 */
export class SdkUpstreamConnection implements UpstreamConnection {
  readonly server: string;
  readonly closed: Promise<void>;
  private readonly client: Client;
  private readonly progressRoutes = new Map<ProgressToken, (params: JsonObject) => void>();
  private isClosed = false;
  private markClosed!: () => void;

  private constructor(private readonly options: SdkConnectionOptions) {
    this.server = options.server;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    this.client = new Client(options.clientInfo, {
      capabilities: options.clientCapabilities,
      jsonSchemaValidator: relayValidator,
    });
    this.routeUpstreamMessages(options.peer);
  }

  static async open(options: SdkConnectionOptions): Promise<SdkUpstreamConnection> {
    const connection = new SdkUpstreamConnection(options);
    options.transport.onclose = () => connection.onTransportClosed();
    const abort = () => void connection.close();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      options.signal?.throwIfAborted();
      await connection.client.connect(options.transport, { timeout: options.connectTimeoutMs });
    } catch (error) {
      // Read before closing: closing ends the process, which would hide how it ended.
      const report = startReport(options.transport);
      await connection.close();
      throw handshakeError(options.server, error, report, options.connectTimeoutMs);
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    // connect() replaced onclose with the Protocol's; chain ours after it.
    const protocolOnClose = options.transport.onclose;
    options.transport.onclose = () => {
      protocolOnClose?.();
      connection.onTransportClosed();
    };
    // A cut stream fails every request waiting on this connection at once (closing
    // rejects them), instead of leaving them to their timeout; the pool then forgets it.
    connection.client.onerror = (error) => {
      if (isBrokenStream(error)) void connection.close().catch(() => undefined);
    };
    return connection;
  }

  get serverCapabilities(): JsonObject {
    return this.client.getServerCapabilities() ?? {};
  }

  async request(
    method: string,
    params: JsonObject | undefined,
    options: UpstreamRequestOptions = {},
  ): Promise<JsonObject> {
    if (this.isClosed) throw fromSdkError(undefined, this.errorContext());
    const token = progressTokenOf(params);
    const deadline = new RequestDeadline(
      options.timeoutMs ?? this.options.defaultTimeoutMs,
      this.options.maxTotalTimeoutMs,
      (reason) => deadline.controller.abort(this.timeoutError(method, reason)),
    );
    const onAbort = () => deadline.controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (token !== undefined) {
      this.progressRoutes.set(token, (progress) => {
        deadline.touch();
        options.onProgress?.(progress);
      });
    }
    try {
      const request = params === undefined ? { method } : { method, params };
      // The deadline above owns timing; the SDK's own timer only backs it up.
      return await this.client.request(request, looseResult, {
        signal: deadline.controller.signal,
        timeout: 2 ** 31 - 1,
      });
    } catch (error) {
      const reason: unknown = deadline.controller.signal.reason;
      if (reason instanceof CofferError) throw reason;
      throw fromSdkError(error, this.errorContext());
    } finally {
      deadline.clear();
      options.signal?.removeEventListener('abort', onAbort);
      if (token !== undefined) this.progressRoutes.delete(token);
    }
  }

  async notify(method: string, params: JsonObject | undefined): Promise<void> {
    if (this.isClosed) return;
    await this.client.notification(params === undefined ? { method } : { method, params });
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    try {
      await this.client.close();
    } finally {
      this.markClosed();
    }
  }

  private errorContext(): SdkErrorContext {
    return { server: this.server, closed: this.isClosed, established: true };
  }

  private onTransportClosed(): void {
    this.isClosed = true;
    this.markClosed();
  }

  private routeUpstreamMessages(peer: UpstreamPeer): void {
    // Progress is routed by the client's own token, synchronously, so the last one
    // before the result is never lost (DESIGN.md §1).
    this.client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      const route = this.progressRoutes.get(notification.params.progressToken);
      route?.(notification.params);
    });
    this.client.fallbackNotificationHandler = (notification) => {
      peer.notify(notification.method, notification.params);
      return Promise.resolve();
    };
    this.client.fallbackRequestHandler = async (request, extra) => {
      return await peer.request(request.method, request.params, extra.signal);
    };
  }

  private timeoutError(method: string, reason: 'idle' | 'cap'): CofferError {
    const what = reason === 'idle' ? 'went silent' : 'took longer than the overall limit';
    return new CofferError('UPSTREAM_TIMEOUT', `Upstream "${this.server}" ${what} on ${method}`, {
      data: { server: this.server, method },
    });
  }
}

function progressTokenOf(params: JsonObject | undefined): ProgressToken | undefined {
  const meta = params?.['_meta'];
  if (meta === null || typeof meta !== 'object') return undefined;
  const token = (meta as JsonObject)['progressToken'];
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/** What an upstream gets when it asks for something the client did not declare. */
export function methodNotFound(method: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}
