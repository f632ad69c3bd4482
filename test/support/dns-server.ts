import { createSocket, Socket } from 'node:dgram';

/**
 * A name server on 127.0.0.1 for tests of name resolution: it answers A queries for the names in
 * `addresses` with their IPv4 address, and NXDOMAIN for every other name (no AAAA records).
 * Enough of RFC 1035 for c-ares: one question per query, the answer points back at it.
 */
export async function startDnsServer(addresses: Record<string, string>): Promise<{ port: number; close: () => Promise<void> }> {
  const socket: Socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    let at = 12;
    const labels: string[] = [];
    while (query[at] !== 0) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]).toString('ascii'));
      at += query[at] + 1;
    }
    const questionEnd = at + 5;
    const type = query.readUInt16BE(at + 1);
    const address = addresses[labels.join('.').toLowerCase()];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180 | (address === undefined ? 3 : 0), 2);
    header.writeUInt16BE(1, 4);
    const answer = address !== undefined && type === 1;
    header.writeUInt16BE(answer ? 1 : 0, 6);
    const record = answer
      ? Buffer.concat([Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4]), Buffer.from(address.split('.').map(Number))])
      : Buffer.alloc(0);
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), record]), peer.port, peer.address);
  });
  await new Promise<void>((done) => socket.bind(0, '127.0.0.1', done));
  return { port: socket.address().port, close: () => new Promise<void>((done) => socket.close(() => done())) };
}
