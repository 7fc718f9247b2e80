import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readSecretValues } from '../../../src/cli/commands/secret-input.js';
import { CliExit } from '../../../src/cli/output.js';

/** A stand-in terminal: raw mode is recorded, keystrokes are written by the test. */
function terminal(isTTY: boolean) {
  const stream = new PassThrough() as PassThrough & {
    isTTY: boolean;
    rawModes: boolean[];
    setRawMode(mode: boolean): void;
  };
  stream.isTTY = isTTY;
  stream.rawModes = [];
  stream.setRawMode = (mode) => void stream.rawModes.push(mode);
  let echoed = '';
  const stderr = { write: (text: string) => void (echoed += text), isTTY };
  const io = { stdin: stream as unknown as NodeJS.ReadStream, stderr };
  return { stream, io, stderr, echoed: () => echoed };
}

describe('readSecretValues', () => {
  it('prompts without echoing, handling backspace and pasted brackets', async () => {
    const tty = terminal(true);
    const value = readSecretValues(['env "T" of "s"'], false, tty.stderr, tty.io);
    tty.stream.write('\u001b[200~hunter3\u001b[201~');
    tty.stream.write('\u007f2\r');
    expect(await value).toEqual(['hunter2']);
    expect(tty.echoed()).toBe('Value for env "T" of "s": \n');
    expect(tty.stream.rawModes).toEqual([true, false]);
  });

  it('Ctrl-C at the prompt exits 130 and stores nothing', async () => {
    const tty = terminal(true);
    const value = readSecretValues(['env "T" of "s"'], false, tty.stderr, tty.io);
    tty.stream.write('abc\u0003');
    await expect(value).rejects.toEqual(new CliExit(130));
    expect(tty.stream.rawModes).toEqual([true, false]);
  });

  it('refuses to prompt without a terminal and says how to pipe instead', async () => {
    const pipe = terminal(false);
    await expect(readSecretValues(['env "T" of "s"'], false, pipe.stderr, pipe.io)).rejects.toThrow(
      /No terminal/,
    );
  });

  it('--from-stdin: the whole input for one secret, one line each for several', async () => {
    const one = terminal(false);
    const single = readSecretValues(['a'], true, one.stderr, one.io);
    one.stream.end('line one\nline two\n');
    expect(await single).toEqual(['line one\nline two']);

    const many = terminal(false);
    const values = readSecretValues(['a', 'b'], true, many.stderr, many.io);
    many.stream.end('first\r\nsecond\n');
    expect(await values).toEqual(['first', 'second']);

    const short = terminal(false);
    const missing = readSecretValues(['a', 'b'], true, short.stderr, short.io);
    short.stream.end('only\n');
    await expect(missing).rejects.toThrow(/needs 2 lines/);

    const empty = terminal(false);
    const nothing = readSecretValues(['a'], true, empty.stderr, empty.io);
    empty.stream.end('\n');
    await expect(nothing).rejects.toThrow(/empty; nothing was stored/);
  });
});
