import type { Me } from '@fvg/contracts';
import { Menu, Stack, Switch, Text } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useAdminMode } from '../lib/admin-mode.ts';
import { useT } from '../lib/i18n.ts';
import { pathFor } from '../lib/route-table.ts';

/**
 * The account menu's dropdown (profile, admin mode, sign out), loaded when a user reaches for the
 * menu (shell.tsx renders `target`, the same button, until then; ADR 0023).
 */
export function UserMenu({
  me,
  target,
  defaultOpened,
}: {
  me: Me;
  target: ReactElement;
  defaultOpened: boolean;
}) {
  const t = useT('shell');
  const adminMode = useAdminMode(me.role);
  return (
    <Menu position="bottom-end" width={260} withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={500} c="var(--mantine-color-text)" data-testid="user-menu-name">
            {me.name}
          </Text>
          <Text size="xs" c="dimmed" data-testid="user-menu-email">
            {me.Email}
          </Text>
        </Menu.Label>
        <Menu.Item
          component={Link}
          to={pathFor('profile')}
          leftSection={<IconUser size={16} />}
          data-testid="menu-profile"
        >
          {t('userMenu.profile')}
        </Menu.Item>
        {adminMode.available && (
          <Stack px="sm" py={6}>
            <Switch
              label={t('adminMode.label')}
              checked={adminMode.enabled}
              onChange={(event) => adminMode.setEnabled(event.currentTarget.checked)}
              data-testid="admin-mode-switch"
            />
          </Stack>
        )}
        <Menu.Divider />
        <Menu.Item
          component={Link}
          to={pathFor('logout')}
          preload={false}
          color="red"
          leftSection={<IconLogout size={16} />}
          data-testid="menu-sign-out"
        >
          {t('userMenu.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
