import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { eventually } from '../../support/eventually.js';
import { addEverything } from '../../support/everything-server.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { transportV2, type ClientPath } from '../../support/v2-transport.js';

const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const URL_TOOL = 'everything__trigger-url-elicitation';
const ROOT = { uri: 'file:///tmp/coffer-extras', name: 'coffer-extras' };

type Text = { content?: { type: string; text?: string }[] };
const textOf = (result: unknown) =>
  ((result as Text).content ?? []).map((block) => block.text ?? '').join('\n');

/** A v2 client pinned to 2026-07-28 through `path`, declaring roots and answering them. */
async function modernClient(daemon: RunningDaemon, path: ClientPath, name: string) {
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: { roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('roots/list', () => ({ roots: [ROOT] }));
  await client.connect(transportV2(daemon, path));
  await eventually(async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('everything__get-roots-list');
  });
  return client;
}

/**
 * Calls one of server-everything's toggles until it says it started (it may have been
 * on already: its state is per upstream connection, which 2026-07-28 clients share).
 */
async function toggleOn(client: Client, tool: string, meta: Record<string, unknown> = {}) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await client.callTool({ name: tool, arguments: {}, _meta: meta });
    if (textOf(result).startsWith('Started')) return;
  }
  throw new Error(`${tool} never said it started`);
}

/**
 * Issue 18, what 2026-07-28 clients lacked: resource subscriptions through
 * subscriptions/listen, roots through input_required, and log lines on the request that
 * asked for them; a real SDK v2 client against server-everything, over HTTP and the shim.
 */
describe('a 2026-07-28 client gets resource updates, roots and log lines', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addEverything(daemon);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it.each(['/mcp', 'shim'] as const)(
    'hears the updates of the resource it listens to, and only those, through %s',
    async (path) => {
      const client = await modernClient(daemon, path, `extras updates ${path}`);
      const other = await modernClient(daemon, path, `extras bystander ${path}`);
      try {
        const { resources } = await client.listResources();
        const documents = resources
          .map((resource) => resource.uri)
          .filter((uri) => uri.startsWith('coffer://everything/demo://resource/static/'));
        const [watched, unwatched] = documents;
        expect(unwatched).toBeDefined();
        const heard: string[] = [];
        const overheard: string[] = [];
        client.setNotificationHandler('notifications/resources/updated', (n) => {
          heard.push(n.params.uri);
        });
        other.setNotificationHandler('notifications/resources/updated', (n) => {
          overheard.push(n.params.uri);
        });
        const subscription = await client.listen({ resourceSubscriptions: [watched!] });
        const bystander = await other.listen({ toolsListChanged: true });
        expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [watched] });
        await toggleOn(other, 'everything__toggle-subscriber-updates');
        await eventually(() => expect(heard).toContain(watched));
        expect(heard.every((uri) => uri === watched)).toBe(true);
        await subscription.close();
        await bystander.close();
        expect(overheard).toEqual([]);
      } finally {
        await client.close();
        await other.close();
      }
    },
  );

  it.each(['/mcp', 'shim'] as const)(
    'answers an upstream roots/list during its call through %s (input_required, then its retry)',
    async (path) => {
      const client = await modernClient(daemon, path, `extras roots ${path}`);
      try {
        const result = await client.callTool({ name: 'everything__get-roots-list', arguments: {} });
        expect(textOf(result)).toContain(ROOT.uri);
      } finally {
        await client.close();
      }
    },
  );

  it.each(['/mcp', 'shim'] as const)(
    "passes server-everything's URL-mode elicitation to a client that declared it through %s",
    async (path) => {
      const client = new Client(
        { name: `extras url ${path}`, version: '1.0.0' },
        {
          capabilities: { elicitation: { url: {} } },
          versionNegotiation: { mode: { pin: '2026-07-28' } },
        },
      );
      const asked: unknown[] = [];
      client.setRequestHandler('elicitation/create', (request) => {
        asked.push(request.params);
        return { action: 'accept' };
      });
      await client.connect(transportV2(daemon, path));
      try {
        // Listed because the bridge's upstream connection declares URL mode.
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain(URL_TOOL);
        const url = 'https://example.test/sign-in';
        const result = await client.callTool({ name: URL_TOOL, arguments: { url } });
        expect(textOf(result)).toContain('User completed the URL elicitation flow');
        expect(asked).toEqual([expect.objectContaining({ mode: 'url', url })]);
      } finally {
        await client.close();
      }
    },
  );

  it('refuses that question for a client of form mode only, naming elicitation.url', async () => {
    const client = new Client(
      { name: 'extras form only', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
    await client.connect(transportV2(daemon, '/mcp'));
    try {
      const call = client.callTool({ name: URL_TOOL, arguments: { url: 'https://example.test' } });
      await expect(call).rejects.toMatchObject({
        code: -32021,
        message: expect.stringContaining('elicitation.url') as unknown,
      });
    } finally {
      await client.close();
    }
  });

  it.each(['/mcp', 'shim'] as const)(
    "gets the upstream's log lines on the call that asked for them through %s",
    async (path) => {
      const client = await modernClient(daemon, path, `extras logs ${path}`);
      try {
        const lines: unknown[] = [];
        client.setNotificationHandler('notifications/message', (n) => {
          lines.push(n.params);
        });
        // server-everything logs once at once when its simulated logging starts.
        await toggleOn(client, 'everything__toggle-simulated-logging', { [LOG_LEVEL]: 'debug' });
        expect(lines).toContainEqual(
          expect.objectContaining({ data: expect.stringContaining('message') as unknown }),
        );
        const quiet = lines.length;
        await client.callTool({ name: 'everything__echo', arguments: { message: 'no logs' } });
        expect(lines).toHaveLength(quiet);
      } finally {
        await client.close();
      }
    },
  );
});
