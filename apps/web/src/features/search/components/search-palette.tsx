import '@mantine/spotlight/styles.css';
import { SEARCH_MIN_LENGTH, type SearchGroup } from '@fvg/contracts';
import { Alert, Button, Group, Kbd, Loader, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createSpotlightStore, Spotlight, type SpotlightStore } from '@mantine/spotlight';
import { IconAlertTriangle, IconArrowRight, IconHistory, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { type RouteTarget, routeTarget } from '../../../components/records/route-link.ts';
import { problemMessage } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { PALETTE_LIMIT, searchOptions } from '../api/search-api.ts';
import { useRecentSearches } from '../recent-searches.ts';
import { KindIcon, kindLabel, resultDescription } from './kinds.tsx';

/** Typing pauses shorter than this do not ask the server; a superseded request is aborted anyway. */
export const SEARCH_DEBOUNCE_MS = 150;

export interface SearchPaletteProps {
  opened: boolean;
  /** What the header box held when the palette opened: the palette goes on from there. */
  initialQuery: string;
  onClose: () => void;
  /** The signed-in user: recent searches are remembered per user. */
  userId: string | undefined;
}

/**
 * The command palette over every area (Mantine Spotlight): results grouped by kind as the user types,
 * arrows to move, Enter to open, the recent searches and what can be searched while the box is empty.
 * Loaded lazily by the shell, which owns Ctrl+K / ⌘K and the header box (so the shortcut works
 * before this chunk is in).
 */
export function SearchPalette({ opened, initialQuery, onClose, userId }: SearchPaletteProps) {
  const t = useT('search');
  const navigate = useNavigate();
  const [store] = useState(createSpotlightStore);
  const [query, setQuery] = useState(initialQuery);
  const recent = useRecentSearches(userId);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the header's text is taken over only when the palette opens
  useEffect(() => {
    if (opened) setQuery(initialQuery);
    store.setState((state) => ({ ...state, opened, selected: opened ? -1 : state.selected }));
  }, [opened, store]);

  const typed = query.trim();
  const [debounced] = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const longEnough = typed.length >= SEARCH_MIN_LENGTH;
  const results = useQuery({
    ...searchOptions({ q: debounced, limit: PALETTE_LIMIT }),
    enabled: opened && debounced.length >= SEARCH_MIN_LENGTH,
    placeholderData: keepPreviousData,
  });
  // Results of an earlier text stay on screen (no flicker) but are disabled: Enter must never open
  // something the typed text did not find. Meanwhile Enter goes to all results of the typed text.
  const current = longEnough && debounced === typed && !results.isPlaceholderData;
  const groups = longEnough ? (results.data?.groups ?? []) : [];
  const found = current && results.isSuccess && groups.length > 0;

  // Mantine selects the first action right after a keystroke, before the answer is in; now it is.
  const answeredAt = found ? results.dataUpdatedAt : 0;
  useEffect(() => {
    if (answeredAt) selectAction(store, 0);
  }, [answeredAt, store]);

  const go = (target: Pick<RouteTarget, 'to' | 'search'>) => {
    recent.remember(typed);
    void navigate({ to: target.to, search: target.search });
  };
  const goToAll = () => go({ to: pathFor('search'), search: { q: typed } });
  const searching = longEnough && (debounced !== typed || results.isFetching);

  return (
    <Spotlight.Root
      store={store}
      query={query}
      onQueryChange={setQuery}
      onSpotlightClose={onClose}
      shortcut={null}
      scrollable
      maxHeight={460}
      aria-label={t('palette.title')}
      data-testid="search-palette"
    >
      <Spotlight.Search
        placeholder={t('palette.placeholder')}
        aria-label={t('palette.label')}
        leftSection={<IconSearch size={20} stroke={1.5} aria-hidden />}
        rightSection={searching ? <Loader size="xs" aria-label={t('searching')} /> : undefined}
        onKeyDown={(event) => {
          // Mantine then clicks the selected action, a disabled (stale) one does nothing.
          if (event.key === 'Enter' && longEnough && !current) goToAll();
        }}
        data-testid="search-palette-input"
      />
      <Spotlight.ActionsList>
        {typed.length === 0 && (
          <>
            <Spotlight.Empty data-testid="search-palette-hint">{t('hint')}</Spotlight.Empty>
            {recent.items.length > 0 && (
              <Spotlight.ActionsGroup label={t('recent.title')} data-testid="search-recent">
                {recent.items.map((item) => (
                  <Spotlight.Action
                    key={item}
                    label={item}
                    leftSection={<IconHistory size={18} stroke={1.5} aria-hidden />}
                    closeSpotlightOnTrigger={false}
                    onClick={() => setQuery(item)}
                    data-testid="search-recent-item"
                  />
                ))}
                <Group justify="flex-end" px="xs">
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="gray"
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={recent.clear}
                    data-testid="search-recent-clear"
                  >
                    {t('recent.clear')}
                  </Button>
                </Group>
              </Spotlight.ActionsGroup>
            )}
          </>
        )}

        {typed.length > 0 && !longEnough && (
          <Spotlight.Empty data-testid="search-palette-too-short">
            {t('tooShort', { count: SEARCH_MIN_LENGTH })}
          </Spotlight.Empty>
        )}

        {longEnough && results.isError && !results.isPlaceholderData && debounced === typed && (
          <Alert
            color="red"
            variant="light"
            m="sm"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('error.title')}
            role="alert"
            data-testid="search-palette-error"
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{problemMessage(results.error)}</Text>
              <Button
                size="xs"
                variant="light"
                color="red"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => void results.refetch()}
              >
                {t('error.retry')}
              </Button>
            </Stack>
          </Alert>
        )}

        {groups.map((group) => (
          <ResultGroup key={group.kind} group={group} openable={current} onOpen={go} />
        ))}

        {longEnough && !results.data && results.isPending && (
          <Spotlight.Empty data-testid="search-palette-loading">{t('searching')}</Spotlight.Empty>
        )}

        {current && results.isSuccess && groups.length === 0 && (
          <Spotlight.Empty data-testid="search-palette-empty">
            <Text size="sm" fw={500}>
              {t('empty.title', { q: typed })}
            </Text>
            <Text size="sm" c="dimmed" mt={4}>
              {t('empty.hint')}
            </Text>
          </Spotlight.Empty>
        )}

        {longEnough && !(current && results.isSuccess && groups.length === 0) && (
          <Spotlight.Action
            label={t('palette.all', { q: typed })}
            leftSection={<IconArrowRight size={18} stroke={1.5} aria-hidden />}
            onClick={goToAll}
            data-testid="search-palette-all"
          />
        )}
      </Spotlight.ActionsList>
      <Spotlight.Footer>
        <Group gap="md" justify="flex-end">
          <Text size="xs" c="dimmed">
            <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> {t('keys.move')}
          </Text>
          <Text size="xs" c="dimmed">
            <Kbd size="xs">Enter</Kbd> {t('keys.open')}
          </Text>
          <Text size="xs" c="dimmed">
            <Kbd size="xs">Esc</Kbd> {t('keys.close')}
          </Text>
        </Group>
      </Spotlight.Footer>
    </Spotlight.Root>
  );
}

/**
 * Marks the action at `index` as the one Enter opens, as Mantine does after a keystroke (its store
 * actions are not exported): the answer comes later than the keystroke, so it is done again then.
 */
function selectAction(store: SpotlightStore, index: number): void {
  const { listId } = store.getState();
  const list = listId ? document.getElementById(listId) : null;
  if (!list) return;
  const actions = list.querySelectorAll('[data-action]');
  if (actions.length === 0) return;
  const selected = Math.min(Math.max(index, 0), actions.length - 1);
  list.querySelector('[data-selected]')?.removeAttribute('data-selected');
  actions[selected]?.setAttribute('data-selected', 'true');
  actions[selected]?.scrollIntoView({ block: 'nearest' });
  store.updateState((state) => ({ ...state, selected }));
}

function ResultGroup({
  group,
  openable,
  onOpen,
}: {
  group: SearchGroup;
  /** False while the results are those of an earlier text. */
  openable: boolean;
  onOpen: (target: Pick<RouteTarget, 'to' | 'search'>) => void;
}) {
  const label = kindLabel(group.kind);
  return (
    // The label shows through CSS (Mantine's group heading); role and aria-label name the group.
    <Spotlight.ActionsGroup
      label={label}
      role="group"
      aria-label={label}
      data-testid={`search-group-${group.kind}`}
    >
      {group.results.map((result) => {
        const target = routeTarget(result.link);
        const enabled = openable && target !== undefined;
        return (
          <Spotlight.Action
            key={result.id}
            label={result.title}
            description={resultDescription(result)}
            leftSection={<KindIcon kind={group.kind} />}
            highlightQuery
            // Stale, or a screen this app does not know: neither a click nor Enter opens it.
            disabled={!enabled}
            style={openable ? undefined : { opacity: 0.55 }}
            onClick={() => {
              if (target) onOpen(target);
            }}
            data-testid={`search-result-${group.kind}-${result.id}`}
          />
        );
      })}
    </Spotlight.ActionsGroup>
  );
}
