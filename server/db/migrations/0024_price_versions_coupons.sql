-- Issue 30 (Monetization): a plan's price is versioned. `plans.price_version` is the version new
-- subscriptions get (its amounts are `plans.prices`); each subscription keeps the version it started
-- on (`subscriptions.price_version`) until a move at its next renewal (`renewal_price_version`).
-- `plan_price_versions` keeps every version's amounts. Offers get a discount duration (once,
-- repeating for N months, forever).
ALTER TABLE "plans" ADD COLUMN "price_version" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "price_version" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "renewal_price_version" integer;
--> statement-breakpoint
CREATE TABLE "plan_price_versions" (
	"plan_id" uuid NOT NULL REFERENCES "plans"("id") ON DELETE CASCADE,
	"site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE CASCADE,
	"version" integer NOT NULL,
	"prices" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_price_versions_pk" PRIMARY KEY ("plan_id", "version")
);
--> statement-breakpoint
CREATE INDEX "subscriptions_plan_price_idx" ON "subscriptions" USING btree ("plan_id","price_version");
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "duration" text DEFAULT 'once' NOT NULL;
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "duration_months" integer;
