import { z } from 'zod';
import { serverNameProblem } from './naming.js';
import type { SecretRef } from './ports/secret-store-port.js';

/**
 * What the user registers: how to reach one MCP server. Secrets are referenced by name
 * (`secret_env`, `secret_headers`) and resolved from the keychain only when the
 * upstream is spawned or called; the definition itself never holds them.
 */
export const transports = ['stdio', 'http', 'sse'] as const;
export type Transport = (typeof transports)[number];

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_NAME_RULE =
  'environment variable names are letters, digits and "_", not starting with a digit (like API_TOKEN)';

const serverName = z.string().superRefine((name, ctx) => {
  const problem = serverNameProblem(name);
  if (problem !== undefined)
    ctx.addIssue({ code: 'custom', message: `invalid server name: ${problem}` });
});

/**
 * No operating system passes a NUL in a program's command line or environment, and no
 * HTTP header holds a line break: such a value was stored and then failed at each start
 * with Node's own words. Refused when given instead, by the same rule as a secret's.
 */
const processText = z
  .string()
  .refine((value) => !value.includes('\0'), 'must not hold a NUL character (\\0)');
const headerValue = z
  .string()
  .refine((value) => !/[\r\n\0]/.test(value), 'a header value is one line, without NUL');

const envMap = z.record(z.string().regex(ENV_NAME, ENV_NAME_RULE), processText);
const headerMap = z.record(
  z.string().regex(HEADER_NAME, 'not a valid HTTP header name'),
  headerValue,
);

export const serverDefinitionSchema = z
  .object({
    name: serverName,
    transport: z.enum(transports),
    command: processText.pipe(z.string().min(1, 'command must not be empty')).optional(),
    args: z.array(processText).default([]),
    env: envMap.default({}),
    cwd: processText.pipe(z.string().min(1)).optional(),
    url: z.string().optional(),
    headers: headerMap.default({}),
    secret_env: z.array(z.string().regex(ENV_NAME, ENV_NAME_RULE)).default([]),
    secret_headers: z
      .array(z.string().regex(HEADER_NAME, 'not a valid HTTP header name'))
      .default([]),
    enabled: z.boolean().default(true),
    auto_enable_new_capabilities: z.boolean().default(true),
    shared: z.boolean().default(false),
  })
  .strict()
  .superRefine((def, ctx) => {
    for (const name of Object.keys(def.env).filter((key) => def.secret_env.includes(key)))
      ctx.addIssue({ code: 'custom', path: ['env', name], message: twice(name, 'secret_env') });
    const secretHeaders = new Set(def.secret_headers.map((name) => name.toLowerCase()));
    for (const name of Object.keys(def.headers).filter((key) =>
      secretHeaders.has(key.toLowerCase()),
    ))
      ctx.addIssue({
        code: 'custom',
        path: ['headers', name],
        message: twice(name, 'secret_headers'),
      });
    if (def.transport === 'stdio') {
      if (def.command === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['command'],
          message: 'a stdio server needs a command',
        });
      if (def.url !== undefined)
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'a stdio server has no url' });
      return;
    }
    if (def.url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: `a ${def.transport} server needs a url`,
      });
    } else if (!isHttpUrl(def.url)) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'url must be an http:// or https:// URL',
      });
    }
    if (def.command !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['command'],
        message: `a ${def.transport} server has no command`,
      });
  });

export type ServerDefinitionInput = z.input<typeof serverDefinitionSchema>;
export type ServerDefinition = z.output<typeof serverDefinitionSchema>;

/** A name given a plain value and a secret one: which would the server get? */
function twice(name: string, secrets: string): string {
  return `${name} is also in ${secrets}: keep it in one (a secret's value comes from the keychain)`;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A stored server: the definition plus what the store adds. */
export interface ServerRecord extends ServerDefinition {
  readonly id: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/** One secret as a set key: `<server>/<kind>/<name>` (names cannot hold "/"). */
export function secretKey(ref: SecretRef): string {
  return `${ref.server}/${ref.kind}/${ref.name}`;
}

/** The keychain entries a definition names (`secret_env`, then `secret_headers`). */
export function secretRefsOf(
  definition: Pick<ServerDefinition, 'name' | 'secret_env' | 'secret_headers'>,
): SecretRef[] {
  const server = definition.name;
  return [
    ...definition.secret_env.map((name) => ({ server, kind: 'env' as const, name })),
    ...definition.secret_headers.map((name) => ({ server, kind: 'header' as const, name })),
  ];
}
