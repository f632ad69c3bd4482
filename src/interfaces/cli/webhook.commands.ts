import { RecoverDeliveries, RECOVER_MAX_DAYS, RECOVER_MAX_DELIVERIES } from '../../application/webhook/subscriptions/recover-deliveries.use-case';
import { Redeliver } from '../../application/webhook/subscriptions/redeliver.use-case';
import { ManualDelivery } from '../../application/webhook/subscriptions/delivery-requests.port';
import { INSTANT } from '../../domain/shared/rules';
import { UsageError } from './cli-args';
import { CliCommand } from './cli-context';

// Support's side of a customer's webhooks: the same redelivery and recovery the API offers, for
// an operator acting on a customer's request (docs/webhooks.md, Operating a subscription).

export const webhookRedeliverCommand: CliCommand = {
  name: 'webhook:redeliver',
  summary: 'send one delivery again (one attempt now, outside its schedule)',
  usage: 'webhook:redeliver --tenant T --subscription S --delivery D',
  required: ['tenant', 'subscription', 'delivery'],
  run: (context, options) => context.get(Redeliver).execute({ tenantId: options.tenant, subscriptionId: options.subscription, deliveryId: options.delivery, grant: null }),
  text: (result) => {
    const made = result as ManualDelivery;
    return `redelivery ${made.deliveryId} of ${made.redeliveryOf} queued (event ${made.eventId})`;
  },
};

export const webhookRecoverCommand: CliCommand = {
  name: 'webhook:recover',
  summary: `redeliver what failed since a time (at most ${RECOVER_MAX_DAYS} days back, ${RECOVER_MAX_DELIVERIES.toLocaleString('en-US')} deliveries)`,
  usage: 'webhook:recover --tenant T --subscription S --since 2026-11-24T00:00:00Z',
  required: ['tenant', 'subscription', 'since'],
  run: (context, options) => {
    const since = new Date(options.since);
    if (!INSTANT.test(options.since) || Number.isNaN(since.getTime())) throw new UsageError('option --since must be an ISO 8601 date-time with its offset');
    return context.get(RecoverDeliveries).execute({ tenantId: options.tenant, subscriptionId: options.subscription, since, grant: null });
  },
  text: (result) => {
    const { queued, hasMore } = result as { queued: number; hasMore: boolean };
    return `${queued} deliveries queued again${hasMore ? '; more remain: run it again once these are done' : ''}`;
  },
};
