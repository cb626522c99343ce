import type { Party } from '@fvg/contracts';
import { Anchor, Badge, Group } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import { COUNTRY_OPTIONS } from '../../../lib/countries.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { partyKeys } from '../api/keys.ts';
import { fetchPartyList } from '../api/parties-api.ts';
import { PARTY_KIND_LABELS, PARTY_KIND_OPTIONS, type PartyKind } from './party-meta.ts';

/** A party's screen goes by its code (ADR 0071). */
const partyPath = (party: Party) => pathFor('party', { id: party.code });

const columns: RecordColumn<Party>[] = [
  {
    id: 'code',
    header: 'Code',
    sortField: 'code',
    width: 120,
    required: true,
    cell: (p) => (
      <Anchor component={Link} to={partyPath(p)} size="sm" fw={500}>
        {p.code}
      </Anchor>
    ),
  },
  { id: 'name', header: 'Name', sortField: 'name', width: 240, cell: (p) => p.name },
  {
    id: 'kinds',
    header: 'Roles',
    width: 220,
    cell: (p) => (
      <Group gap={4} wrap="nowrap">
        {p.kinds.map((kind) => (
          <Badge key={kind} size="xs" variant="light">
            {PARTY_KIND_LABELS[kind as PartyKind] ?? kind}
          </Badge>
        ))}
      </Group>
    ),
  },
  { id: 'countryCode', header: 'Country', sortField: 'countryCode', width: 90, cell: (p) => p.countryCode },
  { id: 'city', header: 'City', width: 140, cell: (p) => p.city ?? '—' },
  { id: 'vatNumber', header: 'VAT number', width: 160, cell: (p) => p.vatNumber ?? '—' },
  { id: 'eori', header: 'EORI', width: 160, cell: (p) => p.eori ?? '—' },
  { id: 'email', header: 'Email', width: 200, hiddenByDefault: true, cell: (p) => p.email ?? '—' },
  { id: 'phone', header: 'Phone', width: 140, hiddenByDefault: true, cell: (p) => p.phone ?? '—' },
  {
    id: 'updatedAt',
    header: 'Updated',
    sortField: 'updatedAt',
    sortDescFirst: true,
    width: 150,
    cell: (p) => formatDateTime(p.updatedAt),
  },
];

const filters: FilterDef[] = [
  { kind: 'select', key: 'kind', label: 'Role', options: PARTY_KIND_OPTIONS },
  { kind: 'select', key: 'countryCode', label: 'Country', options: COUNTRY_OPTIONS, width: 200 },
];

/** The parties list: search by name, code, VAT number or EORI; filter by role and country. */
export const partyListConfig: ListConfig<Party> = {
  id: 'parties',
  path: 'parties',
  label: 'Parties',
  plural: 'parties',
  columns,
  filters,
  defaultSort: 'name',
  searchPlaceholder: 'Name, code, VAT number or EORI',
  getRowId: (p) => p.id,
  getRowTestId: (p) => `row-${p.code}`,
  rowHref: partyPath,
  listKey: partyKeys.list,
  fetchList: fetchPartyList,
};
