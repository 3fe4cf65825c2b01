-- Issue 28: one revision per write of an editable object, in the write's transaction
-- (server/domain/revisions.ts), and the audit log names the object it touched.
CREATE TABLE "revisions" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"site_id" uuid NOT NULL,
	"network_id" uuid,
	"object_kind" text NOT NULL,
	"object_id" text NOT NULL,
	"object_name" text,
	"object_version" integer,
	"actor_user_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text,
	"request_id" text,
	"restored_from" bigint,
	"changes" jsonb NOT NULL,
	"snapshot" jsonb
);
--> statement-breakpoint
CREATE INDEX "revisions_object_idx" ON "revisions" USING btree ("site_id","object_kind","object_id","seq");--> statement-breakpoint
CREATE INDEX "revisions_site_at_idx" ON "revisions" USING btree ("site_id","at");--> statement-breakpoint
CREATE INDEX "revisions_site_actor_at_idx" ON "revisions" USING btree ("site_id","actor_user_id","at");--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "object_kind" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "object_id" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "object_name" text;--> statement-breakpoint
CREATE INDEX "audit_site_object_idx" ON "audit_events" USING btree ("site_id","object_kind","object_id","at");--> statement-breakpoint
CREATE INDEX "audit_site_action_at_idx" ON "audit_events" USING btree ("site_id","action","at");
