import { SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH, type SearchGroup, type SearchResult } from '@fvg/contracts';
import {
  Anchor,
  Button,
  Card,
  EmptyState,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconHistory, IconSearch, IconSearchOff } from '@tabler/icons-react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { ErrorState } from '../../../components/error-state.tsx';
import { routeTarget } from '../../../components/records/route-link.ts';
import { problemMessage } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { useMe } from '../../../lib/session.ts';
import { MORE_LIMIT, PAGE_LIMIT, searchOptions } from '../api/search-api.ts';
import { useRecentSearches } from '../recent-searches.ts';
import { KindIcon, kindLabel, resultDescription } from './kinds.tsx';

/**
 * /search?q=: every kind's results for the query in the URL, a page each, "More" per kind (the
 * group's cursor), and a box to search again. The query is the URL's, so the page can be shared,
 * reloaded and gone back to.
 */
export function SearchPage({ q }: { q: string }) {
  const t = useT('search');
  const navigate = useNavigate();
  const me = useMe();
  const recent = useRecentSearches(me.data?.id);
  const query = q.trim();
  const [text, setText] = useState(query);
  useEffect(() => setText(query), [query]);

  const longEnough = query.length >= SEARCH_MIN_LENGTH;
  const results = useQuery({ ...searchOptions({ q: query, limit: PAGE_LIMIT }), enabled: longEnough });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = text.trim();
    if (next.length >= SEARCH_MIN_LENGTH) recent.remember(next);
    void navigate({ to: pathFor('search'), search: { q: next || undefined } });
  };

  return (
    <Stack gap="lg" data-testid="search-page">
      <search>
        <form onSubmit={submit}>
          <Group gap="sm" align="flex-start" wrap="nowrap" maw={720}>
            <TextInput
              type="search"
              aria-label={t('page.label')}
              placeholder={t('page.placeholder')}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={text}
              maxLength={SEARCH_MAX_LENGTH}
              onChange={(event) => setText(event.currentTarget.value)}
              style={{ flex: 1 }}
              data-testid="search-page-input"
            />
            <Button type="submit" data-testid="search-page-submit">
              {t('page.submit')}
            </Button>
          </Group>
        </form>
      </search>

      {query.length === 0 && (
        <EmptyState
          icon={<IconSearch size={32} stroke={1.5} aria-hidden />}
          withIndicatorBackground
          title={t('page.emptyTitle')}
          description={t('hint')}
          data-testid="search-hint"
          py="xl"
        >
          {recent.items.length > 0 && (
            <Stack gap={4} align="center" mt="md" data-testid="search-recent">
              <Text size="sm" c="dimmed">
                {t('recent.title')}
              </Text>
              <Group gap="xs" justify="center">
                {recent.items.map((item) => (
                  <Button
                    key={item}
                    component={Link}
                    to={pathFor('search')}
                    search={{ q: item } as never}
                    size="xs"
                    variant="light"
                    leftSection={<IconHistory size={14} aria-hidden />}
                    data-testid="search-recent-item"
                  >
                    {item}
                  </Button>
                ))}
              </Group>
            </Stack>
          )}
        </EmptyState>
      )}

      {query.length > 0 && !longEnough && (
        <EmptyState
          icon={<IconSearch size={32} stroke={1.5} aria-hidden />}
          withIndicatorBackground
          title={t('tooShort', { count: SEARCH_MIN_LENGTH })}
          description={t('hint')}
          data-testid="search-too-short"
          py="xl"
        />
      )}

      {longEnough && (
        <Text c="dimmed" data-testid="search-query">
          {t('page.resultsFor', { q: query })}
        </Text>
      )}

      {longEnough && results.isPending && <ResultsSkeleton />}

      {longEnough && results.isError && (
        <ErrorState error={results.error} title={t('error.title')} onRetry={() => void results.refetch()} />
      )}

      {longEnough && results.isSuccess && results.data.groups.length === 0 && (
        <EmptyState
          icon={<IconSearchOff size={32} stroke={1.5} aria-hidden />}
          withIndicatorBackground
          title={t('empty.title', { q: query })}
          description={t('empty.hint')}
          data-testid="search-empty"
          py="xl"
        />
      )}

      {longEnough && results.isSuccess && results.data.groups.length > 0 && (
        <SimpleGrid
          cols={{ base: 1, lg: 2 }}
          spacing="md"
          verticalSpacing="md"
          style={{ alignItems: 'start' }}
        >
          {results.data.groups.map((group) => (
            // Keyed by the query too: the pages "More" added belong to the query they were asked for.
            <ResultsGroup key={`${group.kind}:${query}`} q={query} group={group} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** One kind's results; "More" asks for the next page of that kind only, with the cursor it was given. */
function ResultsGroup({ q, group }: { q: string; group: SearchGroup }) {
  const t = useT('search');
  const [cursors, setCursors] = useState<string[]>([]);
  // The pages asked for so far stay in the cache under their cursor: going back to the page keeps them.
  const more = useQueries({
    queries: cursors.map((cursor) => searchOptions({ q, kind: group.kind, limit: MORE_LIMIT, cursor })),
  });
  const last = more.at(-1);
  const nextCursor = last
    ? (last.data?.groups.find((g) => g.kind === group.kind)?.nextCursor ?? null)
    : group.nextCursor;

  const seen = new Set<string>();
  const items: SearchResult[] = [];
  for (const result of [
    ...group.results,
    ...more.flatMap((page) => page.data?.groups.find((g) => g.kind === group.kind)?.results ?? []),
  ]) {
    // A record changed between pages may come twice; it is listed once.
    if (seen.has(result.id)) continue;
    seen.add(result.id);
    items.push(result);
  }
  const label = kindLabel(group.kind);

  return (
    <Card
      withBorder
      padding="md"
      component="section"
      aria-label={label}
      data-testid={`search-group-${group.kind}`}
    >
      <Group gap="xs" mb="sm">
        <ThemeIcon variant="light" size="md" radius="md" aria-hidden>
          <KindIcon kind={group.kind} size={16} />
        </ThemeIcon>
        <Title order={2} size="h4">
          {label}
        </Title>
      </Group>
      <Stack gap={0} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {items.map((result) => (
          <ResultRow key={result.id} result={result} />
        ))}
      </Stack>
      {last?.isError && (
        <Text size="sm" c="red" mt="sm" role="alert" data-testid="search-more-error">
          {problemMessage(last.error)}
        </Text>
      )}
      {(nextCursor || last?.isError) && (
        <Group mt="sm">
          <Button
            variant="light"
            size="xs"
            loading={last?.isFetching === true}
            onClick={() => {
              if (last?.isError) void last.refetch();
              else if (nextCursor) setCursors((list) => [...list, nextCursor]);
            }}
            aria-label={last?.isError ? undefined : t('page.moreOf', { kind: label })}
            data-testid={`search-more-${group.kind}`}
          >
            {last?.isError ? t('error.retry') : t('page.more')}
          </Button>
        </Group>
      )}
    </Card>
  );
}

function ResultRow({ result }: { result: SearchResult }) {
  const target = routeTarget(result.link);
  const description = resultDescription(result);
  return (
    <li data-testid={`search-result-${result.kind}-${result.id}`}>
      <Stack gap={0} py={6}>
        {target ? (
          <Anchor component={Link} to={target.to} search={target.search as never} fw={500}>
            {result.title}
          </Anchor>
        ) : (
          <Text fw={500}>{result.title}</Text>
        )}
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
      </Stack>
    </li>
  );
}

function ResultsSkeleton() {
  return (
    <Stack gap="md" data-testid="search-loading" aria-busy>
      {[0, 1].map((i) => (
        <Card key={i} withBorder padding="md">
          <Skeleton height={20} width={160} mb="md" />
          <Skeleton height={14} mb={8} />
          <Skeleton height={14} mb={8} width="80%" />
          <Skeleton height={14} width="60%" />
        </Card>
      ))}
    </Stack>
  );
}
