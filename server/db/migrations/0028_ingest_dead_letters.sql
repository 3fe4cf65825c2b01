-- Issue 37: accepted player events a consumer could not place (a heartbeat or end whose session's
-- start can no longer arrive, a start whose subscriber is gone, a message that is not a batch) are
-- kept here with their reason and payload, one row per event (site, event id: a redelivery records
-- nothing twice), never dropped.
CREATE TABLE "ingest_dead_letters" (
	"site_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"reason" text NOT NULL,
	"detail" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ingest_dead_letters_site_id_event_id_pk" PRIMARY KEY("site_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "ingest_dead_letters" ADD CONSTRAINT "ingest_dead_letters_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "ingest_dead_letters_site_reason_idx" ON "ingest_dead_letters" USING btree ("site_id","reason","created_at");
