import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { createLogger } from '../../../src/observability/logger.js';
import { logRequestFailure } from '../../../src/observability/request-failure.js';

/** A logger writing to memory, and the lines it wrote, parsed. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ destination, level: 'info' }), lines };
}

const trace = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), sessionId: 's1' };

describe('logRequestFailure', () => {
  it('writes a refusal as one info line with its code and hint, and no stack', () => {
    const { logger, lines } = capturedLog();
    const refusal = new CofferError('TOOL_DISABLED', 'Tool "fx__log" is disabled', {
      hint: 'enable it with `coffer mcp enable fx --tool log`',
    });
    logRequestFailure(logger, 'tools/call', refusal, trace);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'tools/call failed: Tool "fx__log" is disabled',
        method: 'tools/call',
        code: 'TOOL_DISABLED',
        hint: 'enable it with `coffer mcp enable fx --tool log`',
        traceId: trace.traceId,
        sessionId: 's1',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('at ');
  });

  it("warns of an upstream's failure, still without a stack", () => {
    const { logger, lines } = capturedLog();
    const down = new CofferError('UPSTREAM_UNAVAILABLE', 'Server "fx" is not running');
    logRequestFailure(logger, 'tools/call', down);
    expect(lines).toEqual([expect.objectContaining({ level: 40, code: 'UPSTREAM_UNAVAILABLE' })]);
    expect(lines[0]).not.toHaveProperty('err');
  });

  it('logs anything else as an error with its stack: a bug to find', () => {
    const { logger, lines } = capturedLog();
    logRequestFailure(logger, 'GET /api/v1/servers', new TypeError('x is not a function'));
    logRequestFailure(logger, 'tools/call', new CofferError('INTERNAL', 'unexpected'));
    expect(lines.map((line) => [line['level'], line['msg']])).toEqual([
      [50, 'request failed'],
      [50, 'request failed'],
    ]);
    expect((lines[0]?.['err'] as { stack: string }).stack).toMatch(
      /TypeError: x is not a function\n\s+at /,
    );
  });

  it("passes what may quote the client (method, message, hint, a bug's text) through `text`", () => {
    const { logger, lines } = capturedLog();
    const hide = (words: string) => words.replaceAll('tok-123456789', '[redacted]');
    const unknown = new CofferError('CAPABILITY_NOT_FOUND', 'Unknown tool "tok-123456789"', {
      hint: 'no tool tok-123456789',
    });
    logRequestFailure(logger, 'tools/call', unknown, trace, hide);
    logRequestFailure(logger, 'resources/read', new Error('no file tok-123456789'), trace, hide);
    expect(lines[0]).toMatchObject({
      msg: 'tools/call failed: Unknown tool "[redacted]"',
      hint: 'no tool [redacted]',
    });
    expect(lines[1]).toMatchObject({ err: { message: 'no file [redacted]' } });
    expect((lines[1]?.['err'] as { stack: string }).stack).toMatch(/no file \[redacted\]\n\s+at /);
    expect(JSON.stringify(lines)).not.toContain('tok-123456789');
  });
});
