import { APP_VERSION } from '@fvg/contracts';
import { Box, Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconShip } from '@tabler/icons-react';
import { Outlet } from '@tanstack/react-router';

/** The centered card the guest screens (sign in, password, welcome) share. */
export function GuestLayout() {
  return (
    <Box
      component="main"
      mih="100dvh"
      p="md"
      bg="gray.0"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <Stack w="100%" maw={440} gap="md">
        <Group justify="center" gap="xs">
          <ThemeIcon size="lg" radius="md" aria-hidden>
            <IconShip size={20} />
          </ThemeIcon>
          <Text fw={700} fz="xl" data-testid="product-name">
            FVG
          </Text>
        </Group>
        <Card withBorder shadow="sm" radius="md" p="xl" data-testid="guest-card">
          <Outlet />
        </Card>
        <Text ta="center" size="xs" c="dimmed" component="footer" data-testid="app-version">
          {APP_VERSION}
        </Text>
      </Stack>
    </Box>
  );
}
