import { describe, expect, it } from 'vitest';
import { LoadOrder } from '../../../web/src/load-order.js';

describe("the order of a view's loads", () => {
  it('shows only the latest answer', () => {
    const order = new LoadOrder();
    const first = order.begin();
    const second = order.begin();
    expect(order.settle(second)).toBe(true);
    expect(order.settle(first)).toBe(false);
  });

  it('makes a load in flight again when the view changes meanwhile', () => {
    const order = new LoadOrder();
    const sent = order.begin();
    // An event lands before the answer: the answer was read before it.
    expect(order.changed()).toBe(true);
    const again = order.begin();
    expect(order.settle(sent)).toBe(false);
    expect(order.settle(again)).toBe(true);
  });

  it('needs no load when the view changes with none in flight', () => {
    const order = new LoadOrder();
    expect(order.changed()).toBe(false);
    expect(order.settle(order.begin())).toBe(true);
    expect(order.changed()).toBe(false);
  });

  it('keeps a newer load pending when an overtaken one is answered', () => {
    const order = new LoadOrder();
    const first = order.begin();
    order.begin();
    expect(order.settle(first)).toBe(false);
    expect(order.changed()).toBe(true);
  });
});
