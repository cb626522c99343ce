/**
 * Bench server process: the socket.io baseline (rooms for groups, `io.to(room).emit`, `io.emit`) on
 * Fastify at a loopback port, WebSocket transport only. Started by `bench/hub.ts`.
 */
import Fastify from 'fastify';
import { Server } from 'socket.io';
import { addStatsRoute, BENCH_GROUP, listenForDriver } from './hub-server-common.ts';

const app = Fastify({ logger: false });
const io = new Server(app.server, { transports: ['websocket'], serveClient: false });

io.on('connection', (socket) => {
  socket.on('join', (group: string) => {
    void socket.join(group);
  });
  socket.on('broadcastGroup', (group: string, payload: unknown) => {
    io.to(group).emit('msg', payload);
  });
  socket.on('broadcastAll', (payload: unknown) => {
    io.emit('msg', payload);
  });
  socket.on('groupSize', (group: string, ack: (size: number) => void) => {
    ack(io.sockets.adapter.rooms.get(group)?.size ?? 0);
  });
});

addStatsRoute(app, () => ({
  connections: io.engine.clientsCount,
  groupSize: io.sockets.adapter.rooms.get(BENCH_GROUP)?.size ?? 0,
}));
await listenForDriver(app);
