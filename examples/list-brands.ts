// Walks every brand of a tenant with the typed client, page by page.
// Run (Node 24 strips the types):  API_URL=http://127.0.0.1:3000 API_KEY=lp_… node examples/list-brands.ts
import { createApiClient } from '../client/index.ts';

const client = createApiClient({ baseUrl: process.env.API_URL ?? 'http://127.0.0.1:3000', apiKey: process.env.API_KEY ?? '' });

async function main(): Promise<void> {
  let cursor: string | undefined;
  let count = 0;
  do {
    const { data, error, response } = await client.GET('/v0/brands', { params: { query: { limit: 100, cursor } } });
    if (error) throw new Error(`${response.status} ${error.code}: ${error.message} (request ${error.requestId})`);
    for (const brand of data.items) console.log(`${brand.brandId}  ${brand.name}  (${brand.preferredAppearance})`);
    count += data.items.length;
    cursor = data.nextCursor;
  } while (cursor);
  console.log(`${count} brand(s)`);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
