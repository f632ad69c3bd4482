import { Migration } from '@mikro-orm/migrations';

/**
 * Portal sessions (issue 73, decisions.md 186): a tenant's grant to one person to see and operate
 * its webhooks in the portal page. Tokens are kept as hashes only, each unique, since a request of
 * the page finds its session by its token alone. Made by `npm run migration:create` from the
 * entity's diff.
 */
export class Migration20261206092215_portal_sessions extends Migration {
  override name = 'Migration20261206092215_portal_sessions';

  override up(): void {
    this.addSql(`create table "portal_sessions" ("id" text collate "C" not null, "tenant_id" text collate "C" not null, "capabilities" text[] not null, "subscription_ids" text[] null, "allowed_origins" text[] null, "link_token_hash" text not null, "link_used_at" timestamptz(3) null, "session_token_hash" text null, "created_by_api_key_id" text collate "C" null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, "revoked_at" timestamptz(3) null, primary key ("id"))`);
    this.addSql(`alter table "portal_sessions" add constraint "portal_sessions_link_token_hash_key" unique ("link_token_hash")`);
    this.addSql(`alter table "portal_sessions" add constraint "portal_sessions_session_token_hash_key" unique ("session_token_hash")`);
    this.addSql(`create index "portal_sessions_tenant_id_idx" on "portal_sessions" ("tenant_id", "id")`);
    this.addSql(`alter table "portal_sessions" add constraint "portal_sessions_tenant_id_fkey" foreign key ("tenant_id") references "tenants" ("id") on update no action on delete no action`);
    this.addSql(`alter table "portal_sessions" add constraint "portal_sessions_created_by_api_key_id_fkey" foreign key ("created_by_api_key_id") references "api_keys" ("id") on update no action on delete no action`);
    this.addSql(`alter table "portal_sessions" add constraint "portal_sessions_capabilities_check" check (cardinality(capabilities) > 0)`);
    this.addSql(`alter table "portal_sessions" add constraint "portal_sessions_expiry_check" check (expires_at > created_at)`);
  }
}
