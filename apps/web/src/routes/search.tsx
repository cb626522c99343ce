import { Text } from '@mantine/core';
import { useSearch } from '@tanstack/react-router';
import { ScreenFrame } from '../components/screen-frame.tsx';

export default function SearchScreen() {
  const { q } = useSearch({ strict: false }) as { q?: string };
  return (
    <ScreenFrame route="search" comingSoon>
      {q ? (
        <Text data-testid="search-query">Results for “{q}” will appear here once search is built.</Text>
      ) : undefined}
    </ScreenFrame>
  );
}
