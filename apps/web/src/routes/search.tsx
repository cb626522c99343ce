import { useSearch } from '@tanstack/react-router';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { SearchPage } from '../features/search/components/search-page.tsx';

export default function SearchScreen() {
  const { q } = useSearch({ strict: false }) as { q?: string };
  return (
    <ScreenFrame route="search">
      <SearchPage q={q ?? ''} />
    </ScreenFrame>
  );
}
