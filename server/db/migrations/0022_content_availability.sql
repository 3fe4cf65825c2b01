-- Issue 29: content availability (publish at / unpublish at carried out by pg-boss jobs), country
-- groups, video licences, and the library's search over the words of the title and of the tags.
ALTER TABLE "content_items" ADD COLUMN IF NOT EXISTS "unpublish_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN IF NOT EXISTS "publish_job_id" uuid;
--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN IF NOT EXISTS "publish_job_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN IF NOT EXISTS "unpublish_job_id" uuid;
--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN IF NOT EXISTS "unpublish_job_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN IF NOT EXISTS "country_group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "content_title_words_idx";
--> statement-breakpoint
ALTER TABLE "content_items" DROP COLUMN IF EXISTS "title_words";
--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "title_words" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, title_search) || jsonb_to_tsvector('simple'::regconfig, tags, '["string"]'::jsonb)) STORED;
--> statement-breakpoint
CREATE INDEX "content_title_words_idx" ON "content_items" USING gin ("title_words");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "content_pending_schedule_idx" ON "content_items" USING btree ("site_id") WHERE "scheduled_at" IS NOT NULL OR "unpublish_at" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "country_groups" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "countries" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "country_groups_site_name_idx" ON "country_groups" USING btree ("site_id", lower("name"));
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "content_licences" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE cascade,
  "content_id" uuid NOT NULL REFERENCES "content_items"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "starts_at" timestamp with time zone NOT NULL,
  "ends_at" timestamp with time zone NOT NULL,
  "country_group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "content_licences_item_idx" ON "content_licences" USING btree ("site_id", "content_id", "starts_at");
