import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A private CA and a server certificate it signed for 127.0.0.1 and localhost, made with openssl
 * in a directory of their own (removed by `remove`): what a TLS Redis on loopback serves. A
 * process trusts the CA through NODE_EXTRA_CA_CERTS, as one would in production for a private CA.
 */
export interface TestCertificates {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  ca: Buffer;
  remove(): Promise<void>;
}

export async function makeTestCertificates(): Promise<TestCertificates> {
  const dir = await mkdtemp(join(tmpdir(), 'lp-tls-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir, timeout: 30_000 });
  await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=landing test CA', '-keyout', at('ca.key'), '-out', at('ca.pem'));
  await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', at('server.key'), '-out', at('server.csr'));
  await writeFile(at('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n');
  await openssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', at('server.ext'), '-out', at('server.pem'));
  return {
    dir,
    caFile: at('ca.pem'),
    certFile: at('server.pem'),
    keyFile: at('server.key'),
    ca: await readFile(at('ca.pem')),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
