import { quantityWithUnit, type StockAvailability } from '@fvg/contracts';
import { Text } from '@mantine/core';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { LookupOption, LookupSource } from '../../../components/records/record-select.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { stockAvailabilityOptions } from '../../stock/index.ts';

/** "340 pieces available". */
export const availableText = (a: StockAvailability) =>
  `${quantityWithUnit(formatNumber(a.available), a.unit)} available`;

const option = (a: StockAvailability): LookupOption => ({
  value: a.sku,
  label: `${a.sku} · ${availableText(a)}`,
});

const exact = (found: readonly StockAvailability[], sku: string) =>
  found.find((a) => a.sku.toUpperCase() === sku.toUpperCase()) ?? null;

/** Exactly this article's figures: the prefix query of the SKU (shared with the picker's cache). */
const ofSku = (ownerId: string | undefined, sku: string) =>
  stockAvailabilityOptions({ ownerId, q: sku.toUpperCase(), limit: 5 });

/**
 * The SKU picker's source: the owner's articles starting with what is typed, each with what is
 * available now. Staff must choose the owner first (the server needs it); a customer's own stock is implied.
 */
export function skuLookup(
  queryClient: QueryClient,
  ownerId: string | undefined,
  needsOwner = false,
): LookupSource {
  return {
    key: ['stock', 'availability', 'lookup', ownerId ?? 'mine'],
    search: async (q) =>
      needsOwner && !ownerId
        ? []
        : (
            await queryClient.fetchQuery(
              stockAvailabilityOptions({ ownerId, q: q.trim().toUpperCase(), limit: 20 }),
            )
          ).map(option),
    byId: async (sku) => {
      if (needsOwner && !ownerId) return null;
      const a = exact(await queryClient.fetchQuery(ofSku(ownerId, sku)), sku);
      return a ? option(a) : null;
    },
  };
}

export interface AvailabilityHintProps {
  ownerId: string | undefined;
  sku: string;
  quantity: string;
}

/** Under a line: what is available of its article, in orange when the quantity asks for more. */
export function AvailabilityHint({ ownerId, sku, quantity }: AvailabilityHintProps) {
  const query = useQuery({ ...ofSku(ownerId, sku), enabled: sku !== '' });
  if (sku === '') return null;
  if (query.isPending)
    return (
      <Text size="xs" c="dimmed">
        …
      </Text>
    );
  const a = exact(query.data ?? [], sku);
  if (!a)
    return (
      <Text size="sm" c="orange" data-testid="availability-warning">
        None in stock
      </Text>
    );
  const wanted = Number(quantity);
  const over = quantity !== '' && Number.isFinite(wanted) && wanted > a.available;
  return over ? (
    <Text size="sm" c="orange" fw={600} data-testid="availability-warning">
      Only {availableText(a)}
    </Text>
  ) : (
    <Text size="sm" c="dimmed" data-testid="availability-hint">
      {availableText(a)}
    </Text>
  );
}
