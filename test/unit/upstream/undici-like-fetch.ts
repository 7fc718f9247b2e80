/**
 * A fetch that treats the signal it is given as Node's fetch (undici) does: it adds an
 * abort listener and never removes it (undici removes it when the Request is collected).
 * `given` holds every signal it was handed.
 */
export function undiciLikeFetch(answer: () => Response = () => Response.json({ result: {} })) {
  const given: AbortSignal[] = [];
  const base = (_url: string | URL, init?: RequestInit) => {
    if (init?.signal) {
      given.push(init.signal);
      init.signal.addEventListener('abort', () => undefined);
    }
    return Promise.resolve(answer());
  };
  return { base, given };
}
