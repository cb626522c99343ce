import { endpointOf, type InvoiceParty } from '@fvg/contracts';
import type { Db } from '../db/database.ts';

/**
 * The buyer as its Peppol file names it: the invoice's buyer, and, when that has no electronic address
 * (BT-49), the one its customer record has now. The address routes the file; it is not part of the
 * invoice the law describes (art. 226), so one entered after issuing is enough (ADR 0043). The detail
 * (which says whether there is an e-invoice) and the UBL download both ask this.
 */
export async function peppolBuyer(db: Db, buyer: InvoiceParty, customerId: string): Promise<InvoiceParty> {
  if (endpointOf(buyer)) return buyer;
  const party = await db
    .selectFrom('parties')
    .select(['peppol_scheme', 'peppol_id'])
    .where('id', '=', customerId)
    .executeTakeFirst();
  return party?.peppol_scheme && party.peppol_id
    ? { ...buyer, peppolScheme: party.peppol_scheme, peppolId: party.peppol_id }
    : buyer;
}
