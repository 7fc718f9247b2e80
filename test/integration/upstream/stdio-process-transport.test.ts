import { afterEach, describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { StdioProcessTransport } from '../../../src/upstream/stdio-process-transport.js';

/**
 * A server slow to read its stdin, as a real child process: it reads nothing until it gets
 * SIGUSR2, then counts the lines it was sent and says how many (a timer keeps it alive
 * until then: a paused stdin does not).
 */
const SLOW_READER = `
const alive = setInterval(() => undefined, 1 << 30);
process.stdin.pause();
process.on('SIGUSR2', () => {
  let lines = 0;
  process.stdin.on('data', (chunk) => {
    for (const byte of chunk) if (byte === 10) lines += 1;
    if (lines === Number(process.argv[1])) {
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'read', params: { lines } }) + '\\n');
    }
  });
  process.stdin.once('end', () => clearInterval(alive));
  process.stdin.resume();
});
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'listening' }) + '\\n');
`;

const MESSAGES = 60;
const PADDING = 'x'.repeat(64 * 1024);

let transport: StdioProcessTransport | undefined;
afterEach(async () => {
  await transport?.close();
  transport = undefined;
});

describe('StdioProcessTransport writing to a server slow to read', () => {
  it('waits for the pipe to drain with one listener, and delivers every message', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const received: JSONRPCMessage[] = [];
      const waiters: Array<() => void> = [];
      const arrived = (method: string): Promise<void> =>
        new Promise((resolve) => {
          const check = (): void => {
            if (received.some((m) => 'method' in m && m.method === method)) resolve();
            else waiters.push(check);
          };
          check();
        });
      transport = new StdioProcessTransport({
        command: process.execPath,
        args: ['-e', SLOW_READER, String(MESSAGES)],
        env: { PATH: process.env['PATH'] ?? '' },
      });
      transport.onmessage = (message) => {
        received.push(message);
        for (const check of waiters.splice(0)) check();
      };
      await transport.start();
      await arrived('listening');

      const sends = Array.from({ length: MESSAGES }, (_, index) =>
        transport!.send({ jsonrpc: '2.0', method: 'pad', params: { index, PADDING } }),
      );
      let settled = 0;
      for (const send of sends) void send.then(() => (settled += 1));
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled, 'the pipe is full: later writes wait for it').toBeLessThan(MESSAGES);

      process.kill(transport.pid!, 'SIGUSR2');
      await Promise.all(sends);
      await arrived('read');
      const read = received.find((m) => 'method' in m && m.method === 'read');
      expect(read).toMatchObject({ params: { lines: MESSAGES } });
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
