import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { PortalCapability } from '../../../domain/portal/portal-capability';

export const PORTAL_CAPABILITY = 'portal-capability';

/** What a portal session needs for an operation, and the route parameter that names its subscription. */
export interface PortalRule {
  capability: PortalCapability;
  /** The path parameter holding a subscription id: a session narrowed to others gets 404, as for an id that does not exist. */
  subscriptionParam?: string;
  /** Only for a session that reaches every subscription (creating one: a narrowed session could not see it). */
  unnarrowed?: boolean;
}

/**
 * Opens an operation to portal sessions (`Authorization: Bearer lps_…`) that hold `capability`
 * (domain/portal/portal-capability.ts). Every other operation refuses them with 403: the portal
 * reaches only what is listed, route by route (decisions.md 186). In the OpenAPI document it is
 * the `x-portal-capability` extension and a second security requirement, the `portalSession` bearer.
 */
export function PortalCapable(capability: PortalCapability, options: Omit<PortalRule, 'capability'> = {}) {
  return applyDecorators(
    SetMetadata(PORTAL_CAPABILITY, { capability, ...options } satisfies PortalRule),
    ApiSecurity('portalSession', [capability]),
    ApiExtension('x-portal-capability', capability),
  );
}
