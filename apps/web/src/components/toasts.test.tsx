import { MantineProvider } from '@mantine/core';
import { cleanNotifications, notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { theme } from './theme.ts';
import { Toasts } from './toasts.tsx';

afterEach(() => act(() => cleanNotifications()));

describe('Toasts', () => {
  it('renders no container until a toast is shown, then shows that toast once the container loads', async () => {
    const view = render(
      <MantineProvider theme={theme}>
        <Toasts />
      </MantineProvider>,
    );
    // The container would be in after a tick if it were eager (its portal mounts in an effect).
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(view.baseElement.querySelector('[data-position]')).toBeNull();

    act(() => {
      notifications.show({ title: 'Saved', message: 'Dossier D-2026-000042 was saved' });
    });

    expect(await screen.findByText('Dossier D-2026-000042 was saved')).toBeTruthy();
    expect(view.baseElement.querySelector('[data-position]')).not.toBeNull();
  });
});
