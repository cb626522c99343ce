import {
  type CustomsStatus,
  isNonUnion,
  NON_UNION_STATUSES,
  type OutboundProcedure,
  shipmentLinesMixProblem,
  shipmentProcedureMissing,
  shipmentProcedureProblem,
} from '@fvg/contracts';
import { Alert } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { stockListOptions, stockOptions } from '../../stock/index.ts';

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
): { skus: string[]; statuses: CustomsStatus[]; perLine: CustomsStatus[][] } {
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
  const perLine = lines.map((line, i): CustomsStatus[] => {
    const data = results[i]?.data as
      | { sku: string; customsStatus: CustomsStatus }
      | { items: { sku: string; customsStatus: CustomsStatus }[] }
      | undefined;
    if (!data) return [];
    const mine = new Set<CustomsStatus>();
    if ('items' in data) {
      const sku = line.sku.trim().toUpperCase();
      for (const s of data.items)
        if (s.sku === sku && isNonUnion(s.customsStatus)) {
          skus.add(sku);
          mine.add(s.customsStatus);
        }
    } else if (isNonUnion(data.customsStatus)) {
      skus.add(data.sku);
      mine.add(data.customsStatus);
    }
    for (const s of mine) statuses.add(s);
    return [...mine];
  });
  return { skus: [...skus], statuses: [...statuses], perLine };
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
 * does not allow (goods in temporary storage leave under 4000/3100, goods under customs warehousing under
 * 4071/3171), or lines whose goods cannot leave under one declaration at all.
 */
export function ProcedureNotice({ number, ownerId, lines, procedure }: ProcedureNoticeProps) {
  const { skus, statuses, perLine } = useNonUnionStock(ownerId, lines);
  const subject = number ?? 'This shipment';
  // The same rule as the server's 422 on the line: one shipment leaves under one declaration.
  const mix = shipmentLinesMixProblem(
    lines.map((l, i) => ({
      label: `Line ${i + 1} (${l.sku.trim().toUpperCase()})`,
      statuses: perLine[i] ?? [],
    })),
  );
  if (mix)
    return (
      <Alert color="red" title="These goods cannot leave together" data-testid="procedure-mix">
        {mix.message}.
      </Alert>
    );
  const chosen = (procedure || null) as OutboundProcedure | null;
  const missing = shipmentProcedureMissing(subject, chosen, statuses);
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
      {subject} could not be released under {chosen}: {misfit}.
    </Alert>
  );
}
