import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { parseHello, READY_LINE, refusedLine } from '../../../src/gateway/socket-hello.js';

const TOKEN = 'the-token';
const matches = (given: string): boolean => given === TOKEN;
const hello = (fields: object): Buffer =>
  Buffer.from(JSON.stringify({ coffer: 'hello', version: 1, token: TOKEN, ...fields }));

function refusal(line: Buffer): CofferError {
  try {
    parseHello(line, matches);
  } catch (error) {
    if (error instanceof CofferError) return error;
  }
  throw new Error('expected a refusal');
}

describe('the socket hello', () => {
  it('asks for an aggregated session, a mode, or one server', () => {
    expect(parseHello(hello({}), matches)).toEqual({ scope: { kind: 'aggregated' } });
    expect(parseHello(hello({ mode: 'lean' }), matches)).toEqual({
      scope: { kind: 'aggregated' },
      mode: 'lean',
    });
    expect(parseHello(hello({ server: 'github' }), matches)).toEqual({
      scope: { kind: 'single', server: 'github' },
    });
  });

  it('judges the token before anything else', () => {
    expect(refusal(hello({ token: 'wrong', version: 9, mode: 'x' })).code).toBe('UNAUTHORIZED');
    expect(refusal(hello({ token: undefined })).code).toBe('UNAUTHORIZED');
  });

  it('refuses other versions, bad modes, bad server names and a mode with a server', () => {
    for (const fields of [
      { version: 2 },
      { mode: 'tiny' },
      { mode: 3 },
      { server: 'Not A Name' },
      { server: 'github', mode: 'lean' },
    ])
      expect(refusal(hello(fields)).code).toBe('INVALID_INPUT');
    expect(refusal(Buffer.from('not json')).code).toBe('INVALID_INPUT');
    expect(refusal(Buffer.from('{"coffer":"bye"}')).code).toBe('INVALID_INPUT');
  });

  it('answers with one line each way', () => {
    expect(JSON.parse(READY_LINE)).toEqual({ coffer: 'ready', version: 1 });
    const error = new CofferError('UNAUTHORIZED', 'no', { hint: 'read daemon.json' });
    expect(JSON.parse(refusedLine(error))).toEqual({
      coffer: 'refused',
      code: 'UNAUTHORIZED',
      message: 'no',
      hint: 'read daemon.json',
    });
  });
});
