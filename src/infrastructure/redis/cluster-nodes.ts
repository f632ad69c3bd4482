import type { RedisNode } from './redis-connection';

/**
 * REDIS_CLUSTER_NODES: some nodes of a Redis Cluster, each `host:port` or a URL
 * `redis[s]://[user[:password]@]host:port` (rediss: TLS). A cluster has one set of credentials
 * and one TLS setting for every node (its client uses them for the nodes it finds), so every entry
 * must say the same; undefined when any entry is malformed or they differ.
 */
export function parseClusterNodes(raw: string): RedisNode[] | undefined {
  const nodes = raw.split(',').map((part) => parseNode(part.trim()));
  if (nodes.length === 0 || nodes.some((node) => node === undefined)) return undefined;
  const access = (node: RedisNode) => JSON.stringify([node.username ?? null, node.password ?? null, node.tls === true]);
  if (new Set(nodes.map((node) => access(node!))).size !== 1) return undefined;
  return nodes as RedisNode[];
}

function parseNode(part: string): RedisNode | undefined {
  const plain = /^([\w.-]+|\[[0-9a-f:]+\]):(\d{1,5})$/i.exec(part);
  if (plain) return withPort({ host: plain[1].replace(/^\[|\]$/g, ''), port: Number(plain[2]) });
  if (!/^rediss?:\/\//i.test(part)) return undefined;
  let url: URL;
  try {
    url = new URL(part);
  } catch {
    return undefined;
  }
  if (!url.port || !['', '/'].includes(url.pathname) || url.search || url.hash) return undefined;
  const node: RedisNode = { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) };
  if (url.username) node.username = decodeURIComponent(url.username);
  if (url.password) node.password = decodeURIComponent(url.password);
  if (url.protocol === 'rediss:') node.tls = true;
  return withPort(node);
}

function withPort(node: RedisNode): RedisNode | undefined {
  return node.port >= 1 && node.port <= 65535 ? node : undefined;
}

/** An entry as a log line may show it: never its password. */
export function describeNodes(raw: string): string {
  return raw.replace(/\/\/([^@/]*)@/g, (_, credentials: string) => `//${credentials.split(':')[0]}:…@`).slice(0, 200);
}
