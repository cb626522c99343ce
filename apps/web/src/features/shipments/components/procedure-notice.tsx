import { isNonUnion, NON_UNION_STATUSES, shipmentProcedureMissing } from '@fvg/contracts';
import { Alert } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { stockListOptions, stockOptions } from '../../stock/api/stock-api.ts';

interface LineRef {
  sku: string;
  stockRecordId: string;
}

/**
 * The articles of these lines that are (or may be taken from) non-Union stock: a given stock record by
 * its customs status, an article by whether the owner has non-Union stock of it on hand (the release
 * takes first-in first-out, so it may take some).
 */
export function useNonUnionSkus(ownerId: string | undefined, lines: readonly LineRef[]): string[] {
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
  results.forEach((r, i) => {
    const line = lines[i];
    if (!line || !r.data) return;
    const data = r.data as { sku: string; customsStatus: string } | { items: { sku: string }[] };
    if ('items' in data) {
      const sku = line.sku.trim().toUpperCase();
      if (data.items.some((s) => s.sku === sku)) skus.add(sku);
    } else if (isNonUnion(data.customsStatus as never)) skus.add(data.sku);
  });
  return [...skus];
}

export interface ProcedureNoticeProps {
  /** The shipment's number, or none for a new one. */
  number?: string | undefined;
  ownerId: string | undefined;
  lines: readonly LineRef[];
  procedure: string;
}

/**
 * In the editor, as soon as a line holds non-Union goods and no outbound procedure is chosen: why the
 * shipment could not be released yet (the same words as the release's refusal).
 */
export function ProcedureNotice({ number, ownerId, lines, procedure }: ProcedureNoticeProps) {
  const skus = useNonUnionSkus(ownerId, lines);
  const problem = shipmentProcedureMissing(
    number ?? 'This shipment',
    (procedure || null) as '4071' | null,
    skus.length > 0,
  );
  if (!problem) return null;
  return (
    <Alert color="orange" title="Outbound procedure needed" data-testid="procedure-needed">
      {problem} Non-Union goods: {skus.join(', ')}.
    </Alert>
  );
}
