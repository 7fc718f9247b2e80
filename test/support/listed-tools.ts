import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * The tool names a client sees once every one of `expected` is listed, as an agent sees
 * them: Coffer answers tools/list with the upstreams that are ready (an upstream still
 * starting is left out at the list deadline, COFFER_LIST_TIMEOUT_MS) and sends
 * `notifications/tools/list_changed` when the late one arrives; each such notice is a
 * reason to list again. Gives up after `timeoutMs`, which outlasts an upstream's whole
 * start (COFFER_CONNECT_TIMEOUT_MS, 60 s), naming what is still missing.
 *
 * It owns the client's list_changed handler while it waits.
 */
export async function toolsOnceListed(
  client: Client,
  expected: readonly string[],
  timeoutMs = 90_000,
): Promise<string[]> {
  let wake = (): void => undefined;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => wake());
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      // Armed before listing: a notice sent while the list is answered is not lost.
      const changed = new Promise<void>((resolve) => (wake = resolve));
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      const missing = expected.filter((name) => !names.includes(name));
      if (missing.length === 0) return names;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `${missing.join(', ')} not listed after ${timeoutMs} ms; listed: ${names.join(', ')}`,
        );
      await untilOrAfter(changed, left);
    }
  } finally {
    client.removeNotificationHandler(ToolListChangedNotificationSchema.shape.method.value);
  }
}

/** Waits for `event`, or at most `ms` (the caller's deadline, not a pause). */
async function untilOrAfter(event: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([event, limit]);
  } finally {
    clearTimeout(timer);
  }
}
