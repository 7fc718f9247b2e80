/** Names this machine answers to on loopback, as a URL's hostname spells them. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1', '0.0.0.0']);

/**
 * True when `url` reaches the daemon listening on `port` of this machine: any path there is
 * Coffer itself (/mcp, /servers/<name>/mcp). Registered as an upstream it would list
 * itself, whose list lists itself again, until the list times out; nothing comes of it.
 */
export function isOwnEndpoint(url: string, port: number): boolean {
  if (port <= 0) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const defaultPort = parsed.protocol === 'https:' ? 443 : 80;
  const urlPort = parsed.port === '' ? defaultPort : Number(parsed.port);
  return LOOPBACK.has(parsed.hostname.toLowerCase()) && urlPort === port;
}
