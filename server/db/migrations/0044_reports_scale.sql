-- Issue 41 (speed at scale; docs/analytics-engine.md): the per-title reads of the playback rollups
-- (video engagement, the content-level revenue split, the title picker) read a range of one site's
-- 'content' rows grouped by title. At 100x the demo data (about 1,900 titles, 54,000 rows in 30 days)
-- PostgreSQL read them from the heap and sorted them by title on disk: 230 ms. This index gives them in
-- title order with their sums (an index-only scan, no sort): 56-86 ms. Hand-written: Drizzle's schema
-- cannot express INCLUDE (schema.ts keeps declaring daily_playback_site_dim_key_day_idx, which stays).
-- The histograms are left out: with them the index outgrew the table (94 MB for 85 MB) and was not chosen.
CREATE INDEX IF NOT EXISTS "daily_playback_site_dim_key_day_cover_idx" ON "daily_playback_rollups" USING btree ("site_id", "dimension", "dim_key", "day")
  INCLUDE ("network_id", "sessions", "viewers", "watched_seconds", "startup_ms_sum", "rebuffer_count", "rebuffer_seconds", "error_sessions", "bitrate_kbps_sum");
