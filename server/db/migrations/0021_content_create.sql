ALTER TABLE "content_items" ADD COLUMN "rating" text DEFAULT 'NR' NOT NULL;--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "original_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "release_date" date;--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "poster_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "seasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "content_episode_number_idx" ON "content_items" USING btree ("series_id","season_number","episode_number") WHERE "series_id" IS NOT NULL AND "episode_number" IS NOT NULL;
