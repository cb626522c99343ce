import { Center, Loader } from '@mantine/core';
import { useT } from '../lib/i18n.ts';

/** Shown while a screen's code or data loads. */
export function PageLoader() {
  const t = useT();
  return (
    <Center py="xl" mih={200} data-testid="page-loader">
      <Loader aria-label={t('loading')} />
    </Center>
  );
}
