ALTER TABLE "audit_events" ADD COLUMN IF NOT EXISTS "request_id" text;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_site_actor_at_idx" ON "audit_events" USING btree ("site_id","actor_user_id","at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_site_request_idx" ON "audit_events" USING btree ("site_id","request_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "revisions_site_request_idx" ON "revisions" USING btree ("site_id","request_id");
