// A stand-in for the Coffer daemon, for the shim's protocol tests. Discovery accepts it
// (its title is `coffer-daemon` and it writes daemon.json), it records every HTTP request
// it gets, and it answers a few test methods the way the SDK's Streamable HTTP server
// does (SSE per POST, 202 for notifications, a GET stream, 404 for unknown sessions).
// Usage: node fake-daemon.mjs [port]   (COFFER_HOME from the environment)
import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import process from 'node:process';
import { Buffer } from 'node:buffer';

process.title = 'coffer-daemon';
const home = process.env.COFFER_HOME;
const token = randomBytes(16).toString('hex');
const recorded = [];
const sessions = new Map(); // id -> { getStreams: Set<res> }
const asks = new Map(); // server request id -> resolve(client response)
let sessionCount = 0;
let askCount = 0;

const sse = (res, message) => res.write(`event: message\ndata: ${message}\n\n`);
const json = (value) => JSON.stringify(value);

function openSse(res, sessionId) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
  });
  res.flushHeaders();
}

function notFound(res) {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(
    json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
  );
}

async function answer(res, message, raw, sessionId) {
  const { id, method, params } = message;
  const reply = (result) => sse(res, json({ jsonrpc: '2.0', id, result }));
  openSse(res, sessionId);
  switch (method) {
    case 'test/echo-raw':
      reply({ received: raw });
      return res.end();
    case 'test/verbatim':
      sse(
        res,
        `{"result":{"z":1,"a":"\u00e9","n":{"k":[3,2,1]}},"id":${json(id)},"jsonrpc":"2.0","extra":"kept"}`,
      );
      return res.end();
    case 'test/progress':
      for (let step = 1; step <= 3; step += 1) {
        const progressToken = params?._meta?.progressToken;
        sse(
          res,
          json({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: 3 },
          }),
        );
      }
      reply({ done: true });
      return res.end();
    case 'test/ask': {
      askCount += 1;
      const askId = `srv-${askCount}`;
      const got = new Promise((resolve) => asks.set(askId, resolve));
      sse(
        res,
        json({
          jsonrpc: '2.0',
          id: askId,
          method: 'sampling/createMessage',
          params: { maxTokens: 5, messages: [] },
        }),
      );
      reply({ answer: await got });
      return res.end();
    }
    case 'test/hang':
      res.write(': waiting forever\n\n');
      return undefined;
    default:
      reply({ method, params: params ?? null });
      return res.end();
  }
}

function handlePost(req, res, raw) {
  const message = JSON.parse(raw);
  const sessionId = req.headers['mcp-session-id'];
  if (message.method === 'initialize' && sessionId === undefined) {
    sessionCount += 1;
    const id = `session-${process.pid}-${sessionCount}`;
    sessions.set(id, { getStreams: new Set() });
    openSse(res, id);
    const result = {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: { listChanged: true }, prompts: {} },
      serverInfo: { name: 'fake-daemon', version: String(process.pid) },
    };
    sse(res, json({ jsonrpc: '2.0', id: message.id, result }));
    return res.end();
  }
  if (sessionId === undefined || !sessions.has(sessionId)) return notFound(res);
  if (message.method === undefined) asks.get(message.id)?.(message.result ?? message.error);
  if (message.id === undefined || message.method === undefined) {
    res.writeHead(202);
    return res.end();
  }
  return answer(res, message, raw, sessionId);
}

function handleMcp(req, res, raw) {
  if (req.headers.authorization !== `Bearer ${token}`) {
    res.writeHead(401, { 'content-type': 'application/json' });
    return res.end(json({ error: { code: 'UNAUTHORIZED', message: 'bad token' } }));
  }
  if (req.method === 'POST') return handlePost(req, res, raw);
  const session = sessions.get(req.headers['mcp-session-id']);
  if (session === undefined) return notFound(res);
  if (req.method === 'DELETE') {
    sessions.delete(req.headers['mcp-session-id']);
    for (const stream of session.getStreams) stream.end();
    res.writeHead(200);
    return res.end();
  }
  openSse(res);
  res.write(': get stream open\n\n');
  session.getStreams.add(res);
  res.on('close', () => session.getStreams.delete(res));
  return undefined;
}

function handleControl(req, res, raw) {
  if (req.url === '/__control/log') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(json(recorded));
  }
  if (req.url === '/__control/forget') {
    for (const session of sessions.values()) for (const stream of session.getStreams) stream.end();
    sessions.clear();
  }
  if (req.url === '/__control/notify') {
    for (const session of sessions.values())
      for (const stream of session.getStreams) sse(stream, raw);
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  return res.end(json({ sessions: [...sessions.keys()] }));
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    if (req.url.startsWith('/__control/')) return handleControl(req, res, raw);
    const headers = {};
    for (const name of [
      'authorization',
      'mcp-session-id',
      'mcp-protocol-version',
      'accept',
      'content-type',
    ]) {
      if (req.headers[name] !== undefined) headers[name] = req.headers[name];
    }
    recorded.push({ method: req.method, url: req.url, headers, body: raw });
    return handleMcp(req, res, raw);
  });
});

server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const { port } = server.address();
  const record = {
    version: 1,
    pid: process.pid,
    port,
    token,
    started_at: new Date().toISOString(),
    binary_path: 'fake',
  };
  const file = join(home, 'daemon.json');
  writeFileSync(`${file}.tmp`, json(record), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  process.stdout.write(`ready ${port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
