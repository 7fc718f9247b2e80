#!/usr/bin/env node
/**
 * The client the official conformance suite runs for its auth scenarios
 * (`conformance client --suite auth --command "node test/conformance/auth-client.mjs"`):
 * Coffer's own upstream connector and OAuth provider, credentials in a throw-away
 * COFFER_HOME's file store, against the scenario's server URL (the last argument).
 *
 * It behaves as the daemon does: a call that needs a sign-in fails with AUTH_REQUIRED;
 * then `coffer mcp login`'s flow starts (the same OAuthSignInFlow), and this script plays
 * the browser: it opens the authorization URL (the suite's server approves at once) and
 * hands the redirect's query to the flow, as the daemon's /oauth/callback does. At most
 * three sign-ins per run, so a server that never accepts cannot loop it forever.
 */
import console from 'node:console';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const load = (path) => import(pathToFileURL(join(root, 'dist', 'src', path)).href);
const { backendSelector, oauthCredentialStoreOn } = await load('credentials/index.js');
const { OAuthSignInFlow, OAuthVault } = await load('upstream/oauth/index.js');
const { SdkUpstreamConnector } = await load('upstream/upstream-connector.js');

const MAX_SIGN_INS = 3;
/** Never served: the script reads the code from the redirect itself. */
const CALLBACK = 'http://127.0.0.1:8000/oauth/callback';
/** The Client ID Metadata Document the suite's CIMD scenario expects (COFFER_OAUTH_CLIENT_METADATA_URL). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv.at(-1);
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const home = mkdtempSync(join(tmpdir(), 'coffer-conformance-auth-'));
const definition = {
  name: 'conformance',
  transport: 'http',
  url: serverUrl,
  args: [],
  env: {},
  headers: {},
  secret_env: [],
  secret_headers: [],
  enabled: true,
  auto_enable_new_capabilities: true,
};

const select = backendSelector({
  paths: { secretsFile: join(home, 'secrets.json') },
  env: { COFFER_KEYCHAIN: 'file' },
});
const flow = new OAuthSignInFlow({
  vault: new OAuthVault(oauthCredentialStoreOn(select)),
  clock: { now: () => new Date() },
  lookup: async () => definition,
  redirectUrl: CALLBACK,
  redirectUris: [CALLBACK],
  clientMetadataUrl: CLIENT_METADATA_URL,
});
const connector = new SdkUpstreamConnector({
  clientInfo: { name: 'coffer', version: 'conformance' },
  requestTimeoutMs: 100_000,
  authProvider: (server) => flow.provider(server, { mode: 'connect' }),
});
const connectContext = {
  clientCapabilities: {},
  peer: {
    request: () => Promise.reject(new Error('not supported')),
    notify: () => {},
  },
  sessionId: null,
};

/** The browser's part: approve, then bring the redirect's query back to the flow. */
async function signIn() {
  const { authorization_url: url } = await flow.start(definition.name);
  const approval = await globalThis.fetch(url, { redirect: 'manual' });
  const location = approval.headers.get('location');
  if (location === null)
    throw new Error(`no redirect from the authorization endpoint (${approval.status})`);
  const outcome = await flow.complete(new globalThis.URL(location).searchParams);
  if (!outcome.ok) throw new Error(outcome.message);
}

/** What an agent does first: list the tools, call each. */
async function useServer() {
  const connection = await connector.connect(definition, connectContext);
  try {
    const listed = await connection.request('tools/list', {});
    for (const tool of listed.tools ?? [])
      await connection.request('tools/call', { name: tool.name, arguments: {} });
  } finally {
    await connection.close();
  }
}

async function main() {
  if (typeof context.client_id === 'string')
    await flow.setClient(definition.name, {
      client_id: context.client_id,
      ...(typeof context.client_secret === 'string'
        ? { client_secret: context.client_secret }
        : {}),
    });
  for (let signIns = 0; ; signIns += 1) {
    try {
      await useServer();
      return;
    } catch (error) {
      if (error?.code !== 'AUTH_REQUIRED' || signIns === MAX_SIGN_INS) throw error;
      await signIn();
    }
  }
}

try {
  await main();
  console.log('done');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  rmSync(home, { recursive: true, force: true });
}
