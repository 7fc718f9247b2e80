import { describe, expect, it } from 'vitest';
import { cpuTicks, parentPid, statFields, vmRssKb } from '../../../bench/proc-readings.js';

// A real /proc/<pid>/stat line (Linux 6, node), fields 1..52; utime 1234, stime 567.
const fields = (comm: string): string =>
  `4242 (${comm}) S 4100 4242 4100 0 -1 4194304 9000 0 12 0 1234 567 0 0 20 0 11 0 ` +
  `870000 1234567890 19000 18446744073709551615 1 1 0 0 0 0 0 16781312 134234626 0 0 0 17 ` +
  `1 0 0 0 0 0 0 0 0 0 0 0 0 0\n`;

describe('statFields', () => {
  it('starts at field 3 (state), after the command name', () => {
    expect(statFields(fields('node')).slice(0, 2)).toEqual(['S', '4100']);
  });

  it('reads past a command name holding spaces and parentheses', () => {
    const stat = fields('my (odd) name)');
    expect(parentPid(stat)).toBe(4100);
    expect(cpuTicks(stat)).toBe(1234 + 567);
  });

  it('rejects text that is no stat line', () => {
    expect(() => statFields('no parenthesis here')).toThrow(/not a \/proc/);
  });
});

describe('cpuTicks', () => {
  it('adds utime (field 14) and stime (field 15)', () => {
    expect(cpuTicks(fields('node'))).toBe(1801);
  });

  it('throws on a truncated line instead of returning NaN', () => {
    expect(() => cpuTicks('4242 (node) S 4100 4242')).toThrow(/field 14/);
  });
});

describe('vmRssKb', () => {
  it('reads the VmRSS line of /proc/<pid>/status', () => {
    const status =
      'Name:\tnode\nVmPeak:\t 900000 kB\nVmHWM:\t  80000 kB\nVmRSS:\t   75776 kB\nThreads:\t11\n';
    expect(vmRssKb(status)).toBe(75_776);
  });

  it('throws when there is none (a kernel thread, a zombie)', () => {
    expect(() => vmRssKb('Name:\tkthreadd\nState:\tS (sleeping)\n')).toThrow(/no VmRSS/);
  });
});
