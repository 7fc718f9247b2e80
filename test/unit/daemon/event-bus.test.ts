import { describe, expect, it } from 'vitest';
import { EventBus, MAX_SUBSCRIBERS } from '../../../src/daemon/event-bus.js';
import type { DaemonEvent } from '../../../src/domain/ports.js';

const added: DaemonEvent = { type: 'server.added', server: 'files' };

describe('event bus', () => {
  it('delivers each event to every subscriber until it unsubscribes', () => {
    const bus = new EventBus();
    const a: DaemonEvent[] = [];
    const b: DaemonEvent[] = [];
    const stopA = bus.subscribe((e) => a.push(e));
    bus.subscribe((e) => b.push(e));
    bus.emit(added);
    stopA();
    bus.emit({ type: 'server.removed', server: 'files' });
    expect(a).toEqual([added]);
    expect(b.map((e) => e.type)).toEqual(['server.added', 'server.removed']);
  });

  it('a throwing listener neither reaches the emitter nor starves the others', () => {
    const bus = new EventBus();
    const seen: DaemonEvent[] = [];
    bus.subscribe(() => {
      throw new Error('broken stream');
    });
    bus.subscribe((e) => seen.push(e));
    expect(() => bus.emit(added)).not.toThrow();
    expect(seen).toEqual([added]);
  });

  it('close ends every stream, and later subscribers at once', () => {
    const bus = new EventBus();
    let closed = 0;
    bus.subscribe(
      () => undefined,
      () => (closed += 1),
    );
    bus.close();
    expect(closed).toBe(1);
    expect(bus.size).toBe(0);
    bus.subscribe(
      () => undefined,
      () => (closed += 1),
    );
    expect(closed).toBe(2);
    expect(bus.size).toBe(0);
  });

  it('keeps a bounded number of subscribers, closing the oldest', () => {
    const bus = new EventBus();
    let firstClosed = false;
    bus.subscribe(
      () => undefined,
      () => (firstClosed = true),
    );
    for (let i = 0; i < MAX_SUBSCRIBERS; i += 1) bus.subscribe(() => undefined);
    expect(firstClosed).toBe(true);
    expect(bus.size).toBe(MAX_SUBSCRIBERS);
  });

  it('its observer sees every event, however many streams come and go', () => {
    const seen: DaemonEvent[] = [];
    const bus = new EventBus(undefined, (event) => seen.push(event));
    for (let i = 0; i < MAX_SUBSCRIBERS + 5; i += 1) bus.subscribe(() => undefined);
    bus.emit(added);
    expect(seen).toEqual([added]);
    expect(bus.size).toBe(MAX_SUBSCRIBERS);
  });
});
