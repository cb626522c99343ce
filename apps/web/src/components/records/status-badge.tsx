import { Badge, type MantineColor } from '@mantine/core';

export interface StatusBadgeProps {
  status: string;
  /** Colour per status; unknown statuses are grey. */
  colors: Readonly<Record<string, MantineColor>>;
  /** Label per status; unknown statuses show as `in_transit` → 'In transit'. */
  labels?: Readonly<Record<string, string>>;
  size?: 'xs' | 'sm' | 'md' | 'lg';
  testId?: string;
}

export function statusLabel(status: string, labels?: Readonly<Record<string, string>>): string {
  const label = labels?.[status];
  if (label) return label;
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A record's status as a coloured badge; `data-status` carries the raw value for tests and styles. */
export function StatusBadge({
  status,
  colors,
  labels,
  size = 'md',
  testId = 'status-badge',
}: StatusBadgeProps) {
  return (
    <Badge
      color={colors[status] ?? 'gray'}
      variant="light"
      size={size}
      data-status={status}
      data-testid={testId}
      // Never cut: a squeezed table column grows to the whole word rather than "RESE…" (issue 27 item 2).
      style={{ minWidth: 'max-content' }}
    >
      {statusLabel(status, labels)}
    </Badge>
  );
}
