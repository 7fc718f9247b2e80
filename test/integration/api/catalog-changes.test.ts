import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerCapabilities } from '../../../src/domain/ports.js';
import { fixtureServer as FIXTURE } from '../../support/running-daemon.js';
import { startLiveServices, type LiveServices } from './live-services.js';

let live: LiveServices;
const call = (method: string, path: string, body?: unknown) => live.call(method, path, body);

/**
 * Listens on GET /events (what the web UI listens on) until an event `matches`; returns
 * once the stream said it is listening (`ready`), `heard` settling on that event.
 */
async function listenFor(matches: (event: { type: string; server?: string }) => boolean) {
  const response = await call('GET', '/events');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<{ type: string; server?: string }> => {
    for (;;) {
      const line = buffer.split('\n').find((each) => each.startsWith('data: '));
      if (line !== undefined) {
        buffer = buffer.slice(buffer.indexOf(line) + line.length);
        return JSON.parse(line.slice('data: '.length)) as { type: string; server?: string };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += value;
    }
  };
  expect((await next()).type).toBe('ready');
  const heard = (async () => {
    for (let event = await next(); ; event = await next()) {
      if (matches(event)) return void (await reader.cancel());
    }
  })();
  return { heard };
}

beforeAll(async () => {
  // A list deadline the server below misses while it starts (its own request for the
  // list, made once it answered initialize, is quick).
  live = await startLiveServices({ listTimeoutMs: 200 });
  const added = await call('POST', '/servers', {
    name: 'slow',
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURE, '--scenario', 'basic', '--init-delay-ms', '1000'],
  });
  expect(added.status).toBe(201);
  // Its tool set changes after its first call, and it says so (tools/list_changed).
  const mutating = await call('POST', '/servers', {
    name: 'mutating',
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURE, '--scenario', 'mutating'],
  });
  expect(mutating.status).toBe(201);
});

afterAll(async () => {
  await live?.close();
});

/**
 * The web UI's server page lists a server once; a server that misses the list deadline
 * (slow to start on a busy machine) must not leave it at "could not load" for good: when
 * its list arrives the daemon says `server.changed`, on which the page lists again.
 */
describe('a server that lists after the deadline', () => {
  it('answers "could not load", then announces the late list, then lists', async () => {
    const changed = await listenFor(
      (event) => event.type === 'server.changed' && event.server === 'slow',
    );
    const first = (await (
      await call('GET', '/servers/slow/capabilities')
    ).json()) as ServerCapabilities;
    expect(first.tools).toMatchObject({
      status: 'could-not-load',
      error: { code: 'UPSTREAM_TIMEOUT' },
    });
    await changed.heard;
    const again = await call('GET', '/servers/slow/capabilities');
    expect(again.status).toBe(200);
    const capabilities = (await again.json()) as ServerCapabilities;
    expect(capabilities.tools.status).toBe('ok');
    expect(capabilities.tools.items.map((item) => item.key)).toContain('echo');
  });
});

/**
 * The admin lists are read live, so a change the upstream announces on the admin
 * connection (here after a call from the UI's "Try a tool") is only news to the UI: the
 * daemon says `server.changed`, on which the page lists again.
 */
describe('a server whose tools change while the UI shows them', () => {
  it('announces the change the upstream said, and lists the new tools', async () => {
    const toolKeys = async () => {
      const listed = (await (
        await call('GET', '/servers/mutating/capabilities')
      ).json()) as ServerCapabilities;
      return listed.tools.items.filter((item) => item.definition !== null).map((i) => i.key);
    };
    // Listed once it has started (this file's list deadline is short).
    await expect.poll(toolKeys).toContain('echo');
    const changed = await listenFor(
      (event) => event.type === 'server.changed' && event.server === 'mutating',
    );
    const ran = await call('POST', '/servers/mutating/call', {
      tool: 'echo',
      arguments: { message: 'hi' },
    });
    expect(ran.status).toBe(200);
    await changed.heard;
    expect(await toolKeys()).toContain('echo_v2');
  });
});

/**
 * A refresh (the UI's button, `coffer mcp refresh`, a sign-in) is news to every open page.
 * Of a server nothing answers for (nothing listens on port 9), so no late list announces it.
 */
describe('a refreshed server', () => {
  it('announces server.changed', async () => {
    const added = await call('POST', '/servers', {
      name: 'down',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
    });
    expect(added.status).toBe(201);
    const changed = await listenFor(
      (event) => event.type === 'server.changed' && event.server === 'down',
    );
    expect((await call('POST', '/servers/down/refresh')).status).toBe(200);
    await changed.heard;
  });
});
