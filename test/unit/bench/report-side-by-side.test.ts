import { describe, expect, it } from 'vitest';
import { hubNote, sideBySideSection } from '../../../bench/report-side-by-side.js';
import type { UpstreamRun } from '../../../bench/suite.js';

const percentiles = { p50: 1.5, p90: 3, p99: 7.25 };

const run = (mcpHub: UpstreamRun['mcpHub']): UpstreamRun => ({
  upstream: 'fixture',
  label: 'fixture server `echo`',
  mcpHub,
  latency: [
    {
      target: 'coffer-shim',
      calls: 2000,
      errors: 0,
      median: percentiles,
      pooled: percentiles,
      rounds: [percentiles],
      addedP50Ms: 1.3,
      ratioP50: 8.6,
      cpu: { relayUs: 1530.4, shimUs: 1250, clientUs: 700 },
      relayRssMb: 74.04,
    },
  ],
  throughput: [
    {
      target: 'coffer-shim',
      levels: [1, 16].map((sessions) => ({
        sessions,
        callsPerSecond: sessions * 30,
        rounds: [],
        calls: 0,
        errors: 0,
        ratioToStdio: 0.2,
        relayCpuUsPerCall: 1900,
        relayRssMb: 80,
      })),
    },
  ],
});

describe('sideBySideSection', () => {
  it('puts latency, calls/s at 16 sessions and the relay’s costs in one row', () => {
    const text = sideBySideSection(run({ version: '4.2.1' }));
    expect(text).toContain('| target | p50 ms | p99 ms | calls/s, 16 sessions |');
    expect(text).toContain(
      '| Coffer via `coffer shim` | 1.50 | 7.25 | 480 | 1,530 | 1,900 | 1,250 | 700 | 74.0 MB / 80.0 MB |',
    );
  });
});

describe('hubNote', () => {
  it('says when mcp-hub is not installed, did not start, or how it ran', () => {
    expect(hubNote(run({ version: undefined }))).toMatch(/not installed .* left out/);
    expect(hubNote(run({ version: '4.2.1', failure: 'no port' }))).toMatch(
      /4\.2\.1 did not start \(no port\)/,
    );
    expect(hubNote(run({ version: '4.2.1' }))).toMatch(/one connection to the upstream shared/);
  });
});
