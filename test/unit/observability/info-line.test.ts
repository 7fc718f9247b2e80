import { pino, type DestinationStream } from 'pino';
import { describe, expect, it } from 'vitest';
import { infoLine } from '../../../src/observability/info-line.js';
import { createLogger, type Logger } from '../../../src/observability/logger.js';
import { newTraceContext, runWithTrace } from '../../../src/observability/trace-context.js';

/** A destination that keeps each line pino (or infoLine) writes, synchronously. */
function capture(): { stream: DestinationStream; lines: string[] } {
  const lines: string[] = [];
  return { stream: { write: (line: string) => void lines.push(line) }, lines };
}

/** The lines, their times made equal (ISO or epoch ms): they were written a few µs apart. */
function sameTime(lines: string[]): string[] {
  return lines.map((line) => line.replace(/"time":("[^"]*"|\d+)/, '"time":"T"'));
}

const FIELDS = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  activity: {
    session_id: 's-1',
    client_name: 'a "quoted"\nname ✓',
    client_version: null,
    action: 'tools/call',
    server: 'fx',
    duration_ms: 3,
    outcome: 'error',
    error_code: 'RPC_-32602',
  },
};
const MSG = 'tools/call fx echo: error RPC_-32602';

/** What infoLine writes and what pino's own `info` writes, same fields, same logger. */
function both(logger: Logger, lines: string[], line = infoLine(logger)): [string, string] {
  line(structuredClone(FIELDS), MSG);
  logger.info(structuredClone(FIELDS), MSG);
  expect(lines).toHaveLength(2);
  const [fast = '', pinos = ''] = sameTime(lines);
  return [fast, pinos];
}

describe('infoLine', () => {
  it("writes the bytes pino's info writes: bindings, the trace mixin, escaped strings", () => {
    const { stream, lines } = capture();
    const logger = createLogger({ destination: stream, level: 'info' });
    const context = { ...newTraceContext({ sessionId: 'session-9' }), traceId: 'f'.repeat(32) };
    const [fast, pinos] = runWithTrace(context, () => both(logger, lines));
    expect(fast).toBe(pinos);
    // The entry's trace id wins over the request's, as with pino's merge.
    expect(JSON.parse(fast)).toMatchObject({ level: 30, pid: process.pid, sessionId: 'session-9' });
    expect(JSON.parse(fast).traceId).toBe(FIELDS.traceId);
  });

  it("keeps a child logger's bindings and writes nothing below the logger's level", () => {
    const { stream, lines } = capture();
    const child = createLogger({ destination: stream, level: 'info' }).child({ part: 'audit' });
    const line = infoLine(child);
    const [fast, pinos] = both(child, lines, line);
    expect(fast).toBe(pinos);
    expect(JSON.parse(fast)).toMatchObject({ part: 'audit', msg: MSG });
    child.setBindings({ step: 2 });
    lines.length = 0;
    const [rebound, pinosRebound] = both(child, lines, line);
    expect(rebound).toBe(pinosRebound);
    expect(JSON.parse(rebound)).toMatchObject({ part: 'audit', step: 2 });
    const quiet = createLogger({ destination: stream, level: 'warn' });
    infoLine(quiet)(FIELDS, MSG);
    expect(lines).toHaveLength(2);
  });

  it('leaves a logger with a log formatter to pino', () => {
    const { stream, lines } = capture();
    const logger = pino(
      { formatters: { log: (fields) => ({ ...fields, formatted: true }) } },
      stream,
    );
    const [fast, pinos] = both(logger, lines);
    expect(fast).toBe(pinos);
    expect(JSON.parse(fast)).toMatchObject({ formatted: true });
  });
});
