/** What a watched response body reports, and how it ends when its request was cancelled. */
export interface BodyWatch {
  /** Called once: the body was read to its end, failed, or was cancelled by its reader. */
  readonly ended: () => void;
  /** A read that fails while this says true ends the body quietly (a cancelled request). */
  readonly quiet?: () => boolean;
}

/**
 * The same response, its body passed through a stream that says when it ends. Only the
 * reader knows when a response is over (an SSE answer may stream for minutes after fetch
 * resolved), so that is where a request's resources are let go of (src/upstream/request-signal.ts).
 */
export function watchedBody(response: Response, watch: BodyWatch): Response {
  const body = response.body;
  if (body === null) {
    watch.ended();
    return response;
  }
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
    watch.ended();
  };
  const passed = new ReadableStream<Uint8Array>({
    pull: async (stream) => {
      try {
        const { done, value } = await reader.read();
        if (!done) return stream.enqueue(value);
        end();
        stream.close();
      } catch (error) {
        end();
        if (watch.quiet?.() === true) stream.close();
        else stream.error(error);
      }
    },
    cancel: async (reason) => {
      end();
      await reader.cancel(reason);
    },
  });
  const { status, statusText, headers } = response;
  return new Response(passed, { status, statusText, headers });
}
