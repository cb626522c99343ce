import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HubProvider } from '../../../lib/hub-provider.tsx';
import { fakeHub } from '../../../test/fake-hub-connection.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { DossierRoom } from './dossier-room.tsx';

/** Issue 27 item 8: a missing dossier is the detail screen's 404, not a console error. */
function joining(answer: () => unknown) {
  const { hub, connection } = fakeHub({ autoStart: true });
  connection.answer = (method, args) => (method === 'JoinDossier' ? answer() : { method, args });
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  renderWithProviders(
    <HubProvider userId="u1" client={hub}>
      <DossierRoom dossierKey="D-2026-999999">
        <p>detail</p>
      </DossierRoom>
    </HubProvider>,
  );
  return { connection, errors };
}

describe('DossierRoom', () => {
  afterEach(() => vi.restoreAllMocks());

  it('stays quiet when the server refuses the room (a dossier that does not exist or is not yours)', async () => {
    const { connection, errors } = joining(() => {
      throw new Error('Dossier not found.');
    });
    await waitFor(() => expect(connection.sent.some((c) => c.method === 'JoinDossier')).toBe(true));
    await new Promise((r) => setTimeout(r, 20));
    expect(errors).not.toHaveBeenCalled();
  });

  it('reports what the server did not answer as a refusal', async () => {
    const { errors } = joining(() => {
      throw new Error("An unexpected error occurred invoking 'JoinDossier' on the server.");
    });
    await waitFor(() => expect(errors).toHaveBeenCalledWith('[hub] JoinDossier failed', expect.any(Error)));
  });
});
