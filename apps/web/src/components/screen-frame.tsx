import { Badge, Code, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { IconBarrierBlock } from '@tabler/icons-react';
import { useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useT } from '../lib/i18n.ts';
import { type RouteName, routeByName } from '../lib/route-table.ts';
import { useRouteAccessBlock } from './route-access.tsx';

export interface ScreenFrameProps {
  route: RouteName;
  /** Screen content. */
  children?: ReactNode;
  /** Show the "This area is coming" empty state; by default only when there is no content. */
  comingSoon?: boolean;
}

/**
 * The frame of every business screen: the title from the route table, the record id of the route
 * (`id` or `dossierId`), and the content. Routes marked requiresCwAccess show "No access" instead
 * for users without the cw_access flag, routes limited to some roles (`roles`) for the others.
 */
export function ScreenFrame({ route, children, comingSoon = children === undefined }: ScreenFrameProps) {
  const t = useT('shell');
  const tr = useT('routes');
  const def = routeByName(route);
  const params = useParams({ strict: false }) as Record<string, string | undefined>;
  const blocked = useRouteAccessBlock(route);
  if (blocked) return blocked;

  const recordId = params.id ?? params.dossierId;

  return (
    <Stack gap="lg" data-testid="screen-frame" data-route={def.name}>
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={1}>{tr(`title.${def.name}`)}</Title>
          {def.tag && (
            <Badge variant="light" data-testid="declaration-tag">
              {def.tag}
            </Badge>
          )}
        </Group>
        {recordId && (
          <Text c="dimmed" data-testid="record-id">
            {t('screen.record')} <Code>{recordId}</Code>
          </Text>
        )}
      </Stack>
      {children}
      {comingSoon && (
        <EmptyState
          icon={<IconBarrierBlock size={32} stroke={1.5} aria-hidden />}
          withIndicatorBackground
          title={t('screen.coming')}
          description={def.description && tr(`description.${def.description}`)}
          data-testid="coming-soon"
          py="xl"
        />
      )}
    </Stack>
  );
}
