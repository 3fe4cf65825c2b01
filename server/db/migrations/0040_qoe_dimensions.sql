-- Issue 41: the dimensions every playback session carries (common/qoe.ts QOE_DIMENSIONS). The player
-- events of today's senders do not carry them: '' is "not reported". playback_sessions is
-- partitioned (0017): a column added to the parent is added to every partition.
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "os" text NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "os_version" text NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "browser" text NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "player_name" text NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "player_version" text NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "app_version" text NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "region" text NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "stream_type" text NOT NULL DEFAULT 'vod';
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "source_host" text NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN IF NOT EXISTS "series_id" uuid;
