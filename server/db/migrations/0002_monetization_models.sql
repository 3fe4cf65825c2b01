ALTER TABLE "sites" ADD COLUMN "monetization_models" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "monetization_version" integer DEFAULT 1 NOT NULL;