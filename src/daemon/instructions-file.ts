import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writePrivateFile } from '../config/private-files.js';
import type { InstructionsFile } from '../gateway/server-instructions.js';
import type { Logger } from '../observability/logger.js';

const saved = z.object({ servers: z.record(z.string(), z.string()) });

/**
 * server-instructions.json: what each server said about its use, so that the first agent
 * after a daemon start is told it too. A cache, not a choice of the user's: a file that is
 * missing or unreadable is an empty one (the servers say it again when next connected),
 * and a write that fails is logged and retried with the next change.
 */
export function instructionsFile(path: string, logger: Logger): InstructionsFile {
  return {
    read() {
      try {
        const parsed = saved.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        return new Map(parsed.success ? Object.entries(parsed.data.servers) : []);
      } catch {
        return new Map();
      }
    },
    write(said) {
      try {
        const servers = Object.fromEntries([...said].sort(([a], [b]) => a.localeCompare(b)));
        writePrivateFile(path, `${JSON.stringify({ servers }, null, 2)}\n`);
      } catch (error) {
        logger.warn({ err: error, file: path }, 'server instructions could not be kept');
      }
    },
  };
}
