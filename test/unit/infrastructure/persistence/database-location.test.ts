import { createServer, Server } from 'node:net';
import { answers } from '../../../../src/infrastructure/net/tcp-probe';
import { chooseDefaultSource } from '../../../../src/infrastructure/persistence/connection/database-location';

describe('database location', () => {
  it('uses the local PostgreSQL when it answers, else the embedded one', () => {
    expect(chooseDefaultSource(true)).toBe('local');
    expect(chooseDefaultSource(false)).toBe('embedded');
  });

  it('tells a listening loopback port from a closed one', async () => {
    const server: Server = createServer((socket) => socket.end());
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    expect(await answers('127.0.0.1', port)).toBe(true);
    await new Promise<void>((done) => server.close(() => done()));
    expect(await answers('127.0.0.1', port)).toBe(false);
  });
});
