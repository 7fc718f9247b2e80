import { z } from 'zod';
import { CofferError } from '../domain/errors.js';
import type { SecretKind } from '../domain/ports.js';
import { serverDefinitionSchema } from '../domain/server-definition.js';
import { describeIssue } from './parse-request.js';

/**
 * Request shapes of /secrets. Names follow the definition's own rules (the same zod
 * elements), so a secret can always be referenced by the server it belongs to. No
 * message here ever quotes a value.
 */
const shape = serverDefinitionSchema.shape;
const envName = shape.secret_env.unwrap().element;
const headerName = shape.secret_headers.unwrap().element;
export const secretKinds = ['env', 'header'] as const satisfies readonly SecretKind[];

/** Large enough for any token or PEM key; small enough to keep env blocks sane. */
export const MAX_SECRET_BYTES = 64 * 1024;

const secretValue = z
  .string({ error: 'value must be a string' })
  .min(1, 'value must not be empty')
  .refine((value) => Buffer.byteLength(value) <= MAX_SECRET_BYTES, {
    message: `value must be at most ${MAX_SECRET_BYTES} bytes`,
  })
  .refine((value) => !value.includes('\0'), { message: 'value must not contain NUL' });

export const setSecretSchema = z
  .object({
    server: shape.name,
    kind: z.enum(secretKinds),
    name: z.string(),
    value: secretValue,
  })
  .strict()
  .superRefine((body, ctx) => {
    const nameSchema = body.kind === 'env' ? envName : headerName;
    if (!nameSchema.safeParse(body.name).success)
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message:
          body.kind === 'env'
            ? 'an environment variable name is letters, digits and "_", not starting with a digit'
            : 'not a valid HTTP header name',
      });
    if (body.kind === 'header' && /[\r\n]/.test(body.value))
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'a header value is one line' });
  });

export type SetSecretInput = z.output<typeof setSecretSchema>;

/** Like parseInput, but `name` here is the secret's; the server's is `server`. */
export function parseSecretInput(value: unknown): SetSecretInput {
  const result = setSecretSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const code = issue?.path[0] === 'server' ? 'INVALID_SERVER_NAME' : 'INVALID_INPUT';
  throw new CofferError(code, issue === undefined ? 'Invalid request' : describeIssue(issue));
}

/** DELETE /secrets/:server/:kind/:name: the same rules, from path segments. */
export function parseSecretPath(server: string, kind: string, name: string) {
  const ref = parseSecretInput({ server, kind, name, value: '-' });
  return { server: ref.server, kind: ref.kind, name: ref.name };
}
