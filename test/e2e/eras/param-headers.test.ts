import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { postModernRaw } from '../../support/modern-post.js';
import { transportV2 } from '../../support/v2-transport.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Text = { content?: { type: string; text?: string }[] };
const textOf = (result: unknown) =>
  ((result as Text).content ?? []).map((block) => block.text ?? '').join('\n');

/** The fixture's tool as `path` names it. */
const toolAt = (path: string) =>
  path === '/mcp' ? 'fixture__test_region_header' : 'test_region_header';

/**
 * SEP-2243 on Coffer's HTTP edge: a tool of the fixture marks `region` with
 * `x-mcp-header: Region`, so a 2026-07-28 HTTP client sends it again as
 * `Mcp-Param-Region`, and Coffer refuses a call whose header is missing or different.
 */
describe('Mcp-Param-* headers of 2026-07-28 clients', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fixture', ['--scenario', 'conformance']);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  /** A real SDK v2 client pinned to 2026-07-28, through `path` ('shim': stdio, no headers). */
  async function modernClient(path: string): Promise<Client> {
    const client = new Client(
      { name: `param headers ${path}`, version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport =
      path === 'shim'
        ? transportV2(daemon, 'shim')
        : new StreamableHTTPClientTransport(new URL(`${daemon.baseUrl}${path}`), {
            requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
          });
    await client.connect(transport);
    return client;
  }

  it.each(['/mcp', '/servers/fixture/mcp', 'shim'])(
    'lets an SDK v2 client call the tool through %s, plain and non-ASCII values alike',
    async (path) => {
      const client = await modernClient(path);
      try {
        const name = path === 'shim' ? toolAt('/mcp') : toolAt(path);
        const { tools } = await client.listTools();
        const listed = tools.find((tool) => tool.name === name);
        // The declaration survives /mcp's renaming: it is what the client mirrors from.
        expect(listed?.inputSchema.properties?.['region']).toMatchObject({
          'x-mcp-header': 'Region',
        });
        for (const region of ['eu-west-1', 'Zürich Nord']) {
          const result = await client.callTool({ name, arguments: { region } });
          expect(textOf(result)).toBe(`region: ${region}`);
        }
      } finally {
        await client.close();
      }
    },
  );

  /** One raw 2026-07-28 tools/call POST with `extra` headers. */
  function rawCall(path: string, region: string, extra: Record<string, string>) {
    const params = { name: toolAt(path), arguments: { region }, _meta: ENVELOPE };
    const message = { jsonrpc: '2.0', id: 7, method: 'tools/call', params } as const;
    return postModernRaw(daemon, message, path, extra);
  }

  /** What a client that puts UTF-8 straight into a header sends, as Node reads it (latin1). */
  const rawUtf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

  it('refuses raw UTF-8 in Mcp-Param-* and Mcp-Name, showing it as meant, with the base64 form to send', async () => {
    const param = await rawCall('/mcp', 'Zürich Nord', {
      'mcp-param-region': rawUtf8('Zürich Nord'),
    });
    expect(param.status).toBe(400);
    const paramError = param.body['error'] as { code: number; message: string };
    expect(paramError.code).toBe(-32020);
    expect(paramError.message).toContain(
      'the Mcp-Param-Region header carries "Zürich Nord" as raw non-ASCII text; send non-ASCII values base64-encoded as =?base64?…?=: send Mcp-Param-Region: =?base64?WsO8cmljaCBOb3Jk?=',
    );
    expect(paramError.message).not.toContain('Ã');

    const name = 'fixture__zürich';
    const params = { name, arguments: {}, _meta: ENVELOPE };
    const message = { jsonrpc: '2.0', id: 8, method: 'tools/call', params } as const;
    const named = await postModernRaw(daemon, message, '/mcp', { 'mcp-name': rawUtf8(name) });
    expect(named.status).toBe(400);
    const nameError = named.body['error'] as { code: number; message: string };
    expect(nameError.code).toBe(-32020);
    expect(nameError.message).toContain(
      'the Mcp-Name header carries "fixture__zürich" as raw non-ASCII text; send non-ASCII values base64-encoded as =?base64?…?=: send Mcp-Name: =?base64?Zml4dHVyZV9fesO8cmljaA==?=',
    );
    expect(nameError.message).not.toContain('Ã');
  });

  it.each(['/mcp', '/servers/fixture/mcp'])(
    'answers a raw call through %s whose Mcp-Param-Region is missing or wrong with 400 / -32020',
    async (path) => {
      const missing = await rawCall(path, 'eu-west-1', {});
      expect(missing).toMatchObject({
        status: 400,
        body: {
          id: 7,
          error: {
            code: -32020,
            message: expect.stringContaining(
              'the Mcp-Param-Region header is absent; send Mcp-Param-Region: eu-west-1',
            ) as unknown,
          },
        },
      });
      const wrong = await rawCall(path, 'eu-west-1', { 'mcp-param-region': 'us-east-1' });
      expect(wrong.status).toBe(400);
      expect(wrong.body['error']).toMatchObject({ code: -32020 });
      const broken = await rawCall(path, 'Hello', { 'mcp-param-region': '=?base64?SGVsbG8?=' });
      expect(broken.status).toBe(400);
      const right = await rawCall(path, 'Hello', { 'mcp-param-region': '=?base64?SGVsbG8=?=' });
      expect(right).toMatchObject({ status: 200, body: { result: { resultType: 'complete' } } });
      expect(textOf(right.body['result'])).toBe('region: Hello');
    },
  );
});
