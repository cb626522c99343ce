import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('a message sent as NCTS XML', () => {
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  afterEach(() => {
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });

  it('downloads the IE015 as it was sent, under the declaration’s LRN', async () => {
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:ie015');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const fetchMock = vi.fn(
      async (_url: string) =>
        new Response('<ncts:CC015C/>', { status: 200, headers: { 'content-type': 'application/xml' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(
      <MantineProvider>
        <DeclarationMessages
          declaration={{ id: 'd-1', lrn: 'LRN-2026-000009' }}
          messages={[
            aMessage({ id: 'm-1', xml: 'IE015' }),
            aMessage({ id: 'm-2', kind: 'amendment_request' }),
          ]}
        />
      </MantineProvider>,
    );
    // Only the message exchanged as XML has the button.
    expect(screen.getAllByTestId('message-xml')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'IE015 message (XML)' }));
    await waitFor(() => expect(saved).toEqual(['LRN-2026-000009-IE015.xml']));
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/declarations/d-1/messages/m-1/xml');
  });

  it('has no button where the message has no XML', () => {
    show([aMessage()]);
    expect(screen.queryByTestId('message-xml')).toBeNull();
  });
});
