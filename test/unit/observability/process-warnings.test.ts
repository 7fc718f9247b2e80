import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/observability/logger.js';
import { ProcessWarnings } from '../../../src/observability/process-warnings.js';

interface Line {
  level: number;
  msg: string;
  warning: { name: string; code?: string; count: number };
  stack?: string;
}

function capture() {
  const lines: Line[] = [];
  const logger = createLogger({
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Line) },
    level: 'info',
  });
  return { lines, logger };
}

function listenerLeak(count: number): Error {
  const warning = new Error(
    `Possible EventTarget memory leak detected. ${count} abort listeners added to [AbortSignal]. MaxListeners is 1500.`,
  );
  warning.name = 'MaxListenersExceededWarning';
  return warning;
}

describe('ProcessWarnings', () => {
  it("takes the process's warnings over from Node's printer", () => {
    const source = new EventEmitter();
    const printed: Error[] = [];
    source.on('warning', (warning: Error) => printed.push(warning));
    const { lines, logger } = capture();
    new ProcessWarnings(logger).attach(source);
    source.emit('warning', listenerLeak(1501));
    expect(printed).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      msg: expect.stringContaining('process warning: Possible EventTarget memory leak') as string,
      warning: { name: 'MaxListenersExceededWarning', count: 1 },
    });
    expect(lines[0]?.stack).toContain('listenerLeak');
  });

  it('logs a warning repeated a thousand times on ten lines, each with its count', () => {
    const { lines, logger } = capture();
    const warnings = new ProcessWarnings(logger);
    for (let i = 0; i < 1_000; i++) warnings.record(listenerLeak(1501 + i));
    expect(lines.map((line) => line.warning.count)).toEqual([
      1, 2, 4, 8, 16, 32, 64, 128, 256, 512,
    ]);
    expect(lines.filter((line) => line.stack !== undefined)).toHaveLength(1);
  });

  it('counts each kind apart, with its code', () => {
    const { lines, logger } = capture();
    const warnings = new ProcessWarnings(logger);
    const deprecation = Object.assign(new Error('Buffer() is deprecated'), {
      name: 'DeprecationWarning',
      code: 'DEP0005',
    });
    warnings.record(listenerLeak(1501));
    warnings.record(deprecation);
    warnings.record(listenerLeak(1502));
    warnings.record(listenerLeak(1503));
    expect(lines.map((line) => [line.warning.name, line.warning.count])).toEqual([
      ['MaxListenersExceededWarning', 1],
      ['DeprecationWarning', 1],
      ['MaxListenersExceededWarning', 2],
    ]);
    expect(lines[1]?.warning.code).toBe('DEP0005');
  });

  it('keeps at most a hundred kinds apart, counting the rest together', () => {
    const { lines, logger } = capture();
    const warnings = new ProcessWarnings(logger);
    const named = (text: string) => Object.assign(new Error(text), { name: 'Warning' });
    for (let i = 0; i < 100; i++)
      warnings.record(named(`kind ${String.fromCharCode(65 + (i % 26))}${'x'.repeat(i)}`));
    expect(lines).toHaveLength(100);
    for (const text of ['late one', 'late two', 'late three']) warnings.record(named(text));
    // The shared count reaches 1 and 2 (logged), then 3 (not).
    expect(lines).toHaveLength(102);
  });
});
