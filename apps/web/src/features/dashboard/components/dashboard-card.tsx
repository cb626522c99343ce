import '@mantine/charts/styles.css';
import type { DashboardCard, DashboardCardName, DashboardFigure, DashboardPoint } from '@fvg/contracts';
import { BarChart } from '@mantine/charts';
import {
  Anchor,
  ColorSwatch,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { ErrorState } from '../../../components/error-state.tsx';
import { type RouteTarget, routeTarget } from '../../../components/records/route-link.ts';
import { displayPreferences } from '../../../lib/display-preferences.ts';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { formatDateTime, formatTime } from '../../../lib/format-date.ts';
import { useT } from '../../../lib/i18n.ts';
import { useNumberFormat } from '../../../lib/number-format.ts';
import { dashboardCardOptions } from '../api/dashboard-api.ts';
import {
  barColor,
  cardEmpty,
  cardTitle,
  isEmptyCard,
  isZero,
  keyLabel,
  periodWords,
  shortDate,
  tickLabel,
} from './card-meta.ts';
import classes from './dashboard.module.css';

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A count, or a money amount in its currency, in the user's number format. */
function formatValue(value: number | string, currency: string | null): string {
  if (currency) return formatMoney(String(value) as `${number}`, { currency });
  return formatNumber(typeof value === 'number' ? value : (String(value) as `${number}`));
}

/** When a pre-aggregated card was counted: '14:05' today, '23 Nov 2026, 14:05' before. */
function countedAt(asOf: string): string {
  const day = (iso: string) => formatDateTime(iso).split(',')[0];
  return day(asOf) === day(new Date().toISOString()) ? formatTime(asOf) : formatDateTime(asOf);
}

function Figure({ card, figure }: { card: DashboardCardName; figure: DashboardFigure }) {
  useT('dashboard'); // new words when the language changes
  const target = figure.link ? (routeTarget(figure.link) ?? null) : null;
  const label = keyLabel(card, figure.key);
  const value = formatValue(figure.value, figure.currency);
  const body = (
    <Stack gap={0}>
      <Text fz={28} fw={700} lh={1.2} data-testid="figure-value" style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
  return (
    <div data-testid={`figure-${figure.key}`} data-href={target?.href}>
      {target ? (
        <Anchor component={Link} to={target.to} search={target.search as never} underline="hover" c="inherit">
          {body}
        </Anchor>
      ) : (
        body
      )}
    </div>
  );
}

interface Bar {
  key: string;
  label: string;
  tick: string;
  value: number;
  color: string;
  target: RouteTarget | null;
  point: DashboardPoint;
}

function Chart({ card, data, title }: { card: DashboardCardName; data: DashboardCard; title: string }) {
  const t = useT('dashboard');
  const navigate = useNavigate();
  const currency = data.seriesCurrency;
  // Bars over days or weeks keep their empty days (the gaps are the news); a status nobody is in is
  // left out, so a card shows the statuses that hold records.
  const overTime = data.series.some((p) => CALENDAR_DAY.test(p.key));
  const bars: Bar[] = data.series
    .filter((point) => overTime || !isZero(point.value))
    .map((point) => ({
      key: point.key,
      label: keyLabel(card, point.key),
      tick: tickLabel(card, point.key),
      value: Number(point.value),
      color: card === 'revenue' ? 'teal' : barColor(card, point.key),
      target: point.link ? (routeTarget(point.link) ?? null) : null,
      point,
    }));
  const format = (value: number | string) => formatValue(value, currency);
  // Days by their weekday (the card names the week), weeks by their first day, statuses in full.
  const legendName = (bar: Bar) =>
    !overTime ? bar.label : card === 'revenue' ? shortDate(bar.key) : bar.tick;
  const open = (bar: Bar | undefined) => {
    if (bar?.target) void navigate({ to: bar.target.to, search: bar.target.search as never });
  };

  return (
    <Stack gap="sm">
      <BarChart
        h={overTime ? 170 : 140}
        data={bars}
        dataKey="tick"
        series={[{ name: 'value', label: title, color: 'blue' }]}
        valueFormatter={(v) => format(v)}
        withXAxis={overTime}
        // Money gets an axis (amounts are too wide to sit on the bars); counts sit on their bars.
        withYAxis={currency !== null}
        withBarValueLabel={currency === null}
        gridAxis={currency === null ? 'none' : 'x'}
        tickLine="none"
        // Every day or week named: recharts would skip some to avoid crowding.
        xAxisProps={{ interval: 0, fontSize: 11 }}
        yAxisProps={{
          width: 80,
          allowDecimals: false,
          // Whole amounts on the axis; the tooltip and the legend give the cents.
          ...(currency
            ? { tickFormatter: (v: number) => formatMoney(v, { currency }, { maximumFractionDigits: 0 }) }
            : // Without an axis, the tallest bar takes the chart's height (no rounding up to a tick).
              { domain: [0, 'dataMax'] as [number, string] }),
        }}
        barChartProps={{ margin: { top: 20, right: 8, left: 8, bottom: 0 } }}
        maxBarWidth={48}
        // The chart is one picture with a name; its legend below is the bars in words and links.
        role="img"
        aria-label={t('chart', { title })}
        barProps={{
          onClick: (entry: { payload?: Bar }) => open(entry.payload),
          style: { cursor: 'pointer' },
        }}
        data-testid="card-chart"
      />
      <ul className={classes.legend}>
        {bars.map((bar) => (
          <li key={bar.key} data-testid={`point-${bar.key}`} data-href={bar.target?.href}>
            <Legend bar={bar} name={legendName(bar)} value={format(bar.point.value)} />
          </li>
        ))}
      </ul>
    </Stack>
  );
}

/** One bar in words, opening its list: the keyboard's way to what the bars show. */
function Legend({ bar, name, value }: { bar: Bar; name: string; value: string }) {
  const content = (
    <Group gap={6} wrap="nowrap">
      <ColorSwatch color={`var(--mantine-color-${bar.color}-filled)`} size={10} withShadow={false} />
      <Text size="sm" span>
        {name}
      </Text>{' '}
      <Text size="sm" fw={600} span style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
    </Group>
  );
  if (!bar.target) return <span title={bar.label}>{content}</span>;
  return (
    <UnstyledButton
      component={Link}
      to={bar.target.to}
      search={bar.target.search as never}
      className={classes.legendLink}
      title={bar.label}
      // Its name starts with the words it shows (WCAG 2.5.3), then says in full what a short name stands for.
      aria-label={name === bar.label ? undefined : `${name} ${value}, ${bar.label}`}
    >
      {content}
    </UnstyledButton>
  );
}

function CardSkeleton() {
  return (
    <Stack gap="sm" data-testid="card-loading" aria-hidden>
      <Skeleton height={32} width="40%" />
      <Skeleton height={12} width="60%" />
      <Skeleton height={110} />
    </Stack>
  );
}

function CardBody({ card, data, title }: { card: DashboardCardName; data: DashboardCard; title: string }) {
  useT('dashboard'); // new words when the language changes
  if (isEmptyCard(data)) {
    return (
      <Text c="dimmed" size="sm" py="lg" ta="center" data-testid="card-empty">
        {cardEmpty(card)}
      </Text>
    );
  }
  return (
    <Stack gap="md">
      {data.figures.length > 0 && (
        <Group gap="xl" align="flex-start" style={{ rowGap: 'var(--mantine-spacing-sm)' }}>
          {data.figures.map((figure) => (
            // Amounts overdue come one per currency under the same key.
            <Figure key={`${figure.key}-${figure.currency ?? ''}`} card={card} figure={figure} />
          ))}
        </Group>
      )}
      {data.series.length > 0 && <Chart card={card} data={data} title={title} />}
    </Stack>
  );
}

/** One card: loads on its own, with its own skeleton, error and retry, and empty state. */
export function DashboardCardView({ card }: { card: DashboardCardName }) {
  const t = useT('dashboard');
  useNumberFormat(); // amounts follow a changed number format at once
  const headingId = useId();
  const query = useQuery(dashboardCardOptions(card, displayPreferences().timeZone));
  const title = cardTitle(card);
  const data = query.data;
  const period = data ? periodWords(data.period) : null;

  let content: React.ReactNode;
  if (data) content = <CardBody card={card} data={data} title={title} />;
  else if (query.isError && !query.isFetching) {
    content = <ErrorState error={query.error} title={t('loadError')} onRetry={() => void query.refetch()} />;
  } else content = <CardSkeleton />;

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p="md"
      aria-labelledby={headingId}
      aria-busy={query.isFetching}
      data-testid={`dashboard-card-${card}`}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0}>
            <Title order={2} fz="lg" id={headingId}>
              {title}
            </Title>
            {period && (
              <Text size="sm" c="dimmed" data-testid="card-period">
                {period}
              </Text>
            )}
          </Stack>
          {data && !data.live && (
            <Text size="xs" c="dimmed" data-testid="card-as-of">
              {t('asOf', { time: countedAt(data.asOf) })}
            </Text>
          )}
        </Group>
        {content}
      </Stack>
    </Paper>
  );
}
