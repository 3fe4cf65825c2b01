-- Issue 40 (video): the site's media assets (tus upload → ffprobe → pg-boss encode → HLS ladder),
-- their captions, and the video attached to a content item.
CREATE TABLE IF NOT EXISTS "media_assets" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
  "title" text NOT NULL,
  "status" text DEFAULT 'waiting' NOT NULL,
  "error_message" text,
  "last_error" text,
  "source" text DEFAULT 'upload' NOT NULL,
  "external_url" text,
  "filename" text DEFAULT '' NOT NULL,
  "filetype" text DEFAULT '' NOT NULL,
  "upload_size" bigint,
  "uploaded_bytes" bigint DEFAULT 0 NOT NULL,
  "duration_seconds" double precision,
  "width" integer,
  "height" integer,
  "probe" jsonb,
  "encrypted" boolean DEFAULT false NOT NULL,
  "encryption_key" text,
  "policy" text DEFAULT 'signed' NOT NULL,
  "ladder" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "attempt" integer DEFAULT 0 NOT NULL,
  "live_attempt" integer,
  "done_rungs" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "poster_ready" boolean DEFAULT false NOT NULL,
  "storyboard_ready" boolean DEFAULT false NOT NULL,
  "lease_until" timestamp with time zone,
  "content_item_hint" uuid,
  "created_by" uuid,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "media_assets_site_created_idx" ON "media_assets" ("site_id", "created_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "media_assets_encoding_idx" ON "media_assets" ("status", "lease_until") WHERE "status" IN ('preparing', 'viewable');
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "media_captions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
  "asset_id" uuid NOT NULL REFERENCES "media_assets"("id") ON DELETE CASCADE,
  "language" text NOT NULL,
  "label" text NOT NULL,
  "vtt" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "media_captions_asset_language_idx" ON "media_captions" ("asset_id", "language");
--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN IF NOT EXISTS "media_asset_id" uuid REFERENCES "media_assets"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "content_media_asset_idx" ON "content_items" ("media_asset_id") WHERE "media_asset_id" IS NOT NULL;
