import { Button, type MantineColor } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from './confirm-dialog.tsx';

export interface TransitionButtonsProps<S extends string> {
  /** The status actions the server allows this user now (the record's `allowedTransitions`). */
  allowed: readonly S[];
  /** Button label per target status. */
  labels: Readonly<Record<S, string>>;
  /** Targets that ask first (e.g. cancelled), with the question. */
  confirm?: Partial<Readonly<Record<S, string>>>;
  /** Targets drawn as destructive. */
  danger?: readonly S[];
  /** The target being applied now. */
  pending?: S | null | undefined;
  disabled?: boolean;
  onTransition: (to: S) => void;
  color?: MantineColor;
}

/**
 * Status changes as explicit buttons, one per allowed target (`transition-<to>`): a status is never
 * a free edit. The first forward step is the primary button; destructive ones are red and confirm.
 */
export function TransitionButtons<S extends string>({
  allowed,
  labels,
  confirm = {},
  danger = [],
  pending,
  disabled = false,
  onTransition,
}: TransitionButtonsProps<S>) {
  const [asking, setAsking] = useState<S | null>(null);
  const primary = allowed.find((to) => !danger.includes(to));
  const question = asking ? confirm[asking] : undefined;

  return (
    <>
      {allowed.map((to) => {
        const destructive = danger.includes(to);
        return (
          <Button
            key={to}
            variant={to === primary ? 'filled' : destructive ? 'light' : 'default'}
            color={destructive ? 'red' : undefined}
            loading={pending === to}
            disabled={disabled || (pending != null && pending !== to)}
            onClick={() => (confirm[to] ? setAsking(to) : onTransition(to))}
            data-testid={`transition-${to}`}
          >
            {labels[to]}
          </Button>
        );
      })}
      <ConfirmDialog
        opened={asking !== null && question !== undefined}
        title={asking ? labels[asking] : ''}
        message={question}
        confirmLabel={asking ? labels[asking] : 'Confirm'}
        danger={asking ? danger.includes(asking) : false}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (asking) onTransition(asking);
          setAsking(null);
        }}
      />
    </>
  );
}
