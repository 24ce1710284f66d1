import { describe, expect, it } from 'vitest';
import { PageQuery, issuesToDetails } from '../../../shared/platform/common';
import { ShipmentListQuery } from '../../../shared/platform/resources';

const details = (q: Record<string, unknown>) => issuesToDetails(ShipmentListQuery.safeParse(q).error?.issues ?? []);

describe('ShipmentListQuery storeId', () => {
  it('takes an integer given as text', () => {
    expect(ShipmentListQuery.parse({ storeId: '42' }).storeId).toBe(42);
    expect(ShipmentListQuery.parse({}).storeId).toBeUndefined();
  });

  it.each(['x', '1.5', 'NaN', '4e'])('answers "storeId must be an integer" for %j, once', (v) => {
    expect(details({ storeId: v })).toEqual({ storeId: ['storeId must be an integer'] });
  });

  it('says it the way PageQuery says it for page', () => {
    expect(issuesToDetails(PageQuery.safeParse({ page: 'x' }).error?.issues ?? [])).toEqual({ page: ['page must be an integer'] });
  });
});
