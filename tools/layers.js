// The dependency direction of src/, in one table read by both ESLint
// (no-restricted-imports) and test/unit/architecture/layering.test.ts.
// A layer may import only itself and the layers listed in `may`.
// Keep `why` short: it is the message a developer sees when a rule fires.

/** @type {Record<string, { may: string[], why: string }>} */
export const layers = {
  domain: {
    may: [],
    why: 'domain is pure (rules, codes, ports): it must not depend on any other layer.',
  },
  observability: {
    may: ['domain'],
    why: 'logging and trace context sit under every layer; they know only the domain.',
  },
  config: {
    may: ['domain'],
    why: 'config resolves paths and settings; it knows only the domain.',
  },
  store: {
    may: ['domain', 'observability', 'config'],
    why: 'the store implements domain ports; nothing above it may leak into SQL code.',
  },
  credentials: {
    may: ['domain', 'observability', 'config'],
    why: 'credentials implement a domain port; they know nothing of HTTP or sessions.',
  },
  upstream: {
    may: ['domain', 'observability', 'config'],
    why: 'upstream connections implement the domain UpstreamConnector port; they must not reach the store or the gateway.',
  },
  gateway: {
    may: ['domain', 'observability'],
    why: 'the gateway reaches upstreams and preferences only through domain ports, wired by the daemon.',
  },
  api: {
    may: ['domain', 'observability'],
    why: 'the REST API talks to services through domain ports; it never touches the store directly.',
  },
  discovery: {
    may: ['domain', 'config'],
    why: 'discovery finds or spawns the daemon for clients; it must stay small and free of daemon internals.',
  },
  daemon: {
    may: [
      'domain',
      'observability',
      'config',
      'store',
      'credentials',
      'upstream',
      'gateway',
      'api',
      'discovery',
      // The UI's Agents page: the API edits agent configs through the AgentSetup port,
      // and the daemon wires this layer behind it (loaded on first use).
      'agents',
    ],
    why: 'the daemon is the composition root; clients (cli, shim) must not be pulled into it.',
  },
  cli: {
    may: ['domain', 'config', 'discovery', 'agents'],
    why: 'the CLI talks to the daemon over HTTP only; import the daemon through bin, never directly.',
  },
  shim: {
    may: ['domain', 'config', 'discovery'],
    why: 'the shim must start fast and talk to the daemon over its socket only.',
  },
  agents: {
    may: ['domain', 'config'],
    why: 'agent config editing is a client concern; it knows nothing of the daemon internals.',
  },
};

/** Entry files at src/ top level that may import anything (they choose a mode). */
export const entryFiles = ['main.ts'];

/**
 * Node modules src/ must not import, with why: read by ESLint (no-restricted-imports) and
 * test/unit/architecture/layering.test.ts.
 */
export const forbiddenModules = [
  {
    name: 'node:async_hooks',
    message:
      'no AsyncLocalStorage in Coffer: on Node 20 it turns on a promise hook for every promise of the process (a fifth of the daemon CPU per relayed call, docs/PERFORMANCE.md). Pass the trace or caller along in the request context instead.',
  },
];
