-- Issue 41 (qoe-alerts): alert rules over a QoE metric and a filter set, their incidents (one open
-- per rule: a partial unique index, so instances evaluating together open it once), the site's alert
-- delivery settings (webhook signed with the site's secret, e-mail addresses), the deliveries of
-- opened/resolved incidents (retried by the delivery loop, the last error kept), and saved views.
CREATE TABLE IF NOT EXISTS "qoe_alert_rules" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "metric" text NOT NULL,
  "comparison" text NOT NULL,
  "threshold" double precision NOT NULL,
  "duration_minutes" integer NOT NULL,
  "filters" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "enabled" boolean DEFAULT true NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "breaching_since" timestamp with time zone,
  "last_value" double precision,
  "last_evaluated_at" timestamp with time zone,
  "created_by" uuid REFERENCES "staff_users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "qoe_alert_rules_site_name_idx" ON "qoe_alert_rules" ("site_id", lower("name"));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "qoe_alert_rules_enabled_idx" ON "qoe_alert_rules" ("enabled");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "qoe_incidents" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
  "rule_id" uuid REFERENCES "qoe_alert_rules"("id") ON DELETE SET NULL,
  "rule_name" text NOT NULL,
  "metric" text NOT NULL,
  "comparison" text NOT NULL,
  "threshold" double precision NOT NULL,
  "filters" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "state" text DEFAULT 'open' NOT NULL,
  "started_at" timestamp with time zone NOT NULL,
  "resolved_at" timestamp with time zone,
  "resolved_reason" text,
  "peak_value" double precision NOT NULL,
  "last_value" double precision NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "qoe_incidents_one_open_idx" ON "qoe_incidents" ("rule_id") WHERE "state" = 'open';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "qoe_incidents_site_started_idx" ON "qoe_incidents" ("site_id", "started_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "qoe_alert_settings" (
  "site_id" uuid PRIMARY KEY NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
  "webhook_url" text,
  "webhook_secret" text NOT NULL,
  "emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "qoe_alert_deliveries" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
  "incident_id" uuid NOT NULL REFERENCES "qoe_incidents"("id") ON DELETE CASCADE,
  "channel" text NOT NULL,
  "event" text NOT NULL,
  "target" text NOT NULL,
  "payload" jsonb NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "last_error" text,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "sent_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "qoe_alert_deliveries_due_idx" ON "qoe_alert_deliveries" ("next_attempt_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "qoe_alert_deliveries_incident_idx" ON "qoe_alert_deliveries" ("incident_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "qoe_saved_views" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
  "owner_id" uuid NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "path" text NOT NULL,
  "search" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "shared" boolean DEFAULT false NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "qoe_saved_views_owner_name_idx" ON "qoe_saved_views" ("site_id", "owner_id", lower("name"));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "qoe_saved_views_site_shared_idx" ON "qoe_saved_views" ("site_id", "shared");
