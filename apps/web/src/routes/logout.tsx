import { Center, Loader, Stack, Text } from '@mantine/core';

/** Shown for the instant between clearing the session and arriving at the login screen. */
export default function LogoutScreen() {
  return (
    <Center mih="50dvh">
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text>Signing out…</Text>
      </Stack>
    </Center>
  );
}
