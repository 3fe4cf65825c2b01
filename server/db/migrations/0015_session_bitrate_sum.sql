ALTER TABLE "playback_sessions" ADD COLUMN "heartbeat_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD COLUMN "bitrate_kbps_sum" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Room in every page for a session's next version: a consumer updates each open session once per
-- group of batches, and none of the updated columns is indexed, so the update stays on its page
-- (a HOT update) instead of adding an entry to each of the table's four indexes (issue 31).
ALTER TABLE "playback_sessions" SET (fillfactor = 70);
