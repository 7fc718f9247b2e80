import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../support/running-daemon.js';
import { expectMcpAnswer, rpcMessages } from './support/answer-shapes.js';
import { fuzzSettings, propertyParameters } from './support/fuzz-settings.js';
import { idText, jsonText, METHODS } from './support/hostile-json.js';
import { closeSession, mcpHeaders, openSession, postMcp } from './support/mcp-session.js';

/**
 * Issue #19 item 2, as a property: inside a live session, a request with any id (huge,
 * fractional, out of range, not an id at all), any method and any params, with or without
 * duplicate keys, gets a JSON-RPC answer or a 4xx, never a 200 with nothing in it.
 */
const settings = fuzzSettings();

const requestText = fc
  .record({
    id: idText,
    method: fc.constantFrom(...METHODS.filter((method) => !method.startsWith('notifications/'))),
    params: jsonText,
    duplicate: fc.option(fc.tuple(idText, jsonText), { nil: undefined }),
  })
  .map(({ id, method, params, duplicate }) => {
    const repeated =
      duplicate === undefined ? '' : `,"id":${duplicate[0]},"params":${duplicate[1]}`;
    return `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${params}${repeated}}`;
  });

describe('no empty 200 on the MCP endpoints', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    const added = await daemon.api('POST', '/servers', {
      name: 'fx',
      transport: 'stdio',
      command: process.execPath,
      args: [fixture],
    });
    expect(added.status).toBe(201);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it.each(['/mcp', '/servers/fx/mcp'])(
    'POST %s: every request is answered or refused',
    async (path) => {
      const session = await openSession(daemon, path);
      await fc.assert(
        fc.asyncProperty(requestText, async (body) => {
          const answer = await postMcp(daemon, path, body, mcpHeaders(daemon, session));
          const where = `${path} ${body.slice(0, 200)}`;
          expectMcpAnswer(answer, where);
          if (answer.status === 200) expect(rpcMessages(answer).length, where).toBeGreaterThan(0);
          else expect(answer.status, where).toBeGreaterThanOrEqual(400);
        }),
        propertyParameters(`no empty 200 ${path}`, settings),
      );
      await closeSession(daemon, path, session);
    },
  );
});
