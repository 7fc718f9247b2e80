import { z } from 'zod';

/** POST /servers/:name/oauth-client: a client registered by hand with the authorization server. */
export const oauthClientSchema = z
  .object({
    client_id: z.string().min(1, 'client_id must not be empty').max(2000),
    client_secret: z.string().min(1, 'client_secret must not be empty').max(4000).optional(),
  })
  .strict();
