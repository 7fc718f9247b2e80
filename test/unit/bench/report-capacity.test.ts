import { describe, expect, it } from 'vitest';
import type { CapacityResult } from '../../../bench/capacity.js';
import { capacitySection } from '../../../bench/report-capacity.js';
import type { UpstreamRun } from '../../../bench/suite.js';
import type { TargetId } from '../../../bench/targets.js';

function result(target: TargetId, callsPerSecond: number, relayUs = Number.NaN): CapacityResult {
  return {
    target,
    sessions: 16,
    callsPerSecond,
    rounds: [callsPerSecond, callsPerSecond, callsPerSecond],
    calls: callsPerSecond * 3,
    errors: 0,
    relayUs,
    upstreamUs: 77.4,
    clientUs: 58,
    oneSession: { callsPerSecond: callsPerSecond / 4, relayUs: relayUs * 1.5 },
  };
}

function run(capacity?: CapacityResult[]): UpstreamRun {
  return {
    upstream: 'fixture',
    label: 'fixture server `echo`',
    mcpHub: { version: '4.2.1' },
    ...(capacity === undefined ? {} : { capacity }),
  };
}

describe('capacitySection', () => {
  it('sets each target against mcp-hub with the CPU each process spent per call', () => {
    const text = capacitySection(
      run([result('coffer-http-shared', 8_000, 110), result('mcp-hub', 3_200, 320)]),
    );
    expect(text).toContain('16 sessions from a raw load generator');
    expect(text).toContain('median of 3 rounds');
    expect(text).toContain(
      '| Coffer /mcp, upstream shared (opt-in) | 8,000 | 2.50× | 110 | 165 | 77 | 58 | 0 |',
    );
    expect(text).toContain('| mcp-hub /mcp (HTTP+SSE) | 3,200 | 1.00× | 320 | 480 | 77 | 58 | 0 |');
  });

  it('says which target could not run, and has no ratio without mcp-hub', () => {
    const failed = { ...result('coffer-http', Number.NaN), failure: 'refused' };
    const text = capacitySection(run([result('direct-stdio', 9_000), failed]));
    expect(text).toContain('| direct stdio | 9,000 | — | — | — | 77 | 58 | 0 |');
    expect(text).toContain('| Coffer /mcp (HTTP) | could not run | — |');
  });

  it('is left out when the run measured no capacity', () => {
    expect(capacitySection(run())).toBe('');
    expect(capacitySection(run([]))).toBe('');
  });
});
