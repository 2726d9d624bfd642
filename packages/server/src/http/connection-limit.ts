import type { Server } from 'node:net';

/**
 * Closes a new connection at once when its peer address already holds `max` open ones (0: no
 * limit). It counts the socket's peer, which behind a load balancer or ingress is the proxy, not the
 * client: so it is off unless MAX_CONNECTIONS_PER_ADDRESS is set, for servers clients reach directly
 * (decisions.md, "HTTP limits"); behind a proxy, the proxy's own per-client limit does this.
 */
export function limitConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
