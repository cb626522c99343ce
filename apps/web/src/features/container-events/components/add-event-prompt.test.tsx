import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { startContainersScreen, stubContainersApi } from '../../../test/container-events-screen.tsx';
import { giveElementsSize } from '../../../test/render-route.tsx';

/** A container no event has named yet (not in the stubbed list). */
const NEW_CONTAINER = 'TEXU3070079';

const prompt = () => screen.getByTestId('add-event-prompt-form');
const numberField = () => within(prompt()).getByTestId('field-number') as HTMLInputElement;
const errorOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter((id) => id.endsWith('-error'))
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('Add event from the containers list', () => {
  beforeEach(() => giveElementsSize());

  it('asks staff for a container number, checks it (ISO 6346) and opens the event form for it', async () => {
    stubContainersApi('staff');
    const { router } = await startContainersScreen('/containers');
    fireEvent.click(await screen.findByTestId('add-event-any'));
    await screen.findByTestId('add-event-prompt-form');

    // A wrong check digit is said on the field, and nothing opens.
    fireEvent.change(numberField(), { target: { value: 'TEXU3070070' } });
    fireEvent.click(within(prompt()).getByTestId('form-submit'));
    await waitFor(() => expect(errorOf(numberField())).toContain('its last digit should be 9'));
    expect(router.state.location.search).toEqual({});

    // Written loosely, it is the container's key.
    fireEvent.change(numberField(), { target: { value: 'texu 307007-9' } });
    fireEvent.click(within(prompt()).getByTestId('form-submit'));
    await waitFor(() => expect(router.state.location.search).toEqual({ open: NEW_CONTAINER, add: 1 }));
    const form = await screen.findByTestId('manual-event-form');
    expect((within(form).getByTestId('field-equipmentReference') as HTMLInputElement).value).toBe(
      NEW_CONTAINER,
    );
    expect(screen.queryByTestId('add-event-prompt-form')).toBeNull();
  });

  it('is not offered to customers', async () => {
    stubContainersApi('customer');
    await startContainersScreen('/containers');
    await screen.findByTestId('row-container-MSKU6011672');
    expect(screen.queryByTestId('add-event-any')).toBeNull();
  });
});
