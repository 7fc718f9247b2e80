/**
 * Preload (`node --import`) for servers that listen on every interface and do not say which
 * port they got: server-everything's Streamable HTTP server ($PORT) and mcp-hub (`--port`).
 * The first TCP listen of the process is bound to 127.0.0.1 instead, and its port is printed
 * as `listening <port>` on stderr. The bench's traffic stays on loopback and nothing is
 * exposed to the network.
 */
import { Server } from 'node:net';

type Listen = (this: Server, ...args: unknown[]) => Server;

const original = Object.getOwnPropertyDescriptor(Server.prototype, 'listen')?.value as Listen;
let patched = false;

function loopbackListen(this: Server, ...args: unknown[]): Server {
  const [first] = args;
  const isPort = typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first));
  if (patched || !isPort) return original.apply(this, args);
  patched = true;
  const callback = args.find((arg) => typeof arg === 'function');
  this.once('listening', () => {
    const address = this.address();
    if (address !== null && typeof address === 'object') {
      process.stderr.write(`listening ${address.port}\n`);
    }
  });
  return original.call(this, Number(first), '127.0.0.1', callback);
}

Server.prototype.listen = loopbackListen as typeof Server.prototype.listen;
