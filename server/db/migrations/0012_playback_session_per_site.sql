-- Playback session ids are the players' own and are scoped per site (issue 25): another site's
-- session with the same id must look exactly like a free id, so the key is (site_id, id).
ALTER TABLE "playback_sessions" DROP CONSTRAINT "playback_sessions_pkey";--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_site_id_id_pk" PRIMARY KEY("site_id","id");
