import { ANIMATION_MS, APP_VERSION } from '@fvg/contracts';
import {
  AppShell,
  Avatar,
  Badge,
  Burger,
  Group,
  Kbd,
  NavLink,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import {
  IconAddressBook,
  IconBuilding,
  IconBuildingWarehouse,
  IconCalendarTime,
  IconChevronDown,
  IconContainer,
  IconFileInvoice,
  IconFileText,
  IconFolders,
  IconKey,
  IconLayoutDashboard,
  IconPackageExport,
  IconReceipt,
  IconSearch,
  IconShip,
  IconStack2,
  IconTruck,
  IconUser,
  IconUsers,
} from '@tabler/icons-react';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { type ReactNode, Suspense, useState } from 'react';
import { ErrorState } from '../components/error-state.tsx';
import { NotificationBell } from '../features/notifications/components/notification-bell.tsx';
import { useAdminMode } from '../lib/admin-mode.ts';
import { HubProvider } from '../lib/hub-provider.tsx';
import { useT } from '../lib/i18n.ts';
import { lazyNamed, useLoadOnIntent } from '../lib/lazy-component.ts';
import { HOME_PATH, isUnderPath, navEntriesFor, pathFor, type RouteName } from '../lib/route-table.ts';
import { hasCwAccess, useMe } from '../lib/session.ts';
import { HubStatusDot } from './hub-status.tsx';
import { NotificationToasts } from './notification-toasts.tsx';
import { OfflineNotice } from './offline-notice.tsx';

const NAV_ICONS: Partial<Record<RouteName, ReactNode>> = {
  dashboard: <IconLayoutDashboard size={18} stroke={1.5} />,
  dossiers: <IconFolders size={18} stroke={1.5} />,
  transports: <IconTruck size={18} stroke={1.5} />,
  'planning-list': <IconCalendarTime size={18} stroke={1.5} />,
  documents: <IconFileText size={18} stroke={1.5} />,
  'container-events': <IconContainer size={18} stroke={1.5} />,
  'sales-offers': <IconReceipt size={18} stroke={1.5} />,
  'sales-invoices': <IconFileInvoice size={18} stroke={1.5} />,
  declarations: <IconStack2 size={18} stroke={1.5} />,
  search: <IconSearch size={18} stroke={1.5} />,
  stock: <IconBuildingWarehouse size={18} stroke={1.5} />,
  shipments: <IconPackageExport size={18} stroke={1.5} />,
  parties: <IconAddressBook size={18} stroke={1.5} />,
  'admin-users': <IconUsers size={18} stroke={1.5} />,
  'admin-integration-keys': <IconKey size={18} stroke={1.5} />,
  'admin-company': <IconBuilding size={18} stroke={1.5} />,
};

const LazySearchPalette = lazyNamed(
  () => import('../features/search/components/search-palette.tsx'),
  'SearchPalette',
);

/**
 * The header search box and the command palette it opens (typing, a click, Ctrl+K / ⌘K from any
 * screen, even inside a field). The palette (Mantine Spotlight) is its own chunk, loaded on intent;
 * until it is in, the box keeps what is typed and Enter goes to /search.
 */
function HeaderSearch() {
  const t = useT('search');
  const me = useMe();
  const navigate = useNavigate();
  const palette = useLoadOnIntent(LazySearchPalette);
  const [opened, setOpened] = useState(false);
  const [query, setQuery] = useState('');
  const open = () => {
    palette.want();
    setOpened(true);
  };
  const close = () => {
    setOpened(false);
    setQuery('');
  };
  useHotkeys([['mod+K', () => (opened ? close() : open())]], []);

  return (
    <>
      <TextInput
        type="search"
        aria-label={t('header.label')}
        aria-haspopup="dialog"
        placeholder={t('header.placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={
          <Kbd size="xs" visibleFrom="sm" aria-hidden>
            {isMac() ? '⌘K' : 'Ctrl K'}
          </Kbd>
        }
        rightSectionWidth={64}
        rightSectionPointerEvents="none"
        value={query}
        {...palette.intent}
        onClick={open}
        onChange={(event) => {
          setQuery(event.currentTarget.value);
          if (event.currentTarget.value.trim()) open();
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          // The field's own value: the state may not have re-rendered yet after a fast fill.
          const q = event.currentTarget.value.trim();
          if (!q) return;
          event.preventDefault();
          close();
          void navigate({ to: pathFor('search'), search: { q } });
        }}
        w={{ base: 160, sm: 260 }}
        data-testid="header-search"
      />
      {palette.active && (
        <Suspense fallback={null}>
          <LazySearchPalette opened={opened} initialQuery={query} onClose={close} userId={me.data?.id} />
        </Suspense>
      )}
    </>
  );
}

function isMac(): boolean {
  return (
    typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)
  );
}

const LazyUserMenu = lazyNamed(() => import('./user-menu.tsx'), 'UserMenu');

/** The account button; its menu (Mantine's Menu, the admin-mode switch) loads when reached for. */
function UserMenuSlot() {
  const t = useT('shell');
  const me = useMe();
  const menu = useLoadOnIntent(LazyUserMenu);

  if (!me.data) return <Skeleton height={32} width={120} radius="xl" data-testid="user-menu-loading" />;
  const { name } = me.data;
  const target = (
    <UnstyledButton
      aria-label={t('userMenu.label', { name })}
      aria-haspopup="menu"
      data-testid="user-menu"
      {...menu.intent}
      onClick={menu.active ? undefined : menu.want}
    >
      <Group gap="xs" wrap="nowrap">
        {/* An icon, not the initials: text in the button that its name does not say fails WCAG 2.5.3. */}
        <Avatar name={name} color="initials" size="sm" aria-hidden>
          <IconUser size={16} />
        </Avatar>
        <Text size="sm" fw={500} visibleFrom="sm">
          {name}
        </Text>
        <IconChevronDown size={14} aria-hidden />
      </Group>
    </UnstyledButton>
  );
  if (!menu.active) return target;
  return (
    <Suspense fallback={target}>
      <LazyUserMenu me={me.data} target={target} defaultOpened={menu.wanted} />
    </Suspense>
  );
}

function AdminModeBadge() {
  const t = useT('shell');
  const me = useMe();
  const adminMode = useAdminMode(me.data?.role);
  if (!adminMode.enabled) return null;
  return (
    <Badge color="red" variant="light" visibleFrom="xs" data-testid="admin-mode-badge">
      {t('adminMode.label')}
    </Badge>
  );
}

function Navigation({ onNavigate }: { onNavigate: () => void }) {
  const t = useT('routes');
  const me = useMe();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const cwAccess = hasCwAccess(me.data);
  const entries = navEntriesFor({ role: me.data?.role, cwAccess });

  return (
    <Stack gap={2}>
      {entries.map((entry) => {
        const active = isUnderPath(pathname, entry.activeOn);
        return (
          <NavLink
            key={entry.route}
            component={Link}
            to={pathFor(entry.route)}
            label={t(`nav.${entry.route}`)}
            leftSection={NAV_ICONS[entry.route]}
            active={active}
            aria-current={active ? 'page' : undefined}
            onClick={onNavigate}
            data-testid={entry.testId}
          />
        );
      })}
    </Stack>
  );
}

/** The frame of every signed-in screen: header, navbar, main area and footer. */
export function Shell() {
  const t = useT('shell');
  const [navOpened, nav] = useDisclosure(false);
  const me = useMe();
  const navigate = useNavigate();

  return (
    <HubProvider userId={me.data?.id} onSessionEnded={() => void navigate({ to: '/logout' })}>
      <NotificationToasts />
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
        footer={{ height: 36 }}
        padding="md"
        transitionDuration={ANIMATION_MS}
      >
        <a href="#main-content" className="skip-link">
          {t('skipToContent')}
        </a>
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger
                opened={navOpened}
                onClick={nav.toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={navOpened ? t('navigation.close') : t('navigation.open')}
              />
              <UnstyledButton component={Link} to={HOME_PATH} data-testid="home-link">
                <Group gap="xs" wrap="nowrap">
                  <ThemeIcon radius="md" aria-hidden>
                    <IconShip size={18} />
                  </ThemeIcon>
                  <Text fw={700} fz="lg" data-testid="product-name">
                    FVG
                  </Text>
                  <Text c="dimmed" size="sm" visibleFrom="md">
                    {t('tagline')}
                  </Text>
                </Group>
              </UnstyledButton>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <HeaderSearch />
              <AdminModeBadge />
              <HubStatusDot />
              <NotificationBell />
              <UserMenuSlot />
            </Group>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar p="xs" component="nav" aria-label={t('navigation.main')} data-testid="navbar">
          <ScrollArea type="auto">
            <Navigation onNavigate={nav.close} />
          </ScrollArea>
        </AppShell.Navbar>

        <AppShell.Main id="main-content" tabIndex={-1}>
          <OfflineNotice />
          {me.isError ? <ErrorState error={me.error} onRetry={() => void me.refetch()} /> : <Outlet />}
        </AppShell.Main>

        <AppShell.Footer px="md">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Text size="xs" c="dimmed" visibleFrom="xs">
              {t('footer')}
            </Text>
            <Text size="xs" c="dimmed" data-testid="app-version">
              {APP_VERSION}
            </Text>
          </Group>
        </AppShell.Footer>
      </AppShell>
    </HubProvider>
  );
}
