-- Issue 29 (Customer Support): refunds as their own rows on their own day, a payment's refunded
-- amount and version, a subscription's plan change at period end and its proration for the next
-- payment, and the indexes of the subscriber search by any word of the name and by phone tail.
ALTER TABLE "payments" ADD COLUMN "refunded_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL REFERENCES "sites"("id") ON DELETE cascade,
	"network_id" uuid NOT NULL REFERENCES "networks"("id") ON DELETE cascade,
	"subscriber_id" uuid NOT NULL REFERENCES "subscribers"("id") ON DELETE cascade,
	"payment_id" uuid NOT NULL REFERENCES "payments"("id") ON DELETE cascade,
	"plan_id" uuid,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"actor_user_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "payment_refunds_site_at_idx" ON "payment_refunds" USING btree ("site_id","at");--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "pending_plan_id" uuid REFERENCES "plans"("id");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "next_payment_adjustment" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "subscribers_name_words_idx" ON "subscribers" USING gin (to_tsvector('simple'::regconfig, "name"));--> statement-breakpoint
CREATE INDEX "subscribers_site_phone_tail_idx" ON "subscribers" USING btree ("site_id",right(regexp_replace("phone", '[^0-9]', '', 'g'), 4));
