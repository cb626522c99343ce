import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../../components/error-state.tsx';
import { useT } from '../../../lib/i18n.ts';
import { dashboardIndexOptions } from '../api/dashboard-api.ts';
import { DashboardCardView } from './dashboard-card.tsx';

/** Columns follow the room the content has (container queries), not the window: the navbar takes its share. */
const COLUMNS = { base: 1, '40rem': 2, '60rem': 3 } as const;

/** The user's cards (`GET /api/dashboard`), each loading on its own. */
export function DashboardView() {
  const t = useT('dashboard');
  const index = useQuery(dashboardIndexOptions());

  if (index.isError && !index.isFetching) {
    return <ErrorState error={index.error} title={t('indexError')} onRetry={() => void index.refetch()} />;
  }
  if (!index.data) {
    return (
      <SimpleGrid type="container" cols={COLUMNS} spacing="md" data-testid="dashboard-loading">
        {[0, 1, 2].map((i) => (
          <Paper key={i} withBorder radius="md" p="md">
            <Skeleton height={20} width="50%" mb="sm" />
            <Skeleton height={120} />
          </Paper>
        ))}
      </SimpleGrid>
    );
  }
  if (index.data.cards.length === 0) {
    return (
      <Text c="dimmed" data-testid="dashboard-empty">
        {t('noCards')}
      </Text>
    );
  }
  return (
    // Each card as tall as its content: a card of two figures does not stretch to its neighbour's chart.
    <SimpleGrid
      type="container"
      cols={COLUMNS}
      spacing="md"
      style={{ alignItems: 'start' }}
      data-testid="dashboard-cards"
    >
      {index.data.cards.map((card) => (
        <DashboardCardView key={card} card={card} />
      ))}
    </SimpleGrid>
  );
}
