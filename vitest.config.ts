import { defineConfig } from 'vitest/config';

// Projects so a developer can run the fast ones alone:
// unit (pure, in-process), integration (real processes, real SQLite, loopback HTTP),
// e2e (the built CLI and daemon as a user runs them), fuzz (hostile input against a
// real daemon; CI size with a fixed seed here, longer with `npm run fuzz`), load (the
// daemon under CI-sized load; `npm run soak` is the long run).

/**
 * expect.poll gives up after 1 s by default: less than a loaded machine can take to start a
 * child process or a CLI run, which the polled condition often includes. The limit is only
 * when a poll stops waiting for its condition; a passing poll returns as soon as it holds.
 */
const patientPoll = { poll: { timeout: 10_000 } };
const processPoll = { poll: { timeout: 30_000 } };

export default defineConfig({
  test: {
    // Most tests wait on real processes and sockets, not on the CPU: overlap the waits.
    maxWorkers: 4,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // In-process tests share one module graph per worker: imports (the SDK, zod, …)
          // are loaded once instead of once per file, which took the project from 54 s to
          // 9 s. So no vi.mock here (ESLint refuses it: a mock could come after another
          // file loaded the module); fakes are injected instead.
          isolate: false,
          // In-process and quick, but a CPU-starved machine stretches wall time: a TOML edit
          // took over 10 s at load average 35 on 2 cores.
          testTimeout: 30_000,
          expect: patientPoll,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // As unit: one module graph per worker (54 s → 32 s); the processes, ports and
          // homes each test starts are its own.
          isolate: false,
          testTimeout: 60_000,
          expect: processPoll,
          // Hooks start fixtures and daemons: under heavy load a fixture's cold start took over 15 s.
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Only bounds a hang: a test of seven CLI runs in a row took over 120 s at load
          // average 20 on 2 cores (a node start each), and a passing test ends when it is done.
          testTimeout: 300_000,
          expect: processPoll,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'fuzz',
          include: ['test/fuzz/**/*.test.ts'],
          expect: processPoll,
          // `npm run fuzz` runs thousands of cases per property.
          testTimeout: process.env['COFFER_FUZZ_RUNS'] === undefined ? 120_000 : 3_600_000,
          hookTimeout: 120_000,
        },
      },
      {
        // CI-sized load (16 sessions x 200 calls) against the built daemon.
        test: {
          name: 'load',
          include: ['test/load/**/*.test.ts'],
          // Throughput is printed, never asserted: the 3,200 calls ran at 29 calls/s (112 s) at
          // load average 35 on 2 cores, and must still finish rather than time out.
          testTimeout: 300_000,
          expect: processPoll,
          // The daemon's cold start on a busy 2-core machine can take most of a minute.
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
