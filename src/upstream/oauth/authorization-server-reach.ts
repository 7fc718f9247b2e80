import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CofferError } from '../../domain/errors.js';
import { networkProblem } from '../network-problem.js';

/**
 * Whether an OAuth flow could reach the authorization server a remote server's metadata
 * names, on another origin. A network failure there is said as that server's, not the
 * MCP server's: the MCP server answered (its 401, its metadata), and a user told it
 * "could not be reached" checks the wrong one. The SDK swallows a failed refresh and goes
 * on to ask for a sign-in, so the failure is also kept for the provider to say instead.
 */
export class AuthorizationServerReach {
  private failure: CofferError | undefined;

  constructor(
    private readonly server: string,
    private readonly serverUrl: URL,
  ) {}

  /** `base`, with a failure to reach another origin than the server's said as above. */
  watch(base: FetchLike): FetchLike {
    return async (url, init) => {
      const target = url instanceof URL ? url : new URL(url);
      if (target.origin === this.serverUrl.origin) return base(url, init);
      try {
        const response = await base(url, init);
        this.failure = undefined;
        return response;
      } catch (error) {
        const problem = networkProblem(error);
        if (problem === undefined) throw error;
        // Not a TypeError, which the SDK's discovery takes for "no metadata here".
        this.failure = unreachable(this.server, target.origin, problem, error);
        throw this.failure;
      }
    };
  }

  /** The failure since the last call, once. */
  take(): CofferError | undefined {
    const failure = this.failure;
    this.failure = undefined;
    return failure;
  }
}

function unreachable(server: string, origin: string, problem: string, cause: unknown) {
  return new CofferError(
    'UPSTREAM_UNAVAILABLE',
    `Upstream "${server}" answered, but the authorization server of "${server}" at ${origin} could not be reached: ${problem}`,
    {
      hint: `its sign-in and token refresh go through that server: check that it is up, then try again (\`coffer mcp test ${server}\`); nothing was forgotten`,
      data: { server, authorization_server: origin },
      cause,
    },
  );
}
