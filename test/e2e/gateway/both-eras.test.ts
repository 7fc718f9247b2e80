import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eventually } from '../../support/eventually.js';
import { addEverything } from '../../support/everything-server.js';
import { cofferBin, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { stringEnv, transportV2, type ClientPath } from '../../support/v2-transport.js';

type Era = 'pinned 2026-07-28' | 'auto' | 'v1 (2025-11-25)';
type Path = ClientPath;

/** The smallest surface both SDK generations share: list tools, call one. */
interface AnyClient {
  /** v2 clients only: the version they settled on. */
  getNegotiatedProtocolVersion?(): string | undefined;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

function transportV1(daemon: RunningDaemon, path: Path) {
  if (path === 'shim')
    return new StdioV1({
      command: process.execPath,
      args: [cofferBin, 'shim'],
      env: stringEnv(daemon.env),
    });
  return new HttpV1(new URL(`${daemon.baseUrl}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
  });
}

/** Each client's own name, so its activity row can be told from the others'. */
const clientName = (era: Era, path: Path) => `both-eras ${era} ${path}`;

async function connect(daemon: RunningDaemon, era: Era, path: Path): Promise<AnyClient> {
  const info = { name: clientName(era, path), version: '1.0.0' };
  if (era === 'v1 (2025-11-25)') {
    const client = new ClientV1(info, { capabilities: {} });
    await client.connect(transportV1(daemon, path));
    return client;
  }
  const mode = era === 'auto' ? 'auto' : { pin: '2026-07-28' };
  const client = new ClientV2(info, { versionNegotiation: { mode } });
  await client.connect(transportV2(daemon, path));
  return client;
}

/**
 * Issue 18: clients of both protocol eras (a v2 client pinned to 2026-07-28, a v2 client
 * negotiating, a v1 client on 2025-11-25) list and call server-everything's tools through
 * every way into Coffer.
 */
describe('both protocol eras downstream', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addEverything(daemon);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  const eras: Era[] = ['pinned 2026-07-28', 'auto', 'v1 (2025-11-25)'];
  const paths: Path[] = ['/mcp', '/servers/everything/mcp', 'shim'];
  const cases = eras.flatMap((era) => paths.map((path) => [era, path] as const));

  it.each(cases)('a %s client lists and calls echo through %s', async (era, path) => {
    const client = await connect(daemon, era, path);
    try {
      // A negotiating v2 client finds 2026-07-28 offered and takes it.
      if (era !== 'v1 (2025-11-25)')
        expect(client.getNegotiatedProtocolVersion?.()).toBe('2026-07-28');
      const echo = path === '/servers/everything/mcp' ? 'echo' : 'everything__echo';
      await eventually(async () => {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain(echo);
      });
      const result = await client.callTool({ name: echo, arguments: { message: `hi ${era}` } });
      expect(JSON.stringify(result)).toContain(`hi ${era}`);
      // The call's activity row names this client: a 2026-07-28 request by its envelope.
      await eventually(async () => {
        const { body } = await daemon.api('GET', '/activity?server=everything');
        const rows = body.activity as { action: string; client_name: string | null }[];
        expect(rows).toContainEqual(
          expect.objectContaining({
            action: 'tools/call',
            client_name: clientName(era, path),
            client_version: '1.0.0',
          }),
        );
      });
    } finally {
      await client.close();
    }
  });

  it.each(['/mcp', 'shim'] as const)(
    'asks a pinned 2026-07-28 client an upstream sampling question through %s (input_required, then its retry)',
    async (path) => {
      const client = new ClientV2(
        { name: 'sampling-2026', version: '1.0.0' },
        { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      client.setRequestHandler('sampling/createMessage', () => ({
        role: 'assistant',
        content: { type: 'text', text: 'sampled by the 2026 client' },
        model: 'test-model',
      }));
      await client.connect(transportV2(daemon, path));
      try {
        await eventually(async () => {
          const { tools } = await client.listTools();
          expect(tools.map((tool) => tool.name)).toContain('everything__trigger-sampling-request');
        });
        const result = await client.callTool({
          name: 'everything__trigger-sampling-request',
          arguments: { prompt: 'hello', maxTokens: 10 },
        });
        expect(JSON.stringify(result)).toContain('sampled by the 2026 client');
      } finally {
        await client.close();
      }
    },
  );
});
