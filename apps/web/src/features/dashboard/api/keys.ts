import type { DashboardCardName, RecordKind } from '@fvg/contracts';
import { registerRecordKeys } from '../../../lib/live-updates.ts';

/** Every query key of the dashboard; the cards, their live refresh and the tests go through these. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  index: () => [...dashboardKeys.all, 'index'] as const,
  cards: () => [...dashboardKeys.all, 'card'] as const,
  /** A card's queries, whatever the zone. */
  card: (card: DashboardCardName) => [...dashboardKeys.cards(), card] as const,
  cardIn: (card: DashboardCardName, timeZone: string) => [...dashboardKeys.card(card), timeZone] as const,
};

/** The record kinds whose changes can move a card's figures. */
export const CARD_RECORD_KINDS: Readonly<Record<DashboardCardName, readonly RecordKind[]>> = {
  dossiers: ['dossier'],
  // A leg follows its dossier (a customer change re-scopes it).
  transports: ['transport', 'dossier'],
  declarations: ['declaration'],
  invoices: ['sales-invoice'],
  revenue: ['sales-invoice'],
  'container-events': ['container-event'],
  stock: ['stock'],
  shipments: ['shipment'],
};

/**
 * A card is a count over many records: a bulk edit announcing hundreds of changes must not recount
 * it hundreds of times. The first change refreshes the card at once, a burst at most every 3 s.
 */
export const CARD_REFRESH_THROTTLE_MS = 3000;

// Live updates (lib/live-updates.ts): RecordChanged of a card's kinds refreshes that card only.
for (const [card, kinds] of Object.entries(CARD_RECORD_KINDS) as [DashboardCardName, RecordKind[]][]) {
  const key = dashboardKeys.card(card);
  for (const kind of kinds) {
    registerRecordKeys(kind, { all: key, detail: () => key, throttleMs: CARD_REFRESH_THROTTLE_MS });
  }
}
