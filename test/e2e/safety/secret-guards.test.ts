import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShimClient } from '../../integration/shim/support/shim-client.js';
import {
  addFixture,
  fixtureServer,
  startDaemon,
  type RunningDaemon,
} from '../../support/running-daemon.js';
import { runCoffer } from '../secrets/run-coffer.js';

/** Distinct and unlikely anywhere by chance, so a hit is a leak. */
const ALPHA = `alpha-${Math.random().toString(36).slice(2)}-Qx7`;
const BETA = `beta-${Math.random().toString(36).slice(2)}-Wy4`;
const ALPHA_NAME = 'alpha/env/ALPHA_KEY';
const MARKER = `[redacted: secret ${ALPHA_NAME}]`;
/** The shape of an AWS access key id (AWS's documented example), stored nowhere. */
const AWS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';

/** The error of a refused MCP request: its Coffer code, data and message. */
async function refusal(request: Promise<unknown>) {
  const error = (await request.then(
    () => undefined,
    (e: unknown) => e,
  )) as { message: string; data?: Record<string, unknown> } | undefined;
  expect(error, 'the request was not refused').toBeDefined();
  return { message: error?.message ?? '', data: error?.data ?? {} };
}

const echoText = (result: unknown): string =>
  (result as { content: { text: string }[] }).content[0]?.text ?? '';

async function activityRows(daemon: RunningDaemon, query: string) {
  const answer = await daemon.api('GET', `/activity?${query}`);
  expect(answer.status).toBe(200);
  return answer.body.activity as { server: string; error_code: string | null; guard: string }[];
}

/** Registers the fixture as `name`, owning env secret `secret` with `value` (piped, file store). */
async function addWithSecret(daemon: RunningDaemon, name: string, secret: string, value: string) {
  const added = await runCoffer(
    daemon.env,
    ['mcp', 'add', name, '--secret-env', secret, '--from-stdin', '--', 'node', fixtureServer],
    `${value}\n`,
  );
  expect(added.code, added.stderr).toBe(0);
}

describe('secret guards (issue 20.3): two servers, each owning a stored secret', () => {
  let daemon: RunningDaemon;
  let client: Client;

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' });
    await addWithSecret(daemon, 'alpha', 'ALPHA_KEY', ALPHA);
    await addWithSecret(daemon, 'beta', 'BETA_KEY', BETA);
    client = await daemon.client({ name: 'guard-test' });
  });
  afterAll(() => daemon?.stop());

  it("refuses alpha's secret sent to beta with SECRET_BLOCKED, by name, in any encoding", async () => {
    for (const message of [`use ${ALPHA}`, Buffer.from(`x${ALPHA}y`).toString('base64')]) {
      const { message: text, data } = await refusal(
        client.callTool({ name: 'beta__echo', arguments: { message } }),
      );
      expect(data).toMatchObject({ coffer_code: 'SECRET_BLOCKED', secrets: [ALPHA_NAME] });
      expect(text).toContain(ALPHA_NAME);
      expect(text + JSON.stringify(data)).not.toContain(ALPHA);
    }
    const prompt = await refusal(
      client.getPrompt({ name: 'beta__greeting', arguments: { name: ALPHA } }),
    );
    expect(prompt.data).toMatchObject({ coffer_code: 'SECRET_BLOCKED' });
  });

  it("passes alpha's own secret to alpha, and redacts it from every answer", async () => {
    const echoed = await client.callTool({ name: 'alpha__echo', arguments: { message: ALPHA } });
    expect(echoText(echoed)).toBe(JSON.stringify({ message: MARKER }));
    // The upstream was given its secret at spawn; what it prints comes back redacted.
    const env = await client.callTool({ name: 'alpha__env', arguments: { name: 'ALPHA_KEY' } });
    expect(echoText(env)).toBe(MARKER);
    const prompt = await client.getPrompt({
      name: 'alpha__greeting',
      arguments: { name: ALPHA },
    });
    expect(JSON.stringify(prompt)).toContain(`Hello, ${MARKER}!`);
    expect(JSON.stringify([echoed, env, prompt])).not.toContain(ALPHA);
  });

  it('flags a credential shape in activity and lets the call run', async () => {
    const echoed = await client.callTool({ name: 'beta__echo', arguments: { key: AWS_KEY_ID } });
    expect(echoText(echoed)).toContain(AWS_KEY_ID);
    await expect
      .poll(async () => (await activityRows(daemon, 'guard=credential_flagged'))[0])
      .toMatchObject({ server: 'beta', error_code: null, guard: 'credential_flagged' });
  });

  it('records what the guard did in REST and `coffer activity`, never the secret', async () => {
    await expect
      .poll(async () => (await activityRows(daemon, 'guard=any&limit=1000')).length)
      .toBeGreaterThanOrEqual(6);
    const blocked = await activityRows(daemon, 'guard=secret_blocked');
    expect(blocked.map((row) => [row.server, row.error_code])).toContainEqual([
      'beta',
      'SECRET_BLOCKED',
    ]);
    expect(await activityRows(daemon, 'guard=redacted&server=alpha')).toHaveLength(3);
    const json = await runCoffer(daemon.env, ['activity', '--json', '--guard', 'redacted']);
    expect(json.code, json.stderr).toBe(0);
    const rows = (JSON.parse(json.stdout) as { activity: { guard: string }[] }).activity;
    expect(rows.map((row) => row.guard)).toEqual(['redacted', 'redacted', 'redacted']);
    const lines = await runCoffer(daemon.env, ['activity', '--guard', 'any']);
    expect(lines.stdout).toContain('guard: secret_blocked');
    expect(lines.stdout).toContain('guard: credential_flagged');
    const everything = JSON.stringify(await activityRows(daemon, 'limit=1000'));
    for (const output of [json.stdout, lines.stdout, everything]) {
      expect(output).not.toContain(ALPHA);
      expect(output).not.toContain(BETA);
    }
    const wrong = await runCoffer(daemon.env, ['activity', '--guard', 'sometimes']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('--guard must be one of');
  });

  it('guards the UI\'s "Try a tool" (REST) the same way: refused across, redacted back', async () => {
    const across = await daemon.api('POST', '/servers/beta/call', {
      tool: 'echo',
      arguments: { message: ALPHA },
    });
    expect(across.body).toMatchObject({
      outcome: 'error',
      error: { code: 'SECRET_BLOCKED' },
      activity: { guard: 'secret_blocked' },
    });
    const own = await daemon.api('POST', '/servers/alpha/call', {
      tool: 'env',
      arguments: { name: 'ALPHA_KEY' },
    });
    expect(own.body).toMatchObject({
      outcome: 'ok',
      result: { content: [{ type: 'text', text: MARKER }] },
      activity: { guard: 'redacted' },
    });
    expect(JSON.stringify([across.body, own.body])).not.toContain(ALPHA);
  });

  it('guards a 2026-07-28 client (no session) the same way', async () => {
    const modern = new ClientV2(
      { name: 'guard-modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(
      new StreamableHTTPClientTransport(new URL(`${daemon.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
      }),
    );
    try {
      const refused = await refusal(
        modern.callTool({ name: 'beta__echo', arguments: { message: ALPHA } }),
      );
      expect(refused.data).toMatchObject({ coffer_code: 'SECRET_BLOCKED' });
      const echoed = await modern.callTool({ name: 'alpha__echo', arguments: { message: ALPHA } });
      expect(echoText(echoed)).toBe(JSON.stringify({ message: MARKER }));
    } finally {
      await modern.close();
    }
  });

  it('guards calls through coffer shim too', async () => {
    const shim = ShimClient.spawn(daemon.env);
    try {
      await shim.initialize();
      const refused = await shim.request('tools/call', {
        name: 'beta__echo',
        arguments: { message: ALPHA },
      });
      expect(refused.error?.data).toMatchObject({ coffer_code: 'SECRET_BLOCKED' });
      const echoed = await shim.request('tools/call', {
        name: 'alpha__echo',
        arguments: { message: ALPHA },
      });
      expect(echoed.result.content[0].text).toBe(JSON.stringify({ message: MARKER }));
    } finally {
      expect(await shim.close()).toEqual({ code: 0, signal: null });
    }
    expect(shim.nonJsonRpcLines()).toEqual([]);
  });
});

describe('COFFER_BLOCK_CREDENTIALS=1', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file', COFFER_BLOCK_CREDENTIALS: '1' });
    await addFixture(daemon, 'beta');
  });
  afterAll(() => daemon?.stop());

  it('refuses a credential shape with CREDENTIAL_BLOCKED, and says so in status', async () => {
    const client = await daemon.client({ name: 'blocking-test' });
    const { message, data } = await refusal(
      client.callTool({ name: 'beta__echo', arguments: { key: AWS_KEY_ID } }),
    );
    expect(data).toMatchObject({
      coffer_code: 'CREDENTIAL_BLOCKED',
      credentials: ['aws-access-key'],
    });
    expect(message).not.toContain(AWS_KEY_ID);
    await expect
      .poll(async () => (await activityRows(daemon, 'guard=any'))[0])
      .toMatchObject({
        server: 'beta',
        error_code: 'CREDENTIAL_BLOCKED',
        guard: 'credential_blocked',
      });
    expect((await daemon.api('GET', '/status')).body).toMatchObject({ block_credentials: true });
    const status = await runCoffer(daemon.env, ['status']);
    expect(status.stdout).toContain('credential shapes blocked (COFFER_BLOCK_CREDENTIALS=1)');
  });
});
