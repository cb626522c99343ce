import { Center, Loader } from '@mantine/core';

/** Shown while a screen's code or data loads. */
export function PageLoader() {
  return (
    <Center py="xl" mih={200} data-testid="page-loader">
      <Loader aria-label="Loading" />
    </Center>
  );
}
