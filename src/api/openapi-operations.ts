import type { z } from 'zod';
import { guardEvents } from '../domain/secret-refusals.js';
import {
  createServerSchema,
  patchServerSchema,
  setPoliciesSchema,
  acceptReviewSchema,
  toggleCapabilitiesSchema,
} from './request-schemas.js';
import { agentChangeSchema, agentImportSchema } from './agent-schemas.js';
import { oauthClientSchema } from './login-schemas.js';
import { toolCallSchema } from './tool-call-routes.js';
import { setSecretSchema } from './secret-schemas.js';

export type JsonSchema = Record<string, unknown>;

export interface Operation {
  readonly summary: string;
  /** A zod request schema: the document is generated from it, so it cannot drift. */
  readonly body?: z.ZodType;
  readonly query?: readonly Parameter[];
  /** Success status and what it carries. */
  readonly ok: readonly [status: number, description: string];
  readonly stream?: boolean;
}

interface Parameter {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonSchema;
}

export const str = { type: 'string' };
const whole = { type: 'integer', minimum: 1 };

/**
 * The activity query is validated in activity-routes.ts; its parameters are few and
 * plain, so they are listed here by hand.
 */
const activityQuery: readonly Parameter[] = [
  { name: 'server', description: 'only this server', schema: str },
  { name: 'since', description: '`30m`, `1h`, `2d` or an ISO time', schema: str },
  { name: 'outcome', description: 'ok or error', schema: { enum: ['ok', 'error'] } },
  {
    name: 'guard',
    description:
      "only calls the secret guard acted on (each row's `guard`: comma-separated events): `any` or one event",
    schema: { enum: ['any', ...guardEvents] },
  },
  { name: 'limit', description: 'rows per page (default 100, at most 1000)', schema: whole },
  { name: 'before_id', description: '`next_before_id` of the previous page', schema: whole },
];

/**
 * A server's capability listings. A tool's `held` is true while its definition changed
 * since the user allowed it: agents do not see it until `coffer mcp review` accepts it.
 */
const LISTINGS =
  '{tools, prompts, resources, resource_templates}: each {status: ok | could-not-load | not-supported, error?, items: [{key, enabled, definition, held (tools only: changed since allowed, held back until reviewed at /servers/{name}/reviews)}]}';

/** Every /api/v1 route: the table openapi.ts turns into the document. */
export const operations: Record<string, Record<string, Operation>> = {
  '/status': { get: { summary: 'Daemon status and servers', ok: [200, 'status'] } },
  '/daemon/stop': { post: { summary: 'Stop the daemon gracefully', ok: [202, 'stopping'] } },
  '/servers': {
    get: { summary: 'List registered servers with their state', ok: [200, '{servers}'] },
    post: { summary: 'Register a server', body: createServerSchema, ok: [201, '{server}'] },
  },
  '/servers/{name}': {
    get: { summary: 'One server', ok: [200, '{server}'] },
    patch: {
      summary: 'Change a server (null clears); secrets it no longer names leave the keychain',
      body: patchServerSchema,
      ok: [200, '{server}'],
    },
    delete: {
      summary: 'Remove a server, its preferences, and its secrets and sign-in from the keychain',
      ok: [204, 'removed'],
    },
  },
  '/servers/{name}/enable': { post: { summary: 'Enable a server', ok: [200, '{server}'] } },
  '/servers/{name}/login': {
    post: {
      summary: 'Start an OAuth sign-in; the browser opens the answered URL',
      ok: [200, '{authorization_url, expires_at}'],
    },
    get: { summary: 'How the last sign-in went', ok: [200, '{state, error?}'] },
  },
  '/servers/{name}/logout': {
    post: {
      summary: 'Revoke (RFC 7009) and forget OAuth tokens',
      ok: [200, '{revoked, forgotten}'],
    },
  },
  '/servers/{name}/oauth-client': {
    post: {
      summary: 'Use a pre-registered OAuth client (the secret goes to the keychain)',
      body: oauthClientSchema,
      ok: [204, 'stored'],
    },
  },
  '/servers/{name}/disable': { post: { summary: 'Disable a server', ok: [200, '{server}'] } },
  '/servers/{name}/capabilities': {
    get: { summary: 'Live capability lists with preferences', ok: [200, LISTINGS] },
    post: {
      summary: 'Enable or disable one or many capabilities',
      body: toggleCapabilitiesSchema,
      ok: [200, '{changed}'],
    },
  },
  '/servers/{name}/policies': {
    get: {
      summary: 'Approval policies: each tool, whether destructive, and what applies',
      ok: [200, '{server, destructive, tools: [{key, policy, destructive, effective, enabled}]}'],
    },
    post: {
      summary: "Set the destructive default and tools' own policies (null forgets one)",
      body: setPoliciesSchema,
      ok: [200, '{server, destructive, tools}'],
    },
  },
  '/servers/{name}/reviews': {
    get: {
      summary: 'Tools held back because their definition changed since you allowed them',
      ok: [200, '{server, tools: [{key, pinned, pinned_at, changed, detected_at, diff}]}'],
    },
    post: {
      summary: 'Accept the changed definition of one tool ({tool}) or of all ({})',
      body: acceptReviewSchema,
      ok: [200, '{server, accepted}'],
    },
  },
  '/servers/{name}/refresh': {
    post: { summary: 'Drop caches and list again', ok: [200, LISTINGS] },
  },
  '/servers/{name}/test': {
    post: {
      summary: 'Test with a fresh temporary connection',
      ok: [200, '{ok, latency_ms, counts | error}'],
    },
  },
  '/servers/{name}/call': {
    post: {
      summary: 'Call a tool as an agent would (preferences enforced, activity recorded)',
      body: toolCallSchema,
      ok: [200, '{outcome, result | error, activity}'],
    },
  },
  '/secrets': {
    get: { summary: 'Secret names and state, never values', ok: [200, '{store, secrets}'] },
    post: { summary: 'Store a secret in the keychain', body: setSecretSchema, ok: [204, 'stored'] },
  },
  '/secrets/{server}/{kind}/{name}': {
    delete: { summary: 'Remove a secret', ok: [204, 'removed'] },
  },
  '/activity': {
    get: {
      summary: 'Calls and admin actions, newest first',
      query: activityQuery,
      ok: [200, '{activity, next_before_id}'],
    },
  },
  '/tools/search': {
    get: {
      summary: 'Enabled tools ranked for a query (as coffer__search_tools)',
      query: [
        { name: 'q', description: 'what to search for', schema: str },
        { name: 'limit', description: 'how many results', schema: whole },
        { name: 'server', description: 'only this server', schema: str },
      ],
      ok: [200, '{query, results, unavailable}'],
    },
  },
  '/agents': {
    get: {
      summary: 'Agents on this machine: config files, servers, whether Coffer is installed',
      ok: [200, '{agents}'],
    },
  },
  '/agents/{id}/install/preview': {
    post: {
      summary: 'What installing Coffer would write (values masked); writes nothing',
      body: agentChangeSchema,
      ok: [200, '{preview}'],
    },
  },
  '/agents/{id}/install': {
    post: {
      summary:
        'Install Coffer in the agent (backup first; refused if the file changed since the preview)',
      body: agentChangeSchema,
      ok: [200, '{result}'],
    },
  },
  '/agents/{id}/uninstall/preview': {
    post: {
      summary: 'What uninstalling Coffer would write (values masked); writes nothing',
      body: agentChangeSchema,
      ok: [200, '{preview}'],
    },
  },
  '/agents/{id}/uninstall': {
    post: {
      summary: 'Remove Coffer from the agent and put back what install took out',
      body: agentChangeSchema,
      ok: [200, '{result}'],
    },
  },
  '/agents/{id}/import/preview': {
    post: {
      summary:
        "What importing the agent's servers (or `text` in its format) would do (secrets by name); changes nothing",
      body: agentImportSchema,
      ok: [200, '{agent, scope, path, items}'],
    },
  },
  '/agents/{id}/import': {
    post: {
      summary:
        "Register the agent's servers (or those of `text` in its format), their secrets to the keychain",
      body: agentImportSchema,
      ok: [200, '{agent, scope, path, items}'],
    },
  },
  '/context-budget': {
    get: {
      summary: 'What tools/list costs a model (characters / 4), per server, full vs lean',
      ok: [200, '{servers, full, lean}'],
    },
  },
  '/events': {
    get: {
      summary: 'Server-sent events: DaemonEvent JSON per message',
      ok: [200, 'event stream'],
      stream: true,
    },
  },
  '/doctor': {
    get: {
      summary:
        'Health report (coffer doctor): versions, port, keychain, per server its command, state, last start and error, the agents; findings with stable codes and fixes',
      query: [
        {
          name: 'agents',
          description: 'no: leave the agents and their findings out (default yes)',
          schema: { type: 'string', enum: ['yes', 'no'] },
        },
      ],
      ok: [200, 'DoctorReport'],
    },
  },
  '/config': {
    get: {
      summary:
        'The declarative configuration (docs/CONFIG.md): servers, switches and approval policies, secrets by name only',
      ok: [200, 'ConfigFile'],
    },
  },
  '/config/import': {
    post: {
      summary: 'Import a configuration: returns the plan, applied unless dry_run',
      query: [
        {
          name: 'dry_run',
          description: '1: only say what would change',
          schema: { enum: ['1', 'true'] },
        },
      ],
      ok: [200, '{dry_run, changes, missing_secrets, kept}'],
    },
  },
  '/ui/login-code': {
    post: {
      summary: 'One-time browser login code (bearer token only)',
      ok: [200, '{code, url, expires_at}'],
    },
  },
  '/openapi.json': { get: { summary: 'This document', ok: [200, 'OpenAPI 3.1'] } },
};
