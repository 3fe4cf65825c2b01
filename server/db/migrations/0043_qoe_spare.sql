-- Issue 41 (qoe-query): one view's page (GET /appcms/v2/qoe/views/:sessionId) finds a session by its id
-- alone (the key is (site_id, id, started_at) and the day partitions are by started_at): without this
-- index every partition of the site's sessions is read. Created on the partitioned parent, so every
-- day partition gets its own.
CREATE INDEX IF NOT EXISTS "playback_sessions_id_idx" ON "playback_sessions" ("id");
