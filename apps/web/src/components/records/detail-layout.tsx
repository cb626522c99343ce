import type { Role } from '@fvg/contracts';
import { Badge, Code, Grid, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect } from 'react';
import { useAdminMode } from '../../lib/admin-mode.ts';
import { useT } from '../../lib/i18n.ts';
import { listRouteOf, pathFor, type RouteName, routeByName } from '../../lib/route-table.ts';
import { pageTitle } from '../../lib/title.ts';
import { useRouteAccessBlock } from '../route-access.tsx';
import { RecordLoadState } from './record-load-state.tsx';
import { useRouteSearch } from './use-route-search.ts';
import { useTabTitle } from './use-tab-title.ts';

export interface DetailTab {
  /** URL value (`?tab=<value>`) and test id suffix (`tab-<value>`). */
  value: string;
  label: string;
  content: ReactNode;
  /** A count next to the label (numbers and text are drawn as a small badge; elements as they are). */
  badge?: ReactNode;
}

export interface DetailLayoutProps {
  /** The route this screen belongs to: its title heads the screen. */
  route: RouteName;
  /** The record's number or id as the URL names it; shown while the record loads. */
  recordId: string;
  /**
   * What the record is when the route's title does not say it (a credit note on the sales invoice
   * route): heads the screen and the tab title in its place (issue 27 item 3).
   */
  title?: string | undefined;
  /**
   * What the tab title names a record by when it has no number and its address is its id (a stock
   * record: "Stock · ACM-CBL-USBC-1M · R-2026-000006 · FVG"), never the uuid (issue 27 item 1).
   */
  tabTitleName?: string | undefined;
  /** A second line: the customer, the party's name… */
  subtitle?: ReactNode;
  /** The status badge. */
  status?: ReactNode;
  /** Action buttons (transitions, edit, admin actions). */
  actions?: ReactNode;
  /** None while the record loads. */
  tabs?: readonly DetailTab[];
  /** Side panel: key facts, people, dates. */
  side?: ReactNode;
  /** Replaces the tabs (e.g. the edit form). */
  children?: ReactNode;
  /** Above the tabs, whichever is open: what blocks the record's next step (an alert). */
  banner?: ReactNode;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** The record's query, in place of loading, error and onRetry: its state is the screen's. */
  query?: { isPending: boolean; error: unknown; refetch: () => unknown };
}

/** The name of a record route's parameter: `id` in `/declarations/$id`, `dossierId` in `/dossiers/$dossierId`. */
function paramOf(route: RouteName): string {
  return /\$([A-Za-z_][A-Za-z0-9_]*)/.exec(routeByName(route).path)?.[1] ?? 'id';
}

/** Replaces the address of a record screen opened as `id` with its `canonical` one, search kept. */
export function useCanonicalAddress(route: RouteName, id: string, canonical: string | null) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!canonical || canonical === id) return;
    void navigate({
      to: pathFor(route, { [paramOf(route)]: canonical }),
      search: (previous: Record<string, unknown>) => previous,
      replace: true,
    } as never);
  }, [canonical, id, route, navigate]);
}

/**
 * A record whose address names it by its number (issue 27 item 1, ADR 0071): found by what the address
 * says, then read by its id, the key every change and live update of it uses (a number can change on a
 * draft, an id cannot), and its screen takes the number's address. `first` is the finding query (its
 * state is the screen's while nothing is found), `byId` the one to refetch.
 */
export function useRecordByNumber<T, K extends QueryKey>(
  optionsOf: (key: string) => UseQueryOptions<T, Error, T, K>,
  route: RouteName,
  address: string,
  keys: { id: (record: T) => string; number: (record: T) => string | null },
) {
  const first = useQuery(optionsOf(address));
  const found = first.data;
  const byId = useQuery({
    ...optionsOf(found === undefined ? address : keys.id(found)),
    enabled: found !== undefined,
    ...(found === undefined ? {} : { initialData: found }),
  });
  const record = found === undefined ? undefined : (byId.data ?? found);
  useCanonicalAddress(route, address, record === undefined ? null : keys.number(record));
  return { first, byId, record };
}

/** What a record's screen is given: the record's number or id as the URL names it, and who reads it. */
export interface RecordScreenProps {
  id: string;
  role: Role | undefined;
}

/**
 * A record screen's opening: the record's query and the record once in, staff or not, admin mode on
 * or not, and `waiting`, the screen to show until the record is in (loading, not found, retry).
 */
export function useRecordScreen<T, K extends QueryKey>(
  options: UseQueryOptions<T, Error, T, K>,
  { id, role }: RecordScreenProps,
  route: RouteName,
  /**
   * The record's own number, the address its screen goes by (issue 27 item 1): opened by its id (a
   * search result, an old link) or by its number in other letters, the screen takes the number's
   * address in place, keeping its tab, so the tab title names the number. Null: none yet (a draft).
   */
  canonicalId?: (record: T) => string | null,
) {
  const query = useQuery(options);
  const adminMode = useAdminMode(role);
  useCanonicalAddress(route, id, query.data === undefined || !canonicalId ? null : canonicalId(query.data));
  return {
    query,
    record: query.data,
    staff: role === 'admin' || role === 'staff',
    adminMode: adminMode.enabled,
    waiting: <DetailLayout route={route} recordId={id} query={query} />,
  };
}

export interface RecordTabsProps {
  tabs: readonly DetailTab[];
  /**
   * The open tab and its setter, for a record in a dialog that keeps its tab to itself; without them
   * the URL's `tab` parameter holds it (the first tab leaves it out), so a link and reload keep it.
   */
  value?: string | null;
  onChange?: (value: string | null) => void;
}

/** A record's tabs as declared: a label (with a count) per tab, a panel mounted only while open. */
export function RecordTabs({ tabs, value, onChange }: RecordTabsProps) {
  const [search, setSearch] = useRouteSearch<{ tab?: string }>();
  const first = tabs[0]?.value;
  const fromUrl = tabs.some((t) => t.value === search.tab) ? (search.tab as string) : first;
  const current = value === undefined ? (fromUrl ?? null) : value;
  const change =
    onChange ??
    ((next: string | null) =>
      setSearch({ tab: next === first ? undefined : (next ?? undefined) }, { replace: true }));
  return (
    <Tabs value={current} onChange={change} keepMounted={false}>
      <Tabs.List style={{ flexWrap: 'wrap' }}>
        {tabs.map((tab) => (
          <Tabs.Tab
            key={tab.value}
            value={tab.value}
            data-testid={`tab-${tab.value}`}
            rightSection={
              typeof tab.badge === 'number' || typeof tab.badge === 'string' ? (
                <Badge size="xs" variant="light" circle>
                  {tab.badge}
                </Badge>
              ) : (
                (tab.badge ?? undefined)
              )
            }
          >
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Panel key={tab.value} value={tab.value} pt="md" data-testid={`panel-${tab.value}`}>
          {tab.content}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/**
 * The generic record screen: header (title, record number, status, actions), tabs synced with the
 * URL's `tab` parameter, and a side panel. Keeps the screen frame's test ids (`screen-frame`,
 * `record-id`) so every record screen is found the same way.
 */
export function DetailLayout({
  route,
  recordId,
  title,
  subtitle,
  status,
  actions,
  tabs = [],
  side,
  children,
  banner,
  query,
  tabTitleName,
  ...state
}: DetailLayoutProps) {
  const loading = query ? query.isPending : (state.loading ?? false);
  const error = query ? (query.error ?? undefined) : state.error;
  const onRetry = query ? () => void query.refetch() : state.onRetry;
  const t = useT('records');
  const tr = useT('routes');
  const def = routeByName(route);
  // The route's access rules, as ScreenFrame applies them: a warehouse record without cw_access says
  // "No access", not "could not be loaded" after the API's 403.
  const blocked = useRouteAccessBlock(route);
  useTabTitle(
    title
      ? pageTitle(title, { id: recordId })
      : tabTitleName
        ? pageTitle(tr(`title.${def.name}`), { id: tabTitleName })
        : null,
  );
  if (blocked) return blocked;
  const loaded = !error && !loading;
  const list = listRouteOf(route);
  const what = title ?? tr(`title.${def.name}`);

  const body = !loaded ? (
    <RecordLoadState
      title={t('record.loadFailed', { what })}
      error={error}
      notFound={{
        title: t('record.notFoundTitle', { what }),
        ...(list
          ? { back: { label: t('record.backTo', { list: tr(`title.${list.name}`) }), href: list.path } }
          : {}),
      }}
      {...(onRetry ? { onRetry } : {})}
      skeleton={[[36, '60%'], 18, 18, [18, '80%']]}
    />
  ) : (
    (children ?? <RecordTabs tabs={tabs} />)
  );

  const content =
    loaded && banner ? (
      <Stack gap="md">
        {banner}
        {body}
      </Stack>
    ) : (
      body
    );

  return (
    <Stack gap="lg" data-testid="screen-frame" data-route={def.name}>
      <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
        <Stack gap={4}>
          <Group gap="sm" align="center">
            <Title order={1}>
              {what}{' '}
              <Code fz="inherit" data-testid="record-id">
                {recordId}
              </Code>
            </Title>
            {status}
          </Group>
          {subtitle && (
            <Text c="dimmed" data-testid="record-subtitle">
              {subtitle}
            </Text>
          )}
        </Stack>
        {actions && (
          <Group gap="xs" wrap="wrap" data-testid="record-actions">
            {actions}
          </Group>
        )}
      </Group>
      {side ? (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 9 }}>{content}</Grid.Col>
          <Grid.Col span={{ base: 12, lg: 3 }}>{loaded && side}</Grid.Col>
        </Grid>
      ) : (
        content
      )}
    </Stack>
  );
}
