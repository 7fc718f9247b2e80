import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { toolsOnceListed } from '../../support/listed-tools.js';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { upstreamLogCount } from '../../support/upstream-log.js';
import { runCoffer } from '../secrets/run-coffer.js';

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

/** A client that answers Coffer's approval questions with `answers`, in order, and keeps them. */
async function askingClient(daemon: RunningDaemon, answers: Answer[]) {
  const asked: ElicitRequest['params'][] = [];
  const client = await daemon.client({ capabilities: { elicitation: {} }, name: 'asking' });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params);
    return answers.shift() ?? { action: 'cancel' };
  });
  await toolsOnceListed(client, ['notes__delete_note']);
  return { client, asked };
}

function call(client: Client, name: string) {
  return client.callTool({ name, arguments: { id: 'n1' } });
}

/** How many times the fixture really ran `tool`. */
const ran = (daemon: RunningDaemon, tool: string) =>
  upstreamLogCount(daemon.home, 'notes', `${tool}: ran`);

describe('approval before destructive tools (issue 20)', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'notes', ['--scenario', 'destructive']);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('asks before a destructive tool, with server, tool and arguments; runs it once accepted', async () => {
    const { client, asked } = await askingClient(daemon, [
      { action: 'accept', content: { always: false } },
    ]);
    const result = await call(client, 'notes__delete_note');
    expect(result.content).toEqual([{ type: 'text', text: 'delete_note done' }]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toContain('"delete_note" of notes');
    expect(asked[0]?.message).toContain('"id": "n1"');
    // Read-only tools and the contradictory destructive+read-only one run without asking.
    await call(client, 'notes__echo');
    await call(client, 'notes__wipe_notes');
    expect(asked).toHaveLength(1);
    // The daemon writes the upstream's stderr to its log as it comes: wait for the line.
    await expect.poll(() => ran(daemon, 'wipe_notes')).toBe(1);
    await client.close();
  });

  it('refuses when the person declines, and the tool never runs', async () => {
    const before = ran(daemon, 'delete_note');
    const { client } = await askingClient(daemon, [{ action: 'decline' }]);
    await expect(call(client, 'notes__delete_note')).rejects.toThrow(/did not approve/);
    expect(ran(daemon, 'delete_note')).toBe(before);
    // Activity rows are written in batches: wait for this one.
    await expect
      .poll(async () => {
        const rows = (await daemon.api('GET', '/activity?outcome=error')).body.activity as {
          server: string;
          error_code: string;
        }[];
        return rows[0];
      })
      .toMatchObject({ server: 'notes', error_code: 'CALL_DECLINED' });
    await client.close();
  });

  it('refuses with the command to allow it when the client cannot ask', async () => {
    const client = await daemon.client({ capabilities: {}, name: 'mute' });
    await toolsOnceListed(client, ['notes__delete_note']);
    await expect(call(client, 'notes__delete_note')).rejects.toThrow(
      /needs your approval.*coffer mcp policy notes --tool delete_note allow/,
    );
    await client.close();
  });

  it('"always allow" is remembered as the tool\'s policy, shown by coffer mcp policy', async () => {
    // Another agent's session, which has read the policies already (it was asked once).
    const other = await askingClient(daemon, [{ action: 'accept', content: { always: false } }]);
    await call(other.client, 'notes__delete_note');
    expect(other.asked).toHaveLength(1);
    const { client, asked } = await askingClient(daemon, [
      { action: 'accept', content: { always: true } },
    ]);
    await call(client, 'notes__delete_note');
    await call(client, 'notes__delete_note');
    expect(asked).toHaveLength(1);
    // The other session is not asked again either.
    await call(other.client, 'notes__delete_note');
    expect(other.asked).toHaveLength(1);
    await other.client.close();
    const shown = await runCoffer(daemon.env, ['mcp', 'policy', 'notes', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const view = JSON.parse(shown.stdout) as { tools: { key: string; policy: string | null }[] };
    expect(view.tools.find((tool) => tool.key === 'delete_note')?.policy).toBe('allow');
    // An admin action in the activity log, by the agent that asked.
    await eventually(async () => {
      const { body } = await daemon.api('GET', '/activity?server=notes');
      expect(body.activity).toContainEqual(
        expect.objectContaining({ action: 'policy.set', capability_key: 'delete_note=allow' }),
      );
    });
    await client.close();
  });

  it('deny refuses without asking; a server-wide allow for destructive tools stops the questions', async () => {
    const denied = await runCoffer(daemon.env, [
      'mcp',
      'policy',
      'notes',
      '--tool',
      'delete_note',
      'deny',
    ]);
    expect(denied.code, denied.stderr).toBe(0);
    const { client, asked } = await askingClient(daemon, []);
    await expect(call(client, 'notes__delete_note')).rejects.toThrow(/is denied/);
    expect(asked).toEqual([]);
    expect(
      (await runCoffer(daemon.env, ['mcp', 'policy', 'notes', '--tool', 'delete_note', 'default']))
        .code,
    ).toBe(0);
    expect(
      (await runCoffer(daemon.env, ['mcp', 'policy', 'notes', '--destructive', 'allow'])).code,
    ).toBe(0);
    await call(client, 'notes__delete_note');
    expect(asked).toEqual([]);
    const bad = await runCoffer(daemon.env, [
      'mcp',
      'policy',
      'notes',
      '--tool',
      'delete_note',
      'maybe',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('allow, ask, deny');
    await client.close();
  });
});
