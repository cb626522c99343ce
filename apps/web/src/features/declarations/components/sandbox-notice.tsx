import { Alert, Badge } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { SANDBOX_LABEL } from './declaration-meta.ts';

/** The one gateway shipped is the sandbox: the list and every declaration say so, visibly. */
export function SandboxNotice() {
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconFlask size={18} aria-hidden />}
      title="Sandbox"
      data-testid="sandbox-notice"
      py="xs"
    >
      {SANDBOX_LABEL}. Lodgements are answered by a simulated customs authority.
    </Alert>
  );
}

/** The header's badge beside the status, so a screenshot of a released declaration still says it. */
export function SandboxBadge() {
  return (
    <Badge
      color="yellow"
      variant="filled"
      leftSection={<IconFlask size={12} aria-hidden />}
      data-testid="sandbox-badge"
    >
      Sandbox
    </Badge>
  );
}
