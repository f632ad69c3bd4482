// An Express receiver that verifies every delivery with the client's verifyWebhook before
// trusting it, and drops the retries of an event it has already handled.
// Run (Node 24 strips the types):  SIGNING_SECRET=whsec_… PORT=4000 node examples/webhook-receiver.ts
// During a secret rotation, give both: SIGNING_SECRET=whsec_new,whsec_old
import express from 'express';
import { verifyWebhook, WebhookVerificationError } from '../client/index.ts';

const secrets = (process.env.SIGNING_SECRET ?? '').split(',').filter(Boolean);
const seen = new Set<string>();
const app = express();

// The raw bytes, not parsed JSON: the signatures are over the body exactly as it was sent.
app.post('/', express.raw({ type: () => true, limit: '1mb' }), (req, res) => {
  try {
    const event = verifyWebhook(req.body as Buffer, req.headers, secrets);
    // Deliveries are at least once: the event id tells a retry from a new event.
    if (!seen.has(event.id)) {
      seen.add(event.id);
      if (event.type === 'page.version.created') console.log(`page ${event.data.pageId} is at version ${event.data.version}`);
      else if (event.type === 'webhook.test') console.log(`test event for subscription ${event.data.subscriptionId}`);
      else if (event.type === 'brand.created' || event.type === 'brand.updated') console.log(`${event.type}: brand ${event.data.brandId} is now "${event.data.name}"`);
      // About a subscription's endpoint (docs/webhooks.md, Endpoint health): tell whoever runs it.
      else console.log(`${event.type}: subscription ${event.data.id} is ${event.data.health.state}${event.data.health.disabledReason ? ` (${event.data.health.disabledReason})` : ''}`);
    }
    res.status(204).end();
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    res.status(401).end();
  }
});

const port = Number(process.env.PORT ?? 4000);
app.listen(port, '127.0.0.1', () => console.log(`listening on 127.0.0.1:${port}`));
