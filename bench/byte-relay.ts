/**
 * The floor of a relay: a Node process that starts the command in its argv and copies
 * bytes both ways, stdin → child, child → stdout, with no parsing at all. Chained twice in
 * front of the upstream it is the `relay-floor` target (bench/targets.ts): what two hops
 * between processes cost on this machine, with none of a gateway's work, beside the shim
 * (which is two hops: `coffer shim`, then the daemon).
 *
 *   node dist/bench/byte-relay.js <command> [args…]
 */
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write('usage: byte-relay <command> [args…]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
// The client ending stdin ends the child's (pipe() does that); a signal is passed on to
// the one child this process started, and the relay ends with it.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => child.kill(signal));
child.once('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
child.once('error', (error) => {
  process.stderr.write(`byte-relay: ${error.message}\n`);
  process.exit(1);
});
