import type { RequestHandler } from '../method-table.js';

/** `ping`: answered by Coffer itself, whatever the upstreams are doing. */
export const pingHandler: RequestHandler = () => ({});
