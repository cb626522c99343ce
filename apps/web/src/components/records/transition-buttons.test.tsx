import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { isValidElement, type ReactElement, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { TransitionButtons, type TransitionDone, type TransitionFacts } from './transition-buttons.tsx';

type S = 'planned' | 'dispatched' | 'done' | 'cancelled';
/** `dispatched` can step back to `planned`; nothing comes back from `done` or `cancelled`. */
const WORKFLOW: Record<S, readonly S[]> = {
  planned: ['dispatched', 'cancelled'],
  dispatched: ['planned', 'done', 'cancelled'],
  done: [],
  cancelled: [],
};
const LABELS: Record<S, string> = {
  planned: 'Back to planned',
  dispatched: 'Dispatch',
  done: 'Mark done',
  cancelled: 'Cancel',
};

/** A record whose status the buttons move, as a screen holds it. */
function Harness({
  start,
  onCall,
  facts,
}: {
  start: S;
  onCall: (to: S, facts: Record<string, string>) => TransitionDone | Promise<TransitionDone>;
  facts?: Partial<Record<S, TransitionFacts>>;
}) {
  const [status, setStatus] = useState<S>(start);
  return (
    <>
      <span data-testid="status">{status}</span>
      <TransitionButtons<S>
        current={status}
        allowed={WORKFLOW[status]}
        workflow={WORKFLOW}
        labels={LABELS}
        danger={['cancelled']}
        {...(facts ? { facts } : {})}
        onTransition={async (to, values) => {
          const done = await onCall(to, values);
          setStatus(to);
          return done;
        }}
      />
    </>
  );
}

/** The toast's content, rendered so its Undo can be clicked (the harness draws no notifications). */
function renderToast(shown: ReturnType<typeof vi.spyOn>, index = 0) {
  const message = (shown.mock.calls[index]?.[0] as { message: ReactElement } | undefined)?.message;
  if (!message) throw new Error(`No toast #${index}`);
  expect(isValidElement(message)).toBe(true);
  return renderWithProviders(message);
}

afterEach(() => vi.restoreAllMocks());

describe('TransitionButtons', () => {
  it('applies a change the workflow can step back from at once, and its toast undoes it on the new record', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const calls: S[] = [];
    renderWithProviders(
      <Harness
        start="planned"
        onCall={(to) => {
          calls.push(to);
          return { message: `Now ${to}.` };
        }}
      />,
    );
    fireEvent.click(screen.getByTestId('transition-dispatched'));
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('dispatched'));
    expect(screen.queryByText('This status change cannot be undone.')).toBeNull();
    expect(calls).toEqual(['dispatched']);

    const toast = renderToast(shown);
    expect(toast.container.textContent).toContain('Now dispatched.');
    await act(async () => fireEvent.click(within(toast.container).getByTestId('transition-undo')));
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('planned'));
    expect(calls).toEqual(['dispatched', 'planned']);
    expect(shown.mock.calls.at(-1)?.[0]).toMatchObject({ message: 'Undone. Now planned.' });
  });

  it('asks first before a change that cannot be undone, and offers no Undo after it', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const onCall = vi.fn(() => ({ message: 'Done.' }));
    renderWithProviders(<Harness start="dispatched" onCall={onCall} />);
    fireEvent.click(screen.getByTestId('transition-done'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog.textContent).toContain('This status change cannot be undone.');
    expect(onCall).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'));
    const toast = renderToast(shown);
    expect(within(toast.container).queryByTestId('transition-undo')).toBeNull();
  });

  it('asks the facts a target states, with their defaults, live warnings and the server’s refusal on the field', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const sent: Record<string, string>[] = [];
    let refuse = true;
    const facts: Partial<Record<S, TransitionFacts>> = {
      done: {
        intro: 'When was it done?',
        fields: [{ name: 'doneOn', label: 'Done on', kind: 'date', initial: () => '2026-03-10' }],
        problems: (v) =>
          v.doneOn && v.doneOn > '2026-03-31' ? [{ field: 'doneOn', message: 'Not in the future' }] : [],
        warnings: (v) =>
          v.doneOn && v.doneOn < '2026-03-05' ? [{ field: 'doneOn', message: 'Long before the plan.' }] : [],
      },
    };
    renderWithProviders(
      <Harness
        start="dispatched"
        facts={facts}
        onCall={(_to, values) => {
          sent.push(values);
          if (refuse) {
            refuse = false;
            throw new ApiError(400, {
              type: 'about:blank',
              title: 'Bad Request',
              status: 400,
              errors: [{ field: 'doneOn', message: 'Before the start' }],
            });
          }
          return { message: 'Done.', warnings: [{ field: 'doneOn', message: 'Long before the plan.' }] };
        }}
      />,
    );
    fireEvent.click(screen.getByTestId('transition-done'));
    const dialog = await screen.findByTestId('transition-dialog');
    expect(dialog.textContent).toContain('When was it done?');
    expect(dialog.textContent).toContain('This status change cannot be undone.');
    const input = within(dialog).getByTestId('field-doneOn') as HTMLInputElement;
    // Shown as people read it ('10 Mar 2026'); sent as '2026-03-10'.
    expect(input.value).toBe(formatDate('2026-03-10'));
    expect(within(dialog).queryByTestId('transition-warning-doneOn')).toBeNull();

    fireEvent.change(input, { target: { value: '2026-03-01' } });
    fireEvent.blur(input);
    await waitFor(() =>
      expect(within(dialog).getByTestId('transition-warning-doneOn').textContent).toContain(
        'Long before the plan.',
      ),
    );
    fireEvent.click(within(dialog).getByTestId('transition-dialog-submit'));
    await waitFor(() => expect(dialog.textContent).toContain('Before the start'));
    expect(screen.getByTestId('status').textContent).toBe('dispatched');

    fireEvent.click(within(dialog).getByTestId('transition-dialog-submit'));
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'));
    expect(sent).toEqual([{ doneOn: '2026-03-01' }, { doneOn: '2026-03-01' }]);
    await waitFor(() => expect(screen.queryByTestId('transition-dialog')).toBeNull());
    expect(shown.mock.calls.map(([n]) => n.message)).toContain('Long before the plan.');
  });
});
