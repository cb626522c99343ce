import { Button, Group, type MantineColor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useT } from '../../lib/i18n.ts';
import { showProblemToast } from '../problem-reference.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { type FactMessage, type TransitionFacts, TransitionFactsDialog } from './transition-facts-dialog.tsx';

export type { FactMessage, TransitionFactField, TransitionFacts } from './transition-facts-dialog.tsx';

/** What a status change answered: the sentence to show, and what in its facts contradicts the plan. */
export interface TransitionDone {
  message: string;
  warnings?: readonly FactMessage[];
}

export interface TransitionButtonsProps<S extends string> {
  /** The record's status now: an undo moves back to it. */
  current: S;
  /** The status actions the server allows this user now (the record's `allowedTransitions`). */
  allowed: readonly S[];
  /** The area's workflow (from → targets): a change it can step back from offers Undo, any other asks first. */
  workflow: Readonly<Record<S, readonly S[]>>;
  /** Button label per target status. */
  labels: Readonly<Record<S, string>>;
  /** The question of a target that asks first, when the default ("cannot be undone") says too little. */
  confirm?: Partial<Readonly<Record<S, string>>>;
  /** Targets that state a fact (a date, a handler): a dialog asks for it with the change. */
  facts?: Partial<Readonly<Record<S, TransitionFacts>>>;
  /** Targets drawn as destructive. */
  danger?: readonly S[];
  disabled?: boolean;
  /** Applies a change with the facts asked; rejects with the API's error when refused. */
  onTransition: (to: S, facts: Record<string, string>) => Promise<TransitionDone>;
  /** A refused change outside a dialog (the screen may refetch or show it inline); by default a red toast. */
  onError?: (error: unknown) => void;
  color?: MantineColor;
}

const UNDO_MS = 10_000;

/**
 * Status changes as explicit buttons, one per allowed target (`transition-<to>`): a status is never
 * a free edit. The first forward step is the primary button; destructive ones are red. A target that
 * states a fact opens a dialog for it; one the workflow cannot step back from asks first; the others
 * apply at once and offer Undo in their toast (the reverse change, on the new version).
 */
export function TransitionButtons<S extends string>({
  current,
  allowed,
  workflow,
  labels,
  confirm = {},
  facts = {},
  danger = [],
  disabled = false,
  onTransition,
  onError,
}: TransitionButtonsProps<S>) {
  const t = useT('records');
  const [asking, setAsking] = useState<S | null>(null);
  const [pending, setPending] = useState<S | null>(null);
  const primary = allowed.find((to) => !danger.includes(to));
  const reversible = (from: S, to: S) => workflow[to]?.includes(from) === true && !facts[from];
  const factsOf = asking ? facts[asking] : undefined;

  const failed = (error: unknown) => {
    if (onError) onError(error);
    else showProblemToast(t('transition.failed'), error);
  };

  const announce = (from: S, to: S, done: TransitionDone) => {
    const id = `transition-${Date.now()}`;
    const canUndo = reversible(from, to);
    notifications.show({
      id,
      color: 'green',
      autoClose: canUndo ? UNDO_MS : undefined,
      message: (
        <Group justify="space-between" gap="sm" wrap="nowrap">
          <Text size="sm">{done.message}</Text>
          {canUndo && (
            <Button
              size="compact-sm"
              variant="light"
              data-testid="transition-undo"
              onClick={() => {
                notifications.hide(id);
                setPending(from);
                onTransition(from, {})
                  .then((undone) =>
                    notifications.show({
                      color: 'gray',
                      message: t('transition.undone', { message: undone.message }),
                    }),
                  )
                  .catch(failed)
                  .finally(() => setPending(null));
              }}
            >
              {t('transition.undo')}
            </Button>
          )}
        </Group>
      ),
    });
    for (const w of done.warnings ?? [])
      notifications.show({ color: 'yellow', title: t('transition.warning'), message: w.message });
  };

  const apply = async (to: S, values: Record<string, string>, rethrow: boolean) => {
    const from = current;
    setPending(to);
    try {
      announce(from, to, await onTransition(to, values));
    } catch (error) {
      if (rethrow) throw error;
      failed(error);
    } finally {
      setPending(null);
    }
  };

  const question = asking && !factsOf ? (confirm[asking] ?? t('transition.irreversible')) : undefined;

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
            onClick={() =>
              facts[to] || !reversible(current, to) ? setAsking(to) : void apply(to, {}, false)
            }
            data-testid={`transition-${to}`}
          >
            {labels[to]}
          </Button>
        );
      })}
      {factsOf && asking && (
        <TransitionFactsDialog
          opened
          title={labels[asking]}
          spec={factsOf}
          irreversible={!reversible(current, asking)}
          onCancel={() => setAsking(null)}
          onSubmit={async (values) => {
            await apply(asking, values, true);
            setAsking(null);
          }}
        />
      )}
      <ConfirmDialog
        opened={question !== undefined}
        title={asking ? labels[asking] : ''}
        message={question}
        confirmLabel={asking ? labels[asking] : t('confirm.ok')}
        danger={asking ? danger.includes(asking) : false}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (asking) void apply(asking, {}, false);
          setAsking(null);
        }}
      />
    </>
  );
}
