#!/usr/bin/env node
/**
 * The client the official conformance suite runs for its (non-auth) client scenarios:
 *
 *   npx -y node@22 node_modules/.bin/conformance client --scenario tools_call \
 *     --command "node test/conformance/gateway-client.mjs"
 *
 * Coffer is the client under test, exactly as a user runs it: a real daemon (its own
 * temporary COFFER_HOME and port range) with the scenario's server URL (the last argument)
 * registered by `coffer mcp add --url`. This script then plays the agent on `/mcp`: it lists
 * the tools and calls each, filling required number arguments (the scenario's `add_numbers`),
 * and accepts an elicitation with the schema's defaults (SEP-1034), as an agent's UI would;
 * then it reads each of the server's resources and gets each of its prompts. A call the
 * server answers "Method not found" (a scenario that serves tools/list only) is shown, as an
 * agent shows a failed call, not a failure of the run. For json-schema-2020-12-preservation
 * it gives the echo tool the schema Coffer listed for the scenario's focal tool, verbatim,
 * as that scenario asks of a client; a scenario whose context lists `toolCalls` gets exactly
 * those calls.
 * What the suite's server sees is Coffer's upstream client: its initialize (or, for a server
 * of 2026-07-28, its server/discover and per-request envelope and headers), its calls, its
 * reconnection after a closed SSE stream (SEP-1699), its relaying of server requests.
 *
 * Auth scenarios (`--suite auth`) go the user's way too: a server that needs a sign-in
 * fails with AUTH_REQUIRED, so this script runs `coffer mcp login conformance --no-open`
 * and plays the browser (it opens the printed URL, whose server approves at once, and
 * follows the redirect to the daemon's /oauth/callback); then the agent tries again. At
 * most three sign-ins, so a server that never accepts cannot loop it forever. A client
 * the scenario pre-registered is given to `coffer mcp add --oauth-client-id`.
 */
import { spawn, spawnSync } from 'node:child_process';
import console from 'node:console';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const coffer = join(root, 'bin', 'coffer.js');
/**
 * The suite runs on Node 22 (through `npx node@22`, which then also comes first on PATH for
 * this script, or by its path); Coffer's native SQLite driver is built for the Node that
 * installed it: the one that ran npm.
 */
const cofferNode = process.env.npm_node_execpath ?? process.execPath;
const serverUrl = process.argv.at(-1);
const home = mkdtempSync(join(tmpdir(), 'coffer-conformance-client-'));
const base = 20_000 + Math.floor(Math.random() * 4_000) * 10;
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const MAX_SIGN_INS = 3;
const env = {
  ...process.env,
  COFFER_HOME: home,
  COFFER_KEYCHAIN: 'file',
  COFFER_PORT_RANGE: `${base}-${base + 9}`,
  // The Client ID Metadata Document the suite's CIMD scenario expects.
  COFFER_OAUTH_CLIENT_METADATA_URL: 'https://conformance-test.local/client-metadata.json',
};

function run(args, input) {
  return spawnSync(cofferNode, [coffer, ...args], { env, encoding: 'utf8', input });
}

function cli(args, input) {
  const result = run(args, input);
  if (result.status !== 0) throw new Error(`coffer ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

function register() {
  const args = ['mcp', 'add', 'conformance', '--url', serverUrl];
  if (typeof context.client_id !== 'string') return cli(args);
  const secret = typeof context.client_secret === 'string' ? context.client_secret : undefined;
  args.push('--oauth-client-id', context.client_id);
  if (secret !== undefined) args.push('--oauth-client-secret-from-stdin');
  return cli(args, secret === undefined ? undefined : `${secret}\n`);
}

/** The aggregated list leaves a server that needs a sign-in out, so ask before acting. */
function needsSignIn() {
  const result = run(['mcp', 'test', 'conformance', '--json']);
  return `${result.stdout}${result.stderr}`.includes('AUTH_REQUIRED');
}

/** `coffer mcp login --no-open`, with this script as the browser. */
async function signIn() {
  const login = spawn(cofferNode, [coffer, 'mcp', 'login', 'conformance', '--no-open'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  login.stdout.setEncoding('utf8');
  login.stderr.setEncoding('utf8');
  login.stderr.on('data', (chunk) => (printed += chunk));
  const exited = new Promise((resolve) => login.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    login.stdout.on('data', (chunk) => {
      printed += chunk;
      const found = /^(https?:\/\/\S+)$/m.exec(printed);
      if (found !== null) resolve(found[1]);
    });
    void exited.then(() => reject(new Error(`coffer mcp login ended: ${printed}`)));
  });
  const approval = await globalThis.fetch(url, { redirect: 'manual' });
  const location = approval.headers.get('location');
  if (location === null) throw new Error(`no redirect from the authorization endpoint`);
  await globalThis.fetch(location);
  if ((await exited) !== 0) throw new Error(`coffer mcp login failed: ${printed}`);
}

function isAuthRequired(error) {
  return error instanceof McpError && error.data?.coffer_code === 'AUTH_REQUIRED';
}

/** What an agent's form does when the user accepts it untouched: every default, filled in. */
function acceptWithDefaults(request) {
  const properties = request.params.requestedSchema?.properties ?? {};
  const content = {};
  for (const [name, schema] of Object.entries(properties))
    if (schema.default !== undefined) content[name] = schema.default;
  return { action: 'accept', content };
}

/** json-schema-2020-12-preservation's echo tool, and the tool whose schema it wants back. */
const SCHEMA_ECHO = 'conformance__json_schema_echo';
const SCHEMA_FOCAL = 'conformance__json_schema_2020_12_tool';

/** Arguments for a tool's required numbers (and strings), so a call is well-formed. */
function argumentsFor(tool, tools) {
  const focal = tools.find((each) => each.name === SCHEMA_FOCAL);
  if (tool.name === SCHEMA_ECHO && focal !== undefined) return { schema: focal.inputSchema };
  const args = {};
  const properties = tool.inputSchema?.properties ?? {};
  for (const [index, name] of (tool.inputSchema?.required ?? []).entries()) {
    const type = properties[name]?.type;
    args[name] = type === 'number' || type === 'integer' ? index + 2 : `value-${index}`;
  }
  return args;
}

async function actAsAgent() {
  const daemon = JSON.parse(readFileSync(join(home, 'daemon.json'), 'utf8'));
  const client = new Client(
    { name: 'conformance-agent', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, acceptWithDefaults);
  const transport = new StreamableHTTPClientTransport(
    new globalThis.URL(`http://127.0.0.1:${daemon.port}/mcp?mode=full`),
    { requestInit: { headers: { authorization: `Bearer ${daemon.token}` } } },
  );
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    for (const call of plannedCalls(tools)) {
      const result = await client.callTool(call).catch(shown);
      console.log(`${call.name}: ${JSON.stringify(result.content)}`);
    }
    await readEverything(client);
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}

/**
 * The calls a scenario's context asks for, with its arguments (http-custom-headers: the
 * values Coffer must mirror into Mcp-Param-* headers); else each of its tools once.
 */
function plannedCalls(tools) {
  if (Array.isArray(context.toolCalls))
    return context.toolCalls.map((call) => ({
      name: `conformance__${call.name}`,
      arguments: call.arguments ?? {},
    }));
  return tools
    .filter((tool) => tool.name.startsWith('conformance__'))
    .map((tool) => ({ name: tool.name, arguments: argumentsFor(tool, tools) }));
}

/** A call the server does not serve at all, shown as its result; any other error stands. */
function shown(error) {
  if (!(error instanceof McpError) || error.code !== ErrorCode.MethodNotFound) throw error;
  return { content: [{ type: 'text', text: `not served: ${error.message}` }] };
}

/** Each of the scenario server's resources read and prompts got, as an agent browsing them. */
async function readEverything(client) {
  const capabilities = client.getServerCapabilities() ?? {};
  if (capabilities.resources !== undefined) {
    const { resources } = await client.listResources();
    for (const { uri } of resources.filter((each) =>
      each.uri.startsWith('coffer://conformance/'),
    )) {
      const read = await client.readResource({ uri });
      console.log(`${uri}: ${read.contents.length} content(s)`);
    }
  }
  if (capabilities.prompts !== undefined) {
    const { prompts } = await client.listPrompts();
    for (const { name } of prompts.filter((each) => each.name.startsWith('conformance__'))) {
      const got = await client.getPrompt({ name });
      console.log(`${name}: ${got.messages.length} message(s)`);
    }
  }
}

async function main() {
  register();
  for (let signIns = 0; ; signIns += 1) {
    let refused = new Error('the server still needs a sign-in');
    if (!needsSignIn()) {
      try {
        await actAsAgent();
        return;
      } catch (error) {
        // A call refused for a missing scope (step-up) asks for another sign-in too.
        if (!isAuthRequired(error)) throw error;
        refused = error;
      }
    }
    if (signIns === MAX_SIGN_INS) throw refused;
    await signIn();
  }
}

try {
  await main();
  console.log('done');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  spawnSync(cofferNode, [coffer, 'stop'], { env, encoding: 'utf8' });
  rmSync(home, { recursive: true, force: true });
}
