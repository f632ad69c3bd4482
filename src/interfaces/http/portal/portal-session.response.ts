import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PortalSessionView } from '../../../application/portal/portal-session.view';
import { PORTAL_CAPABILITIES, PortalCapability } from '../../../domain/portal/portal-capability';
import { Holds, SameShape } from '../openapi/same-shape';

export class PortalSessionResponse {
  @ApiProperty({ example: 'portal_01jdq8x0m2f3e4r5t6y7u8i9o0' }) id!: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...PORTAL_CAPABILITIES] } }) capabilities!: PortalCapability[];
  @ApiProperty({ type: [String], nullable: true, description: 'Null: every subscription of the tenant.' }) subscriptionIds!: string[] | null;
  @ApiProperty({ type: [String], nullable: true, description: 'Null: the portal may not be embedded.' }) allowedOrigins!: string[] | null;
  @ApiProperty({ description: 'Whether the link was used: it opens the portal once.' }) linkUsed!: boolean;
  @ApiProperty({ enum: ['active', 'expired', 'revoked'] }) status!: 'active' | 'expired' | 'revoked';
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt!: string | null;
}

export class CreatedPortalSessionResponse extends PortalSessionResponse {
  @ApiProperty({
    format: 'uri',
    example: 'https://api.example.com/portal?session=portal_01jdq8x0m2f3e4r5t6y7z8k9w0#token=lpl_4rT0mB9Qp2c7Ye1Kx0Wd3Zs8Hn5Uf6Lj2Ga9Vt1Rb4E',
    description: "The portal's address for one person, shown only here. Its token is in the fragment, which browsers never send to a server or in a Referer; the page exchanges it once.",
  })
  url!: string;
}

export class PortalSessionListResponse {
  @ApiProperty({ type: [PortalSessionResponse] }) items!: PortalSessionResponse[];
  @ApiProperty() hasMore!: boolean;
  @ApiPropertyOptional() nextCursor?: string;
}

export class ExchangedPortalLinkResponse {
  @ApiProperty({ example: 'lps_Qm8cT3x1Vb7Nd2Kf9Hs4Wy6Ja0Lp5Ge8Rz1Uo3Ci7Xw', description: 'Sent as `Authorization: Bearer <sessionToken>` on every /v0 request the portal makes; lives as long as the session.' })
  sessionToken!: string;
  @ApiProperty({ type: PortalSessionResponse }) session!: PortalSessionResponse;
}

export type PortalSessionShape = Holds<SameShape<PortalSessionResponse, PortalSessionView>>;
