import {
  type CustomsStatus,
  isNonUnion,
  NON_UNION_STATUSES,
  type OutboundProcedure,
  shipmentProcedureMissing,
  shipmentProcedureProblem,
} from '@fvg/contracts';
import { Alert } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { stockListOptions, stockOptions } from '../../stock/api/stock-api.ts';

interface LineRef {
  sku: string;
  stockRecordId: string;
}

/**
 * The non-Union goods these lines hold or may take: the articles, and their customs statuses. A given
 * stock record counts by its own status, an article by the owner's non-Union stock of it on hand (the
 * release takes first-in first-out, so it may take some).
 */
export function useNonUnionStock(
  ownerId: string | undefined,
  lines: readonly LineRef[],
): { skus: string[]; statuses: CustomsStatus[] } {
  const results = useQueries({
    queries: lines.map((l) =>
      l.stockRecordId
        ? { ...stockOptions(l.stockRecordId), select: (r: { sku: string; customsStatus: string }) => r }
        : {
            ...stockListOptions({
              page: 1,
              pageSize: 20,
              ...(ownerId ? { ownerId } : {}),
              sku: l.sku.trim().toUpperCase(),
              customsStatus: NON_UNION_STATUSES.join(','),
              onHand: 'true',
            }),
            enabled: l.sku.trim() !== '',
          },
    ),
  });
  const skus = new Set<string>();
  const statuses = new Set<CustomsStatus>();
  results.forEach((r, i) => {
    const line = lines[i];
    if (!line || !r.data) return;
    const data = r.data as
      | { sku: string; customsStatus: CustomsStatus }
      | { items: { sku: string; customsStatus: CustomsStatus }[] };
    if ('items' in data) {
      const sku = line.sku.trim().toUpperCase();
      for (const s of data.items)
        if (s.sku === sku && isNonUnion(s.customsStatus)) {
          skus.add(sku);
          statuses.add(s.customsStatus);
        }
    } else if (isNonUnion(data.customsStatus)) {
      skus.add(data.sku);
      statuses.add(data.customsStatus);
    }
  });
  return { skus: [...skus], statuses: [...statuses] };
}

export interface ProcedureNoticeProps {
  /** The shipment's number, or none for a new one. */
  number?: string | undefined;
  ownerId: string | undefined;
  lines: readonly LineRef[];
  procedure: string;
}

/**
 * In the editor, as soon as a line holds non-Union goods: why the shipment could not be released yet
 * (the same words as the release's refusal) — no outbound procedure chosen, or one their customs status
 * does not allow (goods in temporary storage are not under customs warehousing, which 4071/3171 presume).
 */
export function ProcedureNotice({ number, ownerId, lines, procedure }: ProcedureNoticeProps) {
  const { skus, statuses } = useNonUnionStock(ownerId, lines);
  const chosen = (procedure || null) as OutboundProcedure | null;
  const missing = shipmentProcedureMissing(number ?? 'This shipment', chosen, skus.length > 0);
  if (missing)
    return (
      <Alert color="orange" title="Outbound procedure needed" data-testid="procedure-needed">
        {missing} Non-Union goods: {skus.join(', ')}.
      </Alert>
    );
  const misfit = shipmentProcedureProblem(chosen, statuses);
  if (!misfit) return null;
  return (
    <Alert color="orange" title="This procedure does not fit the goods" data-testid="procedure-misfit">
      {number ?? 'This shipment'} could not be released under {chosen}: {misfit}.
    </Alert>
  );
}
