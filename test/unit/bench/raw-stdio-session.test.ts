import { describe, expect, it } from 'vitest';
import { rawStdioSession } from '../../../bench/raw-sessions.js';
import { isAlive } from '../../../bench/processes.js';

/**
 * A stdio peer that answers like an SDK server (`result` before `id`), sends a
 * notification before each answer, and exits on `die`.
 */
const PEER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'die') process.exit(3);
  process.stdout.write('{"method":"notifications/message","params":{"id":' + m.id + '},"jsonrpc":"2.0"}\\n');
  process.stdout.write(JSON.stringify({ result: { echo: m.method }, jsonrpc: '2.0', id: m.id }) + '\\n');
});
`;

describe('rawStdioSession', () => {
  it('reads an SDK-shaped answer by its id, past a notification', async () => {
    const session = await rawStdioSession(process.execPath, ['-e', PEER]);
    try {
      const answer = JSON.parse((await session.request('tools/call', {})).toString()) as unknown;
      expect(answer).toEqual({ result: { echo: 'tools/call' }, jsonrpc: '2.0', id: 2 });
    } finally {
      await session.stop();
    }
    expect(isAlive(session.pid)).toBe(false);
  });

  it('fails the request in flight when the process exits, and every later one', async () => {
    const session = await rawStdioSession(process.execPath, ['-e', PEER]);
    try {
      await expect(session.request('die', {})).rejects.toThrow('the stream closed');
      await expect(session.request('tools/call', {})).rejects.toThrow('the stream closed');
    } finally {
      await session.stop();
    }
  });
});
