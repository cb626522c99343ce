import { DEFAULT_USER_PREFERENCES, type Me } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetDisplayPreferences } from '../lib/display-preferences.ts';
import { formatMoney } from '../lib/format.ts';
import { HubProvider } from '../lib/hub-provider.tsx';
import { setNumberFormat } from '../lib/number-format.ts';
import { getToken, setToken } from '../lib/session.ts';
import { fakeHub } from '../test/fake-hub-connection.ts';
import { errorOf } from '../test/fields.ts';
import { jsonResponse, renderRoute } from '../test/render-route.tsx';
import ProfileScreen from './profile.tsx';

const me: Me = {
  id: 'u1',
  Email: 'nina@fvg.local',
  name: 'Nina Bakker',
  role: 'staff',
  party: null,
  access: { cw_access: false },
  preferences: { ...DEFAULT_USER_PREFERENCES },
};

type Call = { method: string; url: string; body: unknown };

function stubApi(
  answers: { patch?: (body: unknown) => Response; password?: (body: unknown) => Response } = {},
) {
  const calls: Call[] = [];
  let current = me;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url, body });
    if (method === 'PATCH' && url.endsWith('/profile')) {
      if (answers.patch) return answers.patch(body);
      const b = body as { name?: string; preferences?: Partial<Me['preferences']> };
      current = {
        ...current,
        name: b.name ?? current.name,
        preferences: { ...current.preferences, ...b.preferences },
      };
      return jsonResponse(current);
    }
    if (method === 'POST' && url.endsWith('/profile/password')) {
      return answers.password
        ? answers.password(body)
        : jsonResponse({ Token: 'fresh-token', message: 'Your password has been changed.' });
    }
    return jsonResponse(current);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

async function renderProfile() {
  const { hub } = fakeHub({ autoStart: true });
  const result = await renderRoute(
    <HubProvider userId="u1" client={hub}>
      <ProfileScreen />
    </HubProvider>,
    { path: '/profile', url: '/profile' },
  );
  await screen.findByTestId('profile-formats-form');
  return result;
}

/** Picks `label` in the Mantine Select with this test id (opens it, clicks the option). */
async function choose(testId: string, label: string | RegExp) {
  const input = screen.getByTestId(testId);
  fireEvent.click(input);
  const listbox = await waitFor(() => {
    const id = input.getAttribute('aria-controls');
    const found = id ? document.getElementById(id) : null;
    if (!found) throw new Error(`the options of ${testId} did not open`);
    return found;
  });
  fireEvent.click(within(listbox).getByRole('option', { name: label, hidden: true }));
}

beforeEach(() => setToken('old-token'));
afterEach(() => {
  setNumberFormat(null);
  resetDisplayPreferences();
  vi.restoreAllMocks();
});

describe('the profile', () => {
  it('shows the number format live and saves it, after which every amount uses it', async () => {
    const calls = stubApi();
    await renderProfile();
    const example = screen.getByTestId('profile-number-example');
    expect(example.textContent).toContain('$1,234,567.89');

    await choose('profile-currency', /^EUR — Euro$/);
    await choose('profile-thousands', 'Period (.)');
    // The thousands separator now clashes with the decimal one: said on the field, nothing sent.
    fireEvent.click(screen.getByTestId('profile-formats-save'));
    await waitFor(() =>
      expect(errorOf(screen.getByTestId('profile-thousands'))).toContain(
        'Choose a thousands separator other than the decimal separator',
      ),
    );
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    await choose('profile-decimal', 'Comma (,)');
    expect(example.textContent).toContain('€1.234.567,89');
    await choose('profile-date-format', '2026-11-23');
    fireEvent.click(screen.getByTestId('profile-formats-save'));

    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      preferences: {
        ...DEFAULT_USER_PREFERENCES,
        currency: 'EUR',
        decimalSeparator: ',',
        thousandsSeparator: '.',
        dateFormat: 'YYYY-MM-DD',
      },
    });
    await waitFor(() => expect(formatMoney('2450')).toBe('€2.450,00'));
  });

  it('puts a server refusal on the field it names', async () => {
    stubApi({
      patch: () =>
        jsonResponse(
          {
            type: '/problems/validation-failed',
            title: 'Validation failed',
            status: 400,
            errors: [
              { field: 'preferences.timeZone', message: 'Choose a time zone such as Europe/Amsterdam' },
            ],
          },
          400,
        ),
    });
    await renderProfile();
    await choose('profile-time-zone', 'Asia/Tokyo');
    fireEvent.click(screen.getByTestId('profile-formats-save'));
    await waitFor(() =>
      expect(errorOf(screen.getByTestId('profile-time-zone'))).toContain('Europe/Amsterdam'),
    );
  });

  it('saves the name and refuses an empty one before sending', async () => {
    const calls = stubApi();
    await renderProfile();
    const input = screen.getByTestId('profile-name-input');
    expect((input as HTMLInputElement).value).toBe('Nina Bakker');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.submit(screen.getByTestId('profile-name-form'));
    await waitFor(() => expect(errorOf(input)).toContain('Enter your name'));
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    const shown = vi.spyOn(notifications, 'show');
    fireEvent.change(input, { target: { value: 'Nina de Vries' } });
    fireEvent.submit(screen.getByTestId('profile-name-form'));
    await waitFor(() => expect(shown).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Nina de Vries' });
  });

  it('changes the password: checks the repeat first, keeps this session with the fresh token', async () => {
    const calls = stubApi();
    await renderProfile();
    const shown = vi.spyOn(notifications, 'show');
    fireEvent.change(screen.getByTestId('profile-current-password'), { target: { value: 'old-pass-2026' } });
    fireEvent.change(screen.getByTestId('profile-new-password'), {
      target: { value: 'Lantern-Fjord-Otter-4410' },
    });
    fireEvent.change(screen.getByTestId('profile-confirm-password'), {
      target: { value: 'Lantern-Fjord-Otter-441' },
    });
    fireEvent.submit(screen.getByTestId('profile-password-form'));
    await waitFor(() =>
      expect(errorOf(screen.getByTestId('profile-confirm-password'))).toContain(
        'The two new passwords differ',
      ),
    );
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('profile-confirm-password'), {
      target: { value: 'Lantern-Fjord-Otter-4410' },
    });
    fireEvent.submit(screen.getByTestId('profile-password-form'));
    await waitFor(() => expect(getToken()).toBe('fresh-token'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      currentPassword: 'old-pass-2026',
      newPassword: 'Lantern-Fjord-Otter-4410',
    });
    await waitFor(() => expect(shown).toHaveBeenCalled());
    expect((screen.getByTestId('profile-current-password') as HTMLInputElement).value).toBe('');
  });

  it('says a wrong current password on that field and keeps the token', async () => {
    stubApi({
      password: () =>
        jsonResponse(
          {
            type: '/problems/validation-failed',
            title: 'Validation failed',
            status: 400,
            detail: 'Your current password is not correct.',
            errors: [{ field: 'currentPassword', message: 'Your current password is not correct.' }],
          },
          400,
        ),
    });
    await renderProfile();
    fireEvent.change(screen.getByTestId('profile-current-password'), { target: { value: 'nope-nope-nope' } });
    fireEvent.change(screen.getByTestId('profile-new-password'), {
      target: { value: 'Lantern-Fjord-Otter-4410' },
    });
    fireEvent.change(screen.getByTestId('profile-confirm-password'), {
      target: { value: 'Lantern-Fjord-Otter-4410' },
    });
    fireEvent.submit(screen.getByTestId('profile-password-form'));
    await waitFor(() =>
      expect(errorOf(screen.getByTestId('profile-current-password'))).toContain('not correct'),
    );
    expect(getToken()).toBe('old-token');
  });
});
