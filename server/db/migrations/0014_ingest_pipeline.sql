CREATE TABLE "dirty_rollup_slices" (
	"site_id" uuid NOT NULL,
	"day" date NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dirty_rollup_slices_site_id_day_pk" PRIMARY KEY("site_id","day")
);
--> statement-breakpoint
CREATE TABLE "ingest_session_starts" (
	"site_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ingest_session_starts_site_id_session_id_pk" PRIMARY KEY("site_id","session_id")
);
--> statement-breakpoint
ALTER TABLE "dirty_rollup_slices" ADD CONSTRAINT "dirty_rollup_slices_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_session_starts" ADD CONSTRAINT "ingest_session_starts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingest_session_starts_accepted_idx" ON "ingest_session_starts" USING btree ("accepted_at");--> statement-breakpoint
CREATE INDEX "ingested_events_received_idx" ON "ingested_events" USING btree ("received_at");