-- Issue 31: raw history partitioned by UTC day (PostgreSQL declarative partitioning; PGlite, which is
-- PostgreSQL too, runs the same statements). Hand-written: Drizzle cannot express partitions (its
-- snapshot, 0017_snapshot.json, records the keys and the retention table only).
--
-- playback_sessions by RANGE (started_at), player_heartbeats by RANGE (at): one partition per UTC
-- day (<table>_pYYYYMMDD, [day 00:00 UTC, next day 00:00 UTC)) and a DEFAULT partition, so an insert
-- never fails for a missing day (server/db/raw-history.ts creates the days events arrive for before
-- the insert, moves rows the default partition took into their day, and drops days older than
-- INGEST_RETENTION_DAYS). A partitioned table's keys must contain the partition column:
-- (site_id, id, started_at) and (site_id, event_id, at). Existing rows move into their days.
CREATE TABLE "raw_history_retention" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"kept_from" date NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "raw_history_retention_one_row" CHECK ("id")
);
--> statement-breakpoint
-- Creates the partitions of one UTC day in both tables (if missing), moving the rows the default
-- partition holds for that day into them. Serialized by an advisory lock (any number of consumers,
-- fold workers and instances call it). A new day is built beside the table and ATTACHed, which takes
-- a SHARE UPDATE EXCLUSIVE lock on the parent (writes go on), not CREATE ... PARTITION OF's ACCESS
-- EXCLUSIVE. Returns the partitions it created.
CREATE FUNCTION "raw_history_ensure_day"(d date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	suffix text := to_char(d, 'YYYYMMDD');
	lo text := to_char(d, 'YYYY-MM-DD') || ' 00:00:00+00';
	hi text := to_char(d + 1, 'YYYY-MM-DD') || ' 00:00:00+00';
	created integer := 0;
	has_rows boolean;
	t record;
BEGIN
	FOR t IN SELECT * FROM (VALUES
		('playback_sessions', 'started_at', ' WITH (fillfactor = 70)'),
		('player_heartbeats', 'at', '')) AS v(parent, col, opts)
	LOOP
		IF to_regclass(format('public.%I', t.parent || '_p' || suffix)) IS NOT NULL THEN CONTINUE; END IF;
		PERFORM pg_advisory_xact_lock(hashtext('raw-history-partitions'));
		-- Looked up again by a query (a fresh snapshot) and not by to_regclass: the name cache may
		-- not yet know of a table another caller created while this one waited for the lock.
		IF EXISTS (SELECT 1 FROM pg_class WHERE relname = t.parent || '_p' || suffix AND relnamespace = 'public'::regnamespace) THEN CONTINUE; END IF;
		EXECUTE format('CREATE TABLE public.%I (LIKE public.%I INCLUDING DEFAULTS)%s', t.parent || '_p' || suffix, t.parent, t.opts);
		EXECUTE format('SELECT EXISTS (SELECT 1 FROM public.%I WHERE %I >= %L::timestamptz AND %I < %L::timestamptz)',
			t.parent || '_default', t.col, lo, t.col, hi) INTO has_rows;
		IF has_rows THEN
			EXECUTE format('WITH moved AS (DELETE FROM public.%I WHERE %I >= %L::timestamptz AND %I < %L::timestamptz RETURNING *) INSERT INTO public.%I SELECT * FROM moved',
				t.parent || '_default', t.col, lo, t.col, hi, t.parent || '_p' || suffix);
		END IF;
		EXECUTE format('ALTER TABLE public.%I ATTACH PARTITION public.%I FOR VALUES FROM (%L) TO (%L)', t.parent, t.parent || '_p' || suffix, lo, hi);
		created := created + 1;
	END LOOP;
	RETURN created;
END $$;
--> statement-breakpoint
ALTER TABLE "playback_sessions" RENAME TO "playback_sessions_unpartitioned";--> statement-breakpoint
ALTER TABLE "playback_sessions_unpartitioned" RENAME CONSTRAINT "playback_sessions_site_id_id_pk" TO "playback_sessions_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "playback_site_started_idx" RENAME TO "playback_site_started_unpartitioned_idx";--> statement-breakpoint
ALTER INDEX "playback_subscriber_started_idx" RENAME TO "playback_subscriber_started_unpartitioned_idx";--> statement-breakpoint
ALTER INDEX "playback_content_started_idx" RENAME TO "playback_content_started_unpartitioned_idx";--> statement-breakpoint
ALTER TABLE "playback_sessions_unpartitioned" DROP CONSTRAINT "playback_sessions_site_id_sites_id_fk";--> statement-breakpoint
ALTER TABLE "playback_sessions_unpartitioned" DROP CONSTRAINT "playback_sessions_network_id_networks_id_fk";--> statement-breakpoint
ALTER TABLE "playback_sessions_unpartitioned" DROP CONSTRAINT "playback_sessions_subscriber_id_subscribers_id_fk";--> statement-breakpoint
ALTER TABLE "playback_sessions_unpartitioned" DROP CONSTRAINT "playback_sessions_content_id_content_items_id_fk";--> statement-breakpoint
CREATE TABLE "playback_sessions" (
	"id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"device_id" uuid,
	"device_type" text NOT NULL,
	"country" text NOT NULL,
	"isp" text NOT NULL,
	"cdn" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_event_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"watched_seconds" integer DEFAULT 0 NOT NULL,
	"startup_ms" integer DEFAULT 0 NOT NULL,
	"rebuffer_count" integer DEFAULT 0 NOT NULL,
	"rebuffer_seconds" integer DEFAULT 0 NOT NULL,
	"avg_bitrate_kbps" integer DEFAULT 0 NOT NULL,
	"heartbeat_count" integer DEFAULT 0 NOT NULL,
	"bitrate_kbps_sum" bigint DEFAULT 0 NOT NULL,
	"error_code" text,
	"plan_id" uuid,
	CONSTRAINT "playback_sessions_site_id_id_started_at_pk" PRIMARY KEY("site_id","id","started_at")
) PARTITION BY RANGE ("started_at");
--> statement-breakpoint
-- fillfactor is a partition's setting (a partitioned table stores nothing): every day gets 70 (0015).
CREATE TABLE "playback_sessions_default" PARTITION OF "playback_sessions" DEFAULT WITH (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_content_id_content_items_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "playback_site_started_idx" ON "playback_sessions" USING btree ("site_id","started_at");--> statement-breakpoint
CREATE INDEX "playback_subscriber_started_idx" ON "playback_sessions" USING btree ("subscriber_id","started_at");--> statement-breakpoint
CREATE INDEX "playback_content_started_idx" ON "playback_sessions" USING btree ("content_id","started_at");--> statement-breakpoint
ALTER TABLE "player_heartbeats" RENAME TO "player_heartbeats_unpartitioned";--> statement-breakpoint
ALTER TABLE "player_heartbeats_unpartitioned" RENAME CONSTRAINT "player_heartbeats_site_id_event_id_pk" TO "player_heartbeats_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "player_heartbeats_session_idx" RENAME TO "player_heartbeats_session_unpartitioned_idx";--> statement-breakpoint
ALTER TABLE "player_heartbeats_unpartitioned" DROP CONSTRAINT "player_heartbeats_site_id_sites_id_fk";--> statement-breakpoint
CREATE TABLE "player_heartbeats" (
	"site_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"session_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"playhead_seconds" integer NOT NULL,
	"watched_seconds" integer NOT NULL,
	"bitrate_kbps" integer NOT NULL,
	"rebuffer_count" integer DEFAULT 0 NOT NULL,
	"rebuffer_ms" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "player_heartbeats_site_id_event_id_at_pk" PRIMARY KEY("site_id","event_id","at")
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE TABLE "player_heartbeats_default" PARTITION OF "player_heartbeats" DEFAULT;--> statement-breakpoint
ALTER TABLE "player_heartbeats" ADD CONSTRAINT "player_heartbeats_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "player_heartbeats_session_idx" ON "player_heartbeats" USING btree ("session_id","at");--> statement-breakpoint
-- The days the existing rows are on, then the rows.
SELECT "raw_history_ensure_day"(d) FROM (
	SELECT ("started_at" AT TIME ZONE 'UTC')::date AS d FROM "playback_sessions_unpartitioned"
	UNION SELECT ("at" AT TIME ZONE 'UTC')::date FROM "player_heartbeats_unpartitioned") days;--> statement-breakpoint
INSERT INTO "playback_sessions" SELECT "id", "site_id", "network_id", "subscriber_id", "content_id", "device_id", "device_type", "country", "isp", "cdn",
	"started_at", "last_event_at", "ended_at", "watched_seconds", "startup_ms", "rebuffer_count", "rebuffer_seconds", "avg_bitrate_kbps",
	"heartbeat_count", "bitrate_kbps_sum", "error_code", "plan_id" FROM "playback_sessions_unpartitioned";--> statement-breakpoint
DROP TABLE "playback_sessions_unpartitioned";--> statement-breakpoint
INSERT INTO "player_heartbeats" SELECT "site_id", "event_id", "session_id", "at", "playhead_seconds", "watched_seconds", "bitrate_kbps",
	"rebuffer_count", "rebuffer_ms" FROM "player_heartbeats_unpartitioned";--> statement-breakpoint
DROP TABLE "player_heartbeats_unpartitioned";
