import { Alert, Anchor, Skeleton, Stack, Text } from '@mantine/core';
import { IconFileUnknown } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { isApiError } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.ts';
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
  /** What a 404 says instead of an error: "This dossier does not exist", and the way back to its list. */
  notFound?: NotFoundInfo;
}

export interface NotFoundInfo {
  title: string;
  back?: { label: string; href: string };
}

/** A record that is not there (deleted, mistyped, or another party's): no "try again", a way back. */
export function RecordNotFound({ title, back }: NotFoundInfo) {
  const t = useT('records');
  return (
    <Alert
      color="gray"
      variant="light"
      title={title}
      icon={<IconFileUnknown aria-hidden />}
      data-testid="record-not-found"
    >
      <Stack gap="xs">
        <Text size="sm">{t('record.notFoundText')}</Text>
        {back && (
          <Anchor component={Link} to={back.href} size="sm">
            {back.label}
          </Anchor>
        )}
      </Stack>
    </Alert>
  );
}

/**
 * What a record shows before it can show itself: the failed load with a way to try again (a 404:
 * that the record does not exist, and the way back to its list), or the skeleton (`detail-loading`)
 * while it loads.
 */
export function RecordLoadState({ title, error, onRetry, skeleton, notFound }: RecordLoadStateProps) {
  if (error && notFound && isApiError(error) && error.status === 404) return <RecordNotFound {...notFound} />;
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
  notFound?: NotFoundInfo;
}

/**
 * RecordLoadState for the query of one record: its error, retried by refetching, or the skeleton.
 * For a detail that has nothing to show yet: `if (!detail.data) return <RecordQueryState … />` (a failed refetch keeps the record on screen).
 */
export function RecordQueryState({ query, title, skeleton, notFound }: RecordQueryStateProps) {
  return (
    <RecordLoadState
      title={title}
      {...(notFound ? { notFound } : {})}
      error={query.isError ? query.error : undefined}
      onRetry={() => void query.refetch()}
      skeleton={skeleton}
    />
  );
}
