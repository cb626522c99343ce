import { describe, expect, it } from 'vitest';
import type { HubConnection } from './connection.ts';
import { LifetimeManager } from './lifetime.ts';

/** A connection as the lifetime manager sees it: an id, its groups, what was written to it. */
function fake(id: string) {
  const written: string[] = [];
  const conn = { connectionId: id, groups: new Set<string>(), write: (p: string) => written.push(p) };
  return { conn: conn as unknown as HubConnection, written };
}

describe('group delivery narrowed to other groups (alsoIn)', () => {
  it("reaches the room's staff and the named party only, not another party's connection still in the room", async () => {
    const lifetime = new LifetimeManager();
    const staff = fake('s');
    const former = fake('a');
    const current = fake('b');
    for (const [c, groups] of [
      [staff, ['staff', 'dossier:1']],
      [former, ['party:A', 'dossier:1']],
      [current, ['party:B', 'dossier:1']],
    ] as const) {
      lifetime.add(c.conn, c.conn.connectionId);
      for (const g of groups) lifetime.addToGroup(c.conn, g);
    }
    await lifetime.send({
      scope: 'group',
      key: 'dossier:1',
      payload: 'said to B',
      alsoIn: ['staff', 'party:B'],
    });
    await lifetime.send({ scope: 'group', key: 'dossier:1', payload: 'to the room' });
    expect(staff.written).toEqual(['said to B', 'to the room']);
    expect(current.written).toEqual(['said to B', 'to the room']);
    expect(former.written).toEqual(['to the room']);
  });
});
