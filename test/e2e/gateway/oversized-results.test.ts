import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';
import { runCoffer } from '../secrets/run-coffer.js';

/**
 * A big message for the fixture's `echo`, which answers its arguments as JSON text: about
 * 300,000 characters (75,000 tokens), with line-less words and characters outside the
 * BMP, so pages must be cut at spaces and never inside a surrogate pair.
 */
const bigMessage = Array.from({ length: 25_000 }, (_, i) => `word${i} 😀`).join(' ');
const bigText = JSON.stringify({ message: bigMessage });

type Content = { type: string; text?: string }[];

async function started(env: Record<string, string> = {}): Promise<RunningDaemon> {
  const daemon = await startDaemon(env);
  const added = await daemon.api('POST', '/servers', {
    name: 'fixture',
    transport: 'stdio',
    command: process.execPath,
    args: [fixture],
  });
  expect(added.status).toBe(201);
  return daemon;
}

async function echo(client: Client, name: string, message: string) {
  const result = await client.callTool({ name, arguments: { message } });
  return { result, content: result.content as Content };
}

/** The kept result's URI, as the note at the end of a cut answer names it. */
function keptUri(content: Content): string {
  const match = /(coffer:\/\/coffer\/results\/[A-Za-z0-9_-]+):/.exec(content.at(-1)?.text ?? '');
  if (match === null) throw new Error(`no kept result named in ${JSON.stringify(content.at(-1))}`);
  return match[1]!;
}

/** Reads pages 1, 2, … until the whole text is back; returns them. */
async function readPages(client: Client, uri: string, whole: number): Promise<string[]> {
  const pages: string[] = [];
  while (pages.join('').length < whole && pages.length < 50) {
    const { contents } = await client.readResource({ uri: `${uri}/${pages.length + 1}` });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({
      uri: `${uri}/${pages.length + 1}`,
      mimeType: 'text/plain',
    });
    pages.push((contents[0] as { text: string }).text);
  }
  return pages;
}

/** The error a read fails with, or undefined when it succeeds. */
async function readFailure(client: Client, uri: string): Promise<unknown> {
  return client.readResource({ uri }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
}

async function readError(client: Client, uri: string): Promise<McpError> {
  const error = await readFailure(client, uri);
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('oversized tool results, default budget (25,000 tokens)', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await started();
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('cuts a big result, says so, and gives it back whole in pages through /mcp', async () => {
    const client = await daemon.client();
    const { result, content } = await echo(client, 'fixture__echo', bigMessage);
    expect(content).toHaveLength(2);
    const shown = content[0]!.text!;
    expect(shown.length).toBeGreaterThan(90_000);
    expect(shown.length).toBeLessThanOrEqual(100_000);
    expect(bigText.startsWith(shown)).toBe(true);
    const note = content[1]!.text!;
    expect(note).toMatch(/^\[Coffer cut this tool result: it is about 7\d,\d{3} tokens/);
    expect(note).toContain('over the 25,000-token limit. Shown: page 1 of 4.');
    expect(note).toContain('The whole result is kept for 30 minutes');
    expect(result['_meta']).toEqual({ fixture: true });

    const uri = keptUri(content);
    const pages = await readPages(client, uri, bigText.length);
    expect(pages.join('')).toBe(bigText);
    expect(pages).toHaveLength(4);
    expect(pages[0]).toBe(shown);
    const [first] = (await client.readResource({ uri })).contents as { text: string }[];
    expect(first!.text).toBe(shown);
  });

  it('shows the budget in GET /api/v1/status and `coffer status`', async () => {
    const status = await daemon.api('GET', '/status');
    expect(status.body).toMatchObject({ result_budget_tokens: 25_000, result_ttl_ms: 1_800_000 });
    const shown = await runCoffer(daemon.env, ['status']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      'results:  cut above 25,000 tokens, kept 30 min to read in pages',
    );
  });

  it('leaves a small result untouched', async () => {
    const client = await daemon.client();
    const { result } = await echo(client, 'fixture__echo', 'small');
    expect(result.content).toEqual([{ type: 'text', text: '{"message":"small"}' }]);
    expect(result['_meta']).toEqual({ fixture: true });
  });

  it('cuts on the single-server endpoint too', async () => {
    const client = await daemon.client({ server: 'fixture' });
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { content } = await echo(client, 'echo', bigMessage);
    const pages = await readPages(client, keptUri(content), bigText.length);
    expect(pages.join('')).toBe(bigText);
  });

  it('answers an unknown id, a page past the end and another session’s result with clear errors', async () => {
    const client = await daemon.client();
    const unknown = await readError(client, 'coffer://coffer/results/AAAAAAAAAAAAAAAAAAAAAA/1');
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toContain(
      'No kept result at coffer://coffer/results/AAAAAAAAAAAAAAAAAAAAAA/1 (a result is kept 30 minutes after its call, and only in its own session: call the tool again)',
    );
    expect(unknown.data).toMatchObject({ coffer_code: 'CAPABILITY_NOT_FOUND' });

    const uri = keptUri((await echo(client, 'fixture__echo', bigMessage)).content);
    const past = await readError(client, `${uri}/5`);
    expect(past.message).toContain(`${uri}/5 names page 5, but that result has pages 1 to 4`);
    expect(past.data).toMatchObject({ coffer_code: 'INVALID_INPUT', pages: 4 });

    const other = await daemon.client();
    const foreign = await readError(other, `${uri}/1`);
    expect(foreign.data).toMatchObject({ coffer_code: 'CAPABILITY_NOT_FOUND' });
  });
});

describe('oversized tool results, budget off', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await started({ COFFER_RESULT_BUDGET_TOKENS: 'off' });
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('relays a big result whole', async () => {
    const client = await daemon.client();
    const { content } = await echo(client, 'fixture__echo', bigMessage);
    expect(content).toEqual([{ type: 'text', text: bigText }]);
  });

  it('says so in GET /api/v1/status and `coffer status`', async () => {
    expect((await daemon.api('GET', '/status')).body).toMatchObject({ result_budget_tokens: null });
    const shown = await runCoffer(daemon.env, ['status']);
    expect(shown.stdout).toContain('results:  never cut (COFFER_RESULT_BUDGET_TOKENS=off)');
  });
});

describe('oversized tool results, a small budget kept briefly', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await started({ COFFER_RESULT_BUDGET_TOKENS: '1000', COFFER_RESULT_TTL_MS: '2000' });
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('cuts at the configured budget and forgets the result once it expired', async () => {
    const client = await daemon.client();
    const { content } = await echo(client, 'fixture__echo', 'x'.repeat(5000));
    expect(content[0]!.text!.length).toBeLessThanOrEqual(1500);
    expect(content[1]!.text).toContain('over the 1,000-token limit. Shown: page 1 of 4.');
    expect(content[1]!.text).toContain('kept for 2 seconds');
    const uri = keptUri(content);
    await expect
      .poll(async () => ((await readFailure(client, `${uri}/1`)) as McpError | undefined)?.data)
      .toMatchObject({ coffer_code: 'CAPABILITY_NOT_FOUND' });
  });
});
