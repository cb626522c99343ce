import { EmptyState } from '@mantine/core';
import { IconBarrierBlock } from '@tabler/icons-react';
import { useT } from '../../lib/i18n.ts';

export interface ComingAreaProps {
  /** The area that brings this tab, e.g. 'transports'. */
  area: string;
  /** What the tab will show. */
  description: string;
}

/** An honest placeholder for a tab whose area is not built yet. */
export function ComingArea({ area, description }: ComingAreaProps) {
  const t = useT('records');
  return (
    <EmptyState
      icon={<IconBarrierBlock size={28} stroke={1.5} aria-hidden />}
      withIndicatorBackground
      title={t('comingArea', { area })}
      description={description}
      py="xl"
      data-testid="coming-area"
      data-area={area}
    />
  );
}
