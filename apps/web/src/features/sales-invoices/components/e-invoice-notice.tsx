import type { SalesInvoice } from '@fvg/contracts';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconFileOff } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { pathFor } from '../../../lib/route-table.ts';

/** Why the invoice is not offered as a Peppol e-invoice (the server's `eInvoiceProblems`); none: no notice. */
export function eInvoiceMissing(invoice: SalesInvoice): string[] {
  return (invoice.eInvoiceProblems ?? []).map((p) => p.message);
}

/**
 * A warning, never a refusal (issue 23 item 6): a buyer without an electronic address gets a valid
 * invoice and its PDF, but no Peppol file. A draft says so before it is issued; an issued one says why
 * there is no UBL download and what to enter (staff get the way to the record that needs it).
 */
export function EInvoiceNotice({ invoice, staff }: { invoice: SalesInvoice; staff: boolean }) {
  const missing = eInvoiceMissing(invoice);
  if (missing.length === 0) return null;
  const draft = invoice.number === null;
  const buyerMissing = (invoice.eInvoiceProblems ?? []).some((p) => p.field.startsWith('buyer.'));
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconFileOff aria-hidden />}
      title={draft ? 'This invoice will have no Peppol e-invoice' : 'No Peppol e-invoice for this invoice'}
      data-testid="e-invoice-notice"
    >
      <Stack gap={4}>
        <Text size="sm">
          {draft
            ? 'You can issue it and send its PDF, but it cannot go out through Peppol:'
            : 'The invoice is valid and its PDF is the document to send; it is not offered through Peppol because:'}
        </Text>
        {missing.map((m) => (
          <Text key={m} size="sm">
            • {m}
          </Text>
        ))}
        {staff && buyerMissing && (
          <Anchor
            component={Link}
            to={pathFor('party', { id: invoice.customer.code })}
            size="sm"
            fw={600}
            data-testid="e-invoice-fix-customer"
          >
            Open {invoice.customer.name} to add its Peppol address
          </Anchor>
        )}
      </Stack>
    </Alert>
  );
}
