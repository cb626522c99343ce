import type { IntegrationKeyCreated } from '@fvg/contracts';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { AdminScreen } from '../components/admin-screen.tsx';
import { RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import {
  CreatedKey,
  IntegrationKeyForm,
  IntegrationKeyList,
} from '../features/container-events/components/integration-keys.tsx';
import { pathFor } from '../lib/route-table.ts';

/**
 * /admin/integration-keys: administrators, with admin mode on, give terminals, carriers and
 * visibility platforms the API keys they post container events with, and revoke them. A new key is
 * shown once, in the dialog that created it (`?new=1`); closing the dialog forgets it.
 */
export default function AdminIntegrationKeysScreen() {
  const [search, setSearch] = useRouteSearch<{ new?: 1 }>();
  const [created, setCreated] = useState<IntegrationKeyCreated | null>(null);
  const close = () => {
    setCreated(null);
    setSearch({ new: undefined });
  };

  return (
    <AdminScreen route="admin-integration-keys" noAccessMessage="Integration keys are for administrators.">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Text size="sm" c="dimmed" maw={720}>
            Terminals, carriers and visibility platforms post DCSA Track &amp; Trace events to{' '}
            <code>POST /api/container-events</code> with a key of their own. Give each integration its own
            key, so one can be revoked without stopping the others.
          </Text>
          <Button
            leftSection={<IconKey size={16} aria-hidden />}
            onClick={() => setSearch({ new: 1 })}
            data-testid="new-integration-key"
          >
            New key
          </Button>
        </Group>
        <IntegrationKeyList />
        <RecordModal
          opened={search.new === 1 || created !== null}
          // The key is shown once: only "Done" (after copying) closes it.
          dismissible={created === null}
          title={created ? 'Your new integration key' : 'New integration key'}
          onClose={close}
          size="lg"
          testId="integration-key-dialog"
        >
          {created ? (
            <CreatedKey created={created} onDone={close} />
          ) : (
            <IntegrationKeyForm
              onCreated={setCreated}
              onCancel={close}
              keepsForm={(next) =>
                next.pathname === pathFor('admin-integration-keys') && next.search.new === 1
              }
            />
          )}
        </RecordModal>
      </Stack>
    </AdminScreen>
  );
}
