import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, notFound, rootRouteId } from '@tanstack/react-router';
import { RecordQueryState } from '../../../components/records/record-load-state.tsx';
import { useTabTitle } from '../../../components/records/use-tab-title.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { type DeclarationTag, pathFor, type RouteName, routeByName } from '../../../lib/route-table.ts';
import { pageTitle } from '../../../lib/title.ts';
import { declarationOptions } from '../api/declarations-api.ts';
import { DECLARATION_STATUS_COLORS, DECLARATION_STATUS_LABELS } from '../components/declaration-meta.ts';
import classes from './sad.module.css';
import { SadDocument } from './sad-document.tsx';
import { sadSheets } from './sad-pages.ts';

/** The alternate (SAD) view of a declaration of this type: the route the detail's "SAD view" opens. */
export function sadViewPath(type: DeclarationTag, id: string): string {
  return pathFor(`declaration-${type}-alt`, { id });
}

/** "SAD — import — LRN-2026-000012 · FVG". */
export function sadTitle(type: DeclarationTag, lrn: string): string {
  return pageTitle(`SAD — ${type} — ${lrn}`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The app's own not-found page (the root's), not a message inside the shell: the address names no SAD
 * view — a declaration of another type, another party's, or none. Thrown during render, it travels
 * past this route's error boundary to the root's not-found boundary (TanStack Router's design).
 */
function throwNotFound(): never {
  throw notFound({ routeId: rootRouteId });
}

export interface SadViewProps {
  /** The alt route this view is shown under; its `tag` is the declaration type it accepts. */
  route: Extract<RouteName, `declaration-${DeclarationTag}-alt`>;
  id: string;
}

/** `/declarations/{type}/{id}/alt`: the declaration as the Single Administrative Document, to print. */
export function SadView({ route, id }: SadViewProps) {
  const tag = routeByName(route).tag as DeclarationTag;
  const validId = UUID.test(id);
  const detail = useQuery({ ...declarationOptions(id), enabled: validId });
  const declaration = detail.data;

  useTabTitle(declaration && declaration.type === tag ? sadTitle(tag, declaration.lrn) : null);

  if (!validId) throwNotFound();
  if (!declaration) {
    if (detail.isError && isApiError(detail.error) && detail.error.status === 404) throwNotFound();
    return (
      <RecordQueryState
        query={detail}
        title="This declaration could not be loaded"
        skeleton={[40, [600, '210mm']]}
      />
    );
  }
  if (declaration.type !== tag) throwNotFound();

  const sheets = sadSheets(declaration.items).length;
  return (
    <Stack gap="sm" data-testid="sad-view">
      <Group justify="space-between" wrap="nowrap" className={classes.toolbar} data-testid="sad-toolbar">
        <Group gap="sm" wrap="nowrap">
          <Button
            component={Link}
            to={pathFor('declaration', { id: declaration.lrn })}
            variant="default"
            style={{ flexShrink: 0 }}
            leftSection={<IconArrowLeft size={16} aria-hidden />}
            data-testid="sad-back"
          >
            Back to the declaration
          </Button>
          <Text fw={600} truncate="end" title="Single Administrative Document">
            SAD of {declaration.lrn}
          </Text>
          <Badge
            color={DECLARATION_STATUS_COLORS[declaration.status]}
            variant="light"
            style={{ flexShrink: 0 }}
          >
            {DECLARATION_STATUS_LABELS[declaration.status]}
          </Badge>
        </Group>
        <Group gap="sm" wrap="nowrap">
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="sad-sheet-count">
            {sheets === 1 ? '1 A4 sheet' : `${sheets} A4 sheets`}
          </Text>
          <Button
            leftSection={<IconPrinter size={16} aria-hidden />}
            onClick={() => window.print()}
            data-testid="sad-print"
          >
            Print
          </Button>
        </Group>
      </Group>
      <SadDocument declaration={declaration} tag={tag} />
    </Stack>
  );
}
