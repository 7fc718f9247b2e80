// A stand-in for the Coffer daemon, for the shim's protocol tests. Discovery accepts it
// (its title is `coffer-daemon`, it writes daemon.json and accepts TCP on its port), and
// it serves the shim channel on `<COFFER_HOME>/coffer.sock`: a hello line, then
// newline-delimited JSON-RPC of one session per connection. It records every line it
// gets and answers a few test methods. Control over HTTP on its port: /__control/log,
// /__control/forget (closes every connection), /__control/notify (sends the body).
// Usage: node fake-daemon.mjs [port] [--no-socket]   (COFFER_HOME from the environment)
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import process from 'node:process';
import { Buffer } from 'node:buffer';

process.title = 'coffer-daemon';
const home = process.env.COFFER_HOME;
const withSocket = !process.argv.includes('--no-socket');
const socketPath = join(home, 'coffer.sock');
const token = randomBytes(16).toString('hex');
/** { connection, kind: 'hello' | 'line', line } */
const recorded = [];
const connections = new Set();
let connectionCount = 0;
let askCount = 0;

const json = (value) => JSON.stringify(value);

function answer(conn, message, raw) {
  const { id, method, params } = message;
  const reply = (result) => conn.send(json({ jsonrpc: '2.0', id, result }));
  switch (method) {
    case 'test/echo-raw':
      return reply({ received: raw });
    case 'test/verbatim':
      return conn.send(
        `{"result":{"z":1,"a":"\u00e9","n":{"k":[3,2,1]}},"id":${json(id)},"jsonrpc":"2.0","extra":"kept"}`,
      );
    case 'test/progress':
      for (let step = 1; step <= 3; step += 1) {
        const progressToken = params?._meta?.progressToken;
        conn.send(
          json({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: 3 },
          }),
        );
      }
      return reply({ done: true });
    case 'test/ask': {
      askCount += 1;
      const askId = `srv-${askCount}`;
      conn.asks.set(askId, (answered) => reply({ answer: answered }));
      return conn.send(
        json({
          jsonrpc: '2.0',
          id: askId,
          method: 'sampling/createMessage',
          params: { maxTokens: 5, messages: [] },
        }),
      );
    }
    case 'test/hang':
      return undefined;
    default:
      return reply({ method, params: params ?? null });
  }
}

function sessionLine(conn, raw) {
  const message = JSON.parse(raw);
  if (message.method === undefined && message.id !== undefined) {
    conn.asks.get(message.id)?.(message.result ?? message.error);
    conn.asks.delete(message.id);
    return;
  }
  if (message.method === 'initialize') {
    conn.initialized = true;
    const result = {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: { listChanged: true }, prompts: {} },
      serverInfo: { name: 'fake-daemon', version: String(process.pid) },
    };
    return conn.send(json({ jsonrpc: '2.0', id: message.id, result }));
  }
  if (message.id === undefined) return undefined;
  if (!conn.initialized) {
    const error = { code: -32600, message: 'Bad Request: Server not initialized' };
    return conn.send(json({ jsonrpc: '2.0', id: message.id, error }));
  }
  return answer(conn, message, raw);
}

function helloLine(conn, raw) {
  const hello = JSON.parse(raw);
  if (hello.coffer !== 'hello' || hello.token !== token) {
    conn.send(json({ coffer: 'refused', code: 'UNAUTHORIZED', message: 'bad token' }));
    return conn.socket.end();
  }
  conn.greeted = true;
  conn.send(json({ coffer: 'ready', version: 1 }));
}

const channel = createNetServer((socket) => {
  connectionCount += 1;
  const conn = {
    id: connectionCount,
    socket,
    greeted: false,
    initialized: false,
    asks: new Map(),
    send: (line) => socket.write(`${line}\n`),
  };
  connections.add(conn);
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (text) => {
    buffer += text;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const kind = conn.greeted ? 'line' : 'hello';
      recorded.push({ connection: conn.id, kind, line });
      if (kind === 'hello') helloLine(conn, line);
      else sessionLine(conn, line);
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    recorded.push({ connection: conn.id, kind: 'closed', line: '' });
    connections.delete(conn);
  });
});

function control(req, res, raw) {
  if (req.url === '/__control/forget') {
    for (const conn of connections) conn.socket.destroy();
  }
  if (req.url === '/__control/notify') {
    for (const conn of connections) if (conn.greeted) conn.send(raw);
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(json(req.url === '/__control/log' ? recorded : { connections: connections.size }));
}

const http = createHttpServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => control(req, res, Buffer.concat(chunks).toString('utf8')));
});

function writeRecord(port) {
  const record = {
    version: 1,
    pid: process.pid,
    port,
    token,
    started_at: new Date().toISOString(),
    binary_path: 'fake',
    ...(withSocket ? { socket: socketPath } : {}),
  };
  const file = join(home, 'daemon.json');
  writeFileSync(`${file}.tmp`, json(record), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

const port = Number(process.argv[2] ?? 0) || 0;
http.listen(port, '127.0.0.1', () => {
  const bound = http.address().port;
  const ready = () => {
    writeRecord(bound);
    process.stdout.write(`ready ${bound}\n`);
  };
  if (!withSocket) return ready();
  rmSync(socketPath, { force: true });
  channel.listen(socketPath, ready);
  return undefined;
});
process.on('SIGTERM', () => process.exit(0));
