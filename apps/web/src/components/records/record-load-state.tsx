import { Skeleton, Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState } from '../error-state.tsx';

/** The skeleton of a record while it loads, a bar a line: its height, or its height and width. */
export type SkeletonShape = readonly (number | readonly [height: number, width: string])[];

export interface RecordLoadStateProps {
  /** The title of the error: "This document could not be loaded". */
  title: string;
  /** The failed load; without one the skeleton shows. */
  error?: unknown;
  onRetry?: () => void;
  skeleton: SkeletonShape;
}

/**
 * What a record shows before it can show itself: the failed load with a way to try again, or the
 * skeleton (`detail-loading`) while it loads.
 */
export function RecordLoadState({ title, error, onRetry, skeleton }: RecordLoadStateProps) {
  if (error) return <ErrorState title={title} error={error} {...(onRetry ? { onRetry } : {})} />;
  return (
    <Stack gap="sm" data-testid="detail-loading">
      {skeleton.map((bar, i) => {
        const [height, width] = typeof bar === 'number' ? [bar] : bar;
        // biome-ignore lint/suspicious/noArrayIndexKey: the bars are fixed, never reordered
        return <Skeleton key={i} height={height} {...(width ? { width } : {})} />;
      })}
    </Stack>
  );
}

export interface RecordQueryStateProps {
  query: Pick<UseQueryResult<unknown>, 'isError' | 'error' | 'refetch'>;
  title: string;
  skeleton: SkeletonShape;
}

/**
 * RecordLoadState for the query of one record: its error, retried by refetching, or the skeleton.
 * For a detail that has nothing to show yet: `if (!detail.data) return <RecordQueryState … />` (a failed refetch keeps the record on screen).
 */
export function RecordQueryState({ query, title, skeleton }: RecordQueryStateProps) {
  return (
    <RecordLoadState
      title={title}
      error={query.isError ? query.error : undefined}
      onRetry={() => void query.refetch()}
      skeleton={skeleton}
    />
  );
}
