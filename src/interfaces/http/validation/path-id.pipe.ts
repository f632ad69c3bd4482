import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { NotFoundError } from '../../../domain/shared/domain-error';
import { ID_PREFIXES, IdPrefix, isTypeId } from '../../../domain/shared/type-id';

/**
 * Every path parameter of the API, by name: the resource it names and its TypeID prefix. A route
 * with a parameter missing here answers 404 to every request (fail closed), and the test that
 * sends hostile ids to every path parameter of the OpenAPI document names it.
 */
export const PATH_IDS: Readonly<Record<string, { resource: string; prefix: IdPrefix }>> = {
  brand_id: { resource: 'brand', prefix: ID_PREFIXES.brand },
  page_group_id: { resource: 'page group', prefix: ID_PREFIXES.pageGroup },
  page_id: { resource: 'page', prefix: ID_PREFIXES.page },
  template_id: { resource: 'template', prefix: ID_PREFIXES.template },
  subscription_id: { resource: 'webhook subscription', prefix: ID_PREFIXES.webhookSubscription },
  delivery_id: { resource: 'delivery', prefix: ID_PREFIXES.delivery },
  event_id: { resource: 'event', prefix: ID_PREFIXES.event },
  portal_session_id: { resource: 'portal session', prefix: ID_PREFIXES.portalSession },
};

/**
 * Path ids are checked before anything runs: a NUL, an over-long value or another prefix is the
 * 404 of an id that does not exist (the same answer, so nothing is learned), raised before any
 * SQL, whichever use case the route calls (decisions.md 179). Runs after the guards: a request
 * without a valid key or scope learns nothing from it either.
 */
@Injectable()
export class PathIdPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'param') return value;
    const name = metadata.data ?? '';
    const known = PATH_IDS[name];
    if (!known) throw new NotFoundError('resource', String(value));
    if (!isTypeId(value, known.prefix)) throw new NotFoundError(known.resource, String(value));
    return value;
  }
}
