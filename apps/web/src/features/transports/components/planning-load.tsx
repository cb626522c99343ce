import { Skeleton, Stack, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { ErrorState } from '../../../components/error-state.tsx';
import { planningOptions } from '../api/transports-api.ts';

/** The planning of a range as the table and the timeline both read it: the pages loaded so far, flat. */
export function usePlanning(from: string, to: string) {
  const planning = useInfiniteQuery(planningOptions(from, to));
  const items = useMemo(() => planning.data?.pages.flatMap((p) => p.items) ?? [], [planning.data]);
  return { planning, items, total: planning.data?.pages[0]?.total ?? 0 };
}

/**
 * What the table and the timeline show before (or instead of) their legs: the error with "Try again",
 * the skeleton while loading, or `emptyText` when there is nothing to plan; otherwise the children.
 */
export function PlanningLoad({
  planning,
  empty,
  emptyText,
  children,
}: {
  planning: ReturnType<typeof usePlanning>['planning'];
  empty: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  if (planning.isError)
    return (
      <ErrorState
        title="The planning could not be loaded"
        error={planning.error}
        onRetry={() => void planning.refetch()}
      />
    );
  if (planning.isPending)
    return (
      <Stack gap="sm" data-testid="planning-loading">
        <Skeleton height={36} />
        <Skeleton height={36} />
      </Stack>
    );
  if (empty)
    return (
      <Stack align="center" py="xl" gap="xs" data-testid="planning-empty">
        <IconInbox size={32} stroke={1.5} aria-hidden />
        <Text c="dimmed">{emptyText}</Text>
      </Stack>
    );
  return children;
}
