// Captures the verbatim `tools/list` of real MCP servers from npm into
// test/fixtures/tool-catalogs/<server>.json, for the tool search evaluation
// (`npm run eval:search`). The servers are NOT dependencies of Coffer: install them
// somewhere else first, then point this script at that folder:
//
//   mkdir -p /tmp/capture && cd /tmp/capture && npm init -y
//   PUPPETEER_SKIP_DOWNLOAD=1 npm install --ignore-scripts @modelcontextprotocol/server-{filesystem,memory,everything,github,postgres,puppeteer,slack,sequential-thinking,brave-search,google-maps}
//   node tools/capture-tool-catalogs.mjs /tmp/capture
//
// Placeholder credentials are enough: these servers list their tools without calling
// any remote service, and puppeteer starts no browser until a tool is called.
import console from 'node:console';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { setTimeout } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const installDir = process.argv[2];
if (installDir === undefined) {
  console.error('usage: node tools/capture-tool-catalogs.mjs <folder with the servers installed>');
  process.exit(2);
}
const out = resolve(import.meta.dirname, '../test/fixtures/tool-catalogs');
const scratch = resolve(installDir, 'capture-scratch');
mkdirSync(scratch, { recursive: true });

/** [fixture name, package, arguments, environment] */
const servers = [
  ['filesystem', 'server-filesystem', [scratch], {}],
  ['memory', 'server-memory', [], { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') }],
  ['everything', 'server-everything', ['stdio'], {}],
  ['github', 'server-github', [], { GITHUB_PERSONAL_ACCESS_TOKEN: 'placeholder' }],
  ['postgres', 'server-postgres', ['postgresql://127.0.0.1:1/none'], {}],
  ['puppeteer', 'server-puppeteer', [], {}],
  ['slack', 'server-slack', [], { SLACK_BOT_TOKEN: 'placeholder', SLACK_TEAM_ID: 'T0' }],
  ['sequential-thinking', 'server-sequential-thinking', [], {}],
  ['brave-search', 'server-brave-search', [], { BRAVE_API_KEY: 'placeholder' }],
  ['google-maps', 'server-google-maps', [], { GOOGLE_MAPS_API_KEY: 'placeholder' }],
];

const loose = z.looseObject({});

async function capture([name, pkg, args, env]) {
  const dir = join(installDir, 'node_modules/@modelcontextprotocol', pkg);
  const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const bin = typeof meta.bin === 'string' ? meta.bin : Object.values(meta.bin)[0];
  const client = new Client(
    { name: 'coffer-capture', version: '1.0.0' },
    // Declared so capability-dependent tools (server-everything) are listed too.
    { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} } },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(dir, bin), ...args],
      env: { PATH: process.env.PATH ?? '', HOME: scratch, PUPPETEER_SKIP_DOWNLOAD: '1', ...env },
      stderr: 'ignore',
    }),
  );
  await setTimeout(500); // server-everything registers some tools just after initialize
  const tools = [];
  let cursor;
  do {
    const page = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      loose,
    );
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  await client.close();
  const file = { server: name, package: meta.name, version: meta.version, tools };
  writeFileSync(join(out, `${name}.json`), `${JSON.stringify(file, null, 2)}\n`);
  console.log(`${name} ${meta.version}: ${tools.length} tools`);
}

mkdirSync(out, { recursive: true });
for (const server of servers) await capture(server);
console.log('now run `npx prettier --write test/fixtures/tool-catalogs`');
