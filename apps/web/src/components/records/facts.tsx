import { Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

const isEmpty = (value: ReactNode) =>
  value === null || value === undefined || value === '' || value === false;

export type Fact = readonly [label: string, value: ReactNode];

/** Label/value rows of a record's read view; empty values show '—'. */
export function FactsTable({ rows, testId }: { rows: readonly Fact[]; testId?: string }) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder data-testid={testId}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={200}>{label}</Table.Th>
            <Table.Td>{isEmpty(value) ? '—' : value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The side panel of a record screen: a few key facts. */
export function SidePanel({
  title,
  rows,
  children,
}: {
  title?: string;
  rows: readonly Fact[];
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="md" data-testid="side-panel">
      <Stack gap="xs">
        {title && (
          <Title order={2} size="h5">
            {title}
          </Title>
        )}
        {rows.map(([label, value]) => (
          <SimpleGrid key={label} cols={2} spacing="xs">
            <Text size="sm" c="dimmed">
              {label}
            </Text>
            <Text size="sm" style={{ wordBreak: 'break-word' }}>
              {isEmpty(value) ? '—' : value}
            </Text>
          </SimpleGrid>
        ))}
        {children}
      </Stack>
    </Paper>
  );
}
