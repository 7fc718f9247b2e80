import { pino, type Logger } from 'pino';

/** Writes one `info` line: what `logger.info(fields, msg)` writes. */
export type InfoLine = (fields: Record<string, unknown>, msg: string) => void;

type Mixin = (merge: object, level: number, logger: Logger) => Record<string, unknown>;

/** The parts of a pino logger the line needs (pino.symbols documents them for integrations). */
interface PinoParts {
  readonly stream: { write(line: string): unknown; [key: symbol]: unknown } | undefined;
  readonly levelPrefix: string | undefined;
  readonly time: (() => string) | undefined;
  readonly bindings: string | undefined;
  readonly mixin: Mixin | undefined;
  readonly end: string | undefined;
  /** Anything that makes pino write more than level, time, bindings, fields and msg. */
  readonly custom: boolean;
}

function partsOf(logger: Logger): PinoParts {
  const state = logger as unknown as Record<symbol, unknown>;
  const { symbols } = pino;
  const stream = state[symbols.streamSym] as PinoParts['stream'];
  const formatters = state[symbols.formattersSym] as { log?: unknown } | undefined;
  const hooks = state[symbols.hooksSym] as { logMethod?: unknown; streamWrite?: unknown };
  const level = logger.levels.values['info'] ?? 30;
  return {
    stream,
    levelPrefix: (state[symbols.lsCacheSym] as Record<number, string> | undefined)?.[level],
    time: state[symbols.timeSym] as PinoParts['time'],
    bindings: state[symbols.chindingsSym] as string | undefined,
    mixin: state[symbols.mixinSym] as Mixin | undefined,
    end: state[symbols.endSym] as string | undefined,
    custom:
      formatters?.log !== undefined ||
      hooks?.logMethod !== undefined ||
      hooks?.streamWrite !== undefined ||
      state[symbols.messageKeySym] !== 'msg' ||
      logger.msgPrefix !== undefined ||
      stream?.[symbols.needsMetadataGsym] === true,
  };
}

/**
 * The line every relayed call writes (its activity), built with one `JSON.stringify` and
 * written to the logger's own destination: the same bytes pino writes for
 * `logger.info(fields, msg)` (level, time, the logger's bindings, its mixin's fields, then
 * `fields`, then `msg`) without pino's per-key serialisation and log-method machinery,
 * about a quarter of what recording a call's line costs (docs/PERFORMANCE.md). No redaction: callers pass only
 * fields that hold no secret. A logger configured beyond what this reproduces (a log
 * formatter, hooks, a message prefix) gets plain `logger.info`.
 */
export function infoLine(logger: Logger): InfoLine {
  const parts = partsOf(logger);
  const { stream, levelPrefix, time, bindings, mixin, end } = parts;
  if (
    parts.custom ||
    stream === undefined ||
    levelPrefix === undefined ||
    time === undefined ||
    bindings === undefined ||
    end === undefined
  )
    return (fields, msg) => logger.info(fields, msg);
  const level = logger.levels.values['info'] ?? 30;
  const state = logger as unknown as Record<symbol, string>;
  return (fields, msg) => {
    if (!logger.isLevelEnabled('info')) return;
    // Read each time: `setBindings` replaces them.
    const chindings = state[pino.symbols.chindingsSym];
    // pino's own merge: the mixin's fields first, the caller's win.
    const line =
      mixin === undefined ? { ...fields } : Object.assign(mixin(fields, level, logger), fields);
    line['msg'] = msg;
    const json = JSON.stringify(line);
    stream.write(`${levelPrefix}${time()}${chindings},${json.slice(1, -1)}${end}`);
  };
}
