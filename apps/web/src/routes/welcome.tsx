import { Button, List, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { pathFor } from '../lib/route-table.ts';

export default function WelcomeScreen() {
  return (
    <Stack gap="md" data-testid="welcome">
      <Title order={1} size="h2">
        Welcome to FVG
      </Title>
      <Text>
        The logistics and customs back office of your forwarder: follow your dossiers from booking to
        delivery, in one place.
      </Text>
      <List size="sm" spacing={4}>
        <List.Item>Dossiers, transports, planning and container tracking</List.Item>
        <List.Item>Documents, offers and invoices</List.Item>
        <List.Item>Import, export and transit declarations</List.Item>
        <List.Item>Customs warehouse stock and shipments</List.Item>
      </List>
      <Text size="sm" c="dimmed">
        Accounts are created by your FVG contact. Once you have one, sign in with your email address.
      </Text>
      <Button component={Link} to={pathFor('login')} data-testid="link-login">
        Sign in
      </Button>
    </Stack>
  );
}
