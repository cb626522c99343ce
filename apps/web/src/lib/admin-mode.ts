import { useLocalStorage } from '@mantine/hooks';

/** Remembered per browser (docs/product.md: "a toggle in the user menu, remembered per browser"). */
export const ADMIN_MODE_STORAGE_KEY = 'fvg.adminMode';

/**
 * The admin mode switch. Only admins have one: for every other role it reads false whatever the
 * browser remembers. Admin-only actions should render only while `enabled` is true.
 */
export function useAdminMode(role: string | undefined): {
  available: boolean;
  enabled: boolean;
  setEnabled: (value: boolean) => void;
} {
  const [stored, setStored] = useLocalStorage<boolean>({
    key: ADMIN_MODE_STORAGE_KEY,
    defaultValue: false,
    getInitialValueInEffect: false,
  });
  const available = role === 'admin';
  return { available, enabled: available && stored === true, setEnabled: setStored };
}
