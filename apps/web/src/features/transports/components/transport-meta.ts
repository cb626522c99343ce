import {
  TRANSPORT_MODE_LABELS,
  TRANSPORT_MODES,
  TRANSPORT_STATUS_LABELS,
  TRANSPORT_STATUSES,
  type TransportStatus,
} from '@fvg/contracts';
import type { MantineColor } from '@mantine/core';

export const STATUS_LABELS: Readonly<Record<TransportStatus, string>> = TRANSPORT_STATUS_LABELS;
export const STATUS_COLORS: Record<TransportStatus, MantineColor> = {
  planned: 'gray',
  dispatched: 'blue',
  picked_up: 'cyan',
  in_transit: 'indigo',
  delivered: 'green',
  cancelled: 'red',
};
export const STATUS_OPTIONS = TRANSPORT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));

export const MODE_LABELS = TRANSPORT_MODE_LABELS;
export const MODE_OPTIONS = TRANSPORT_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }));

/** Button labels of the status actions. */
export const TRANSITION_LABELS: Record<TransportStatus, string> = {
  planned: 'Back to planned',
  dispatched: 'Dispatch',
  picked_up: 'Picked up',
  in_transit: 'In transit',
  delivered: 'Delivered',
  cancelled: 'Cancel leg',
};
export const TRANSITION_CONFIRM: Partial<Record<TransportStatus, string>> = {
  cancelled: 'Cancel this transport leg? A cancelled leg cannot be reopened.',
};

export const TRANSPORT_FIELD_LABELS: Record<string, string> = {
  status: 'Status',
  mode: 'Mode',
  carrierId: 'Carrier',
  truckPlate: 'Truck plate',
  trailerPlate: 'Trailer plate',
  vesselName: 'Vessel',
  vesselImo: 'Vessel IMO',
  flightNumber: 'Flight',
  pickupLocode: 'Pickup (UN/LOCODE)',
  pickupAddress: 'Pickup address',
  pickupFrom: 'Pickup from',
  pickupTo: 'Pickup to',
  deliveryLocode: 'Delivery (UN/LOCODE)',
  deliveryAddress: 'Delivery address',
  deliveryFrom: 'Delivery from',
  deliveryTo: 'Delivery to',
  actualPickupAt: 'Actual pickup',
  actualDeliveryAt: 'Actual delivery',
  driverName: 'Driver',
  driverPhone: 'Driver phone',
  containers: 'Containers',
  customerRemark: 'Remark for the customer',
  notes: 'Internal notes',
};

/** The vehicle of a leg: truck, vessel or flight. */
export const vehicleOf = (t: {
  truckPlate: string | null;
  trailerPlate: string | null;
  vesselName: string | null;
  flightNumber: string | null;
}) =>
  t.truckPlate
    ? `${t.truckPlate}${t.trailerPlate ? ` / ${t.trailerPlate}` : ''}`
    : (t.vesselName ?? t.flightNumber ?? '—');
