import { SHIPMENT_STATUS_LABELS } from '@fvg/contracts';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, notFound, rootRouteId } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { RecordQueryState } from '../../../components/records/record-load-state.tsx';
import { useTabTitle } from '../../../components/records/use-tab-title.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { pageTitle } from '../../../lib/title.ts';
import { SHIPMENT_STATUS_COLORS } from '../api/shipment-meta.ts';
import { shipmentOptions } from '../api/shipments-api.ts';
import classes from './pick-list.module.css';
import { PickListDocument } from './pick-list-document.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The root's not-found page: a missing shipment, another party's, or an address naming none. */
function throwNotFound(): never {
  throw notFound({ routeId: rootRouteId });
}

/** "Pick list — S-2026-000012 · FVG". */
export function pickListTitle(number: string): string {
  return pageTitle(`Pick list — ${number}`);
}

/** `/shipments-alt/{id}`: the printable pick and packing list of a shipment. */
export function PickListView({ id }: { id: string }) {
  const validId = UUID.test(id);
  const detail = useQuery({ ...shipmentOptions(id), enabled: validId });
  const shipment = detail.data;
  const [printedAt, setPrintedAt] = useState(() => new Date().toISOString());

  // The paper says when it was printed, not when the screen was opened.
  useEffect(() => {
    const stamp = () => setPrintedAt(new Date().toISOString());
    window.addEventListener('beforeprint', stamp);
    return () => window.removeEventListener('beforeprint', stamp);
  }, []);

  useTabTitle(shipment ? pickListTitle(shipment.number) : null);

  if (!validId) throwNotFound();
  if (!shipment) {
    if (detail.isError && isApiError(detail.error) && detail.error.status === 404) throwNotFound();
    return (
      <RecordQueryState
        query={detail}
        title="This shipment could not be loaded"
        skeleton={[40, [600, '210mm']]}
      />
    );
  }

  return (
    <Stack gap="sm" data-testid="pick-list-view">
      <Group
        justify="space-between"
        wrap="nowrap"
        className={classes.toolbar}
        data-testid="pick-list-toolbar"
      >
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Button
            component={Link}
            to={pathFor('shipment', { id: shipment.number })}
            variant="default"
            style={{ flexShrink: 0 }}
            leftSection={<IconArrowLeft size={16} aria-hidden />}
            data-testid="pick-list-back"
          >
            Back to the shipment
          </Button>
          <Text fw={600} truncate="end">
            Pick list of {shipment.number}
          </Text>
          <Badge color={SHIPMENT_STATUS_COLORS[shipment.status]} variant="light" style={{ flexShrink: 0 }}>
            {SHIPMENT_STATUS_LABELS[shipment.status]}
          </Badge>
        </Group>
        <Button
          leftSection={<IconPrinter size={16} aria-hidden />}
          onClick={() => {
            setPrintedAt(new Date().toISOString());
            window.print();
          }}
          style={{ flexShrink: 0 }}
          data-testid="pick-list-print"
        >
          Print
        </Button>
      </Group>
      <div className={classes.stage}>
        <PickListDocument shipment={shipment} printedAt={printedAt} />
      </div>
    </Stack>
  );
}
