import { CofferError } from '../../domain/errors.js';
import { CliExit, type OutputStream } from '../output.js';

/**
 * Reads secret values the user types or pipes, never from the command line (where
 * `ps` and shell history would keep them). On a terminal: a prompt that echoes
 * nothing. With `--from-stdin`: the whole of stdin for one secret (one trailing
 * newline dropped), or one line per secret, in the order they were named.
 */
export interface SecretPromptIo {
  readonly stdin: NodeJS.ReadStream;
  /** Prompts go to stderr, so stdout stays clean for scripts. */
  readonly stderr: OutputStream;
}

const defaultIo = (stderr: OutputStream): SecretPromptIo => ({ stdin: process.stdin, stderr });

/** Ctrl-C at the prompt: the conventional 128 + SIGINT, and nothing stored. */
const INTERRUPTED = 130;
/** Terminals wrap pasted text in these when bracketed paste is on. */
const BRACKETED_PASTE = new RegExp(`${String.fromCharCode(27)}\\[20[01]~`, 'g');

function empty(label: string): CofferError {
  return new CofferError('INVALID_INPUT', `The value for ${label} is empty; nothing was stored`);
}

/** All of standard input, as text (secrets piped in; `agents import --file -`). */
export async function readAll(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function splitPiped(text: string, labels: readonly string[]): string[] {
  if (labels.length === 1) return [text.replace(/\r?\n$/, '')];
  const lines = text.split(/\r?\n/);
  if (lines.length < labels.length || lines.slice(0, labels.length).some((line) => line === ''))
    throw new CofferError(
      'INVALID_INPUT',
      `--from-stdin needs ${labels.length} lines, one value each for ${labels.join(', ')}`,
    );
  return lines.slice(0, labels.length);
}

/** One line from a terminal in raw mode, echoing nothing. */
function promptHidden(question: string, io: SecretPromptIo): Promise<string> {
  const { stdin, stderr } = io;
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      if (error === undefined) resolve(value);
      else reject(error);
    };
    const onData = (chunk: string): void => {
      for (const char of chunk.replace(BRACKETED_PASTE, '')) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new CliExit(INTERRUPTED));
        if (char === '\u0004') return value === '' ? finish(new CliExit(INTERRUPTED)) : finish();
        if (char === '\u007f' || char === '\b') value = Array.from(value).slice(0, -1).join('');
        else if (char >= ' ') value += char;
      }
    };
    stderr.write(question);
    stdin.setEncoding('utf8');
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/**
 * One value per label (e.g. `env "API_TOKEN" of "github"`), read before any request is
 * sent, so a cancelled prompt leaves nothing half-done.
 */
export async function readSecretValues(
  labels: readonly string[],
  fromStdin: boolean,
  stderr: OutputStream,
  io: SecretPromptIo = defaultIo(stderr),
): Promise<string[]> {
  if (labels.length === 0) return [];
  let values: string[];
  if (fromStdin) values = splitPiped(await readAll(io.stdin), labels);
  else {
    if (io.stdin.isTTY !== true)
      throw new CofferError('INVALID_INPUT', 'No terminal to ask for the secret value on', {
        hint: 'pipe it in and add --from-stdin, e.g. `printenv TOKEN | coffer secrets set … --from-stdin`',
      });
    values = [];
    for (const label of labels) values.push(await promptHidden(`Value for ${label}: `, io));
  }
  values.forEach((value, index) => {
    if (value === '') throw empty(labels[index] ?? 'the secret');
  });
  return values;
}
