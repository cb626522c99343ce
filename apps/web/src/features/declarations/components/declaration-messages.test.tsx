import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMessage } from '../test/fixtures.ts';
import { DeclarationMessages } from './declaration-messages.tsx';

const show = (messages: Parameters<typeof DeclarationMessages>[0]['messages']) =>
  render(
    <MantineProvider>
      <DeclarationMessages messages={messages} />
    </MantineProvider>,
  );

describe('the message timeline', () => {
  it('shows sent and received messages with their meaning, time, summary, MRN and who sent them', () => {
    show([
      aMessage(),
      aMessage({
        id: 'm2',
        direction: 'received',
        kind: 'accepted',
        at: '2026-11-12T10:00:02.000Z',
        summary: 'Sandbox authority — not a real customs lodgement: accepted',
        mrn: '26NL000396000042R3',
        by: null,
      }),
    ]);
    const lodge = screen.getByTestId('message-lodge');
    expect(lodge.textContent).toContain('Declaration lodged');
    expect(lodge.textContent).toContain('Sent');
    expect(lodge.textContent).toContain('by Sam Staff');
    expect(lodge.textContent).toContain('12 Nov 2026');
    const accepted = screen.getByTestId('message-accepted');
    expect(accepted.textContent).toContain('Accepted, MRN allocated');
    expect(accepted.textContent).toContain('Received');
    expect(accepted.textContent).toContain('from the customs authority');
    expect(within(accepted).getByTestId('message-mrn').textContent).toBe('26NL000396000042R3');
    expect(accepted.textContent).toContain('Sandbox');
    // Oldest first, as they happened.
    const order = screen.getAllByTestId(/^message-(lodge|accepted)$/).map((e) => e.dataset.testid);
    expect(order).toEqual(['message-lodge', 'message-accepted']);
    // Neither kinds nor ISO instants leak as raw values.
    expect(document.body.textContent).not.toMatch(/2026-11-12T|\blodge\b/);
  });

  it('lists each rule of a rejection with its code and text', () => {
    show([
      aMessage({
        id: 'm3',
        direction: 'received',
        kind: 'rejected',
        summary: 'Rejected by the sandbox authority',
        by: null,
        rules: [
          {
            code: 'SBX-R101',
            text: 'Office of lodgement NL0003XX is not a customs office of the Union',
            field: 'officeOfLodgement',
          },
          { code: 'SBX-R210', text: 'Item 1: the net mass is missing', field: 'items.0.netMassKg' },
        ],
      }),
    ]);
    const rules = within(screen.getByTestId('message-rejected')).getByTestId('message-rules');
    expect(rules.textContent).toContain('SBX-R101');
    expect(rules.textContent).toContain('Office of lodgement NL0003XX is not a customs office of the Union');
    expect(rules.textContent).toContain('SBX-R210');
    expect(rules.textContent).toContain('Item 1: the net mass is missing');
  });

  it('says that nothing has been sent before the first lodgement', () => {
    show([]);
    expect(screen.getByTestId('messages-empty').textContent).toContain('Nothing sent to the authority yet');
  });
});
