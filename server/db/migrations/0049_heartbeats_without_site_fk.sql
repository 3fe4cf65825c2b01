-- Issue 42: player_heartbeats loses its foreign key to sites. Checking it cost a quarter of the
-- consumer's heartbeat insert (58-67 ms of each 10,000 rows; an index probe of sites per row), the
-- largest cost left in the write. A heartbeat's site is the site of the ingestion key that sent it,
-- set by the server, never by the player, and no site is ever deleted (nothing deletes from sites),
-- so the key enforced nothing the write does not already guarantee. The table's key (site, event id,
-- at) and the session index stay.
ALTER TABLE "player_heartbeats" DROP CONSTRAINT IF EXISTS "player_heartbeats_site_id_sites_id_fk";
