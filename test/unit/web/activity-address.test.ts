import { describe, expect, it } from 'vitest';
import {
  activityHash,
  filtersFromHash,
  NO_FILTERS,
} from '../../../web/src/pages/activity-address.js';
import { parseRoute } from '../../../web/src/router.js';

describe("the Activity page's address", () => {
  it('keeps every filter, and the route still reads its server', () => {
    const filters = { outcome: 'error', kind: 'calls', since: '1h', text: 'read file' } as const;
    const hash = activityHash('a b', filters);
    expect(filtersFromHash(hash)).toEqual(filters);
    expect(parseRoute(hash)).toEqual({ page: 'activity', server: 'a b' });
  });

  it('writes only what differs from the defaults', () => {
    expect(activityHash(undefined, NO_FILTERS)).toBe('#/activity');
    expect(activityHash(undefined, { ...NO_FILTERS, kind: 'admin' })).toBe('#/activity?kind=admin');
    expect(filtersFromHash('#/activity')).toEqual(NO_FILTERS);
  });

  it('reads a value the page does not offer as its default', () => {
    expect(filtersFromHash('#/activity?outcome=maybe&kind=x&since=forever&q=ok')).toEqual({
      ...NO_FILTERS,
      text: 'ok',
    });
  });
});
