import { CofferError } from '../../../domain/errors.js';
import type { LogRelay } from '../../log-relay.js';
import type { RequestHandler } from '../method-table.js';

/** `logging/setLevel`: Coffer filters the relayed upstream logs itself (LogRelay). */
export function setLevelHandler(logs: LogRelay): RequestHandler {
  return (params) => {
    const level = params?.['level'];
    if (!logs.setLevel(level))
      throw new CofferError('INVALID_INPUT', `"level" must be one of ${logs.levels.join(', ')}`);
    return {};
  };
}
