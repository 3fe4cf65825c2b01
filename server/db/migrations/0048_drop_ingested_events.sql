-- Issue 42: exactly-once ingestion no longer claims a row per event (JetStream's duplicate window for a
-- batch published again, the raw tables' keys for anything delivered again; docs/data-model.md "The
-- window"). Nothing has written ingested_events since, and the maintenance no longer prunes it: the
-- table goes, with its primary key, its foreign key to sites and ingested_events_received_idx.
DROP TABLE IF EXISTS "ingested_events";
