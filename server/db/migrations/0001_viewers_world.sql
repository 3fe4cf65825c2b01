CREATE TABLE "content_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"network_id" uuid,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"title_search" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"genre" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"duration_seconds" integer NOT NULL,
	"status" text NOT NULL,
	"scheduled_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"series_id" uuid,
	"season_number" integer,
	"episode_number" integer,
	"artwork_url" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupon_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"coupon_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"subscription_id" uuid,
	"redeemed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"offer_id" uuid NOT NULL,
	"code" text NOT NULL,
	"max_redemptions" integer,
	"max_per_subscriber" integer DEFAULT 1 NOT NULL,
	"expires_at" timestamp with time zone,
	"status" text DEFAULT 'active' NOT NULL,
	"batch_id" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_audience_rollups" (
	"site_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"day" date NOT NULL,
	"country" text NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_audience_rollups_site_id_network_id_day_country_pk" PRIMARY KEY("site_id","network_id","day","country")
);
--> statement-breakpoint
CREATE TABLE "daily_payment_rollups" (
	"site_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"day" date NOT NULL,
	"plan_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_payment_rollups_site_id_network_id_day_plan_id_currency_status_pk" PRIMARY KEY("site_id","network_id","day","plan_id","currency","status")
);
--> statement-breakpoint
CREATE TABLE "daily_playback_rollups" (
	"site_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"dim_key" text NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"viewers" integer DEFAULT 0 NOT NULL,
	"watched_seconds" bigint DEFAULT 0 NOT NULL,
	"startup_ms_sum" bigint DEFAULT 0 NOT NULL,
	"rebuffer_count" integer DEFAULT 0 NOT NULL,
	"rebuffer_seconds" bigint DEFAULT 0 NOT NULL,
	"error_sessions" integer DEFAULT 0 NOT NULL,
	"bitrate_kbps_sum" bigint DEFAULT 0 NOT NULL,
	"startup_histogram" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rebuffer_histogram" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "daily_playback_rollups_site_id_network_id_day_dimension_dim_key_pk" PRIMARY KEY("site_id","network_id","day","dimension","dim_key")
);
--> statement-breakpoint
CREATE TABLE "daily_subscription_rollups" (
	"site_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"day" date NOT NULL,
	"plan_id" uuid NOT NULL,
	"trials_started" integer DEFAULT 0 NOT NULL,
	"paid_started" integer DEFAULT 0 NOT NULL,
	"conversions" integer DEFAULT 0 NOT NULL,
	"cancellations" integer DEFAULT 0 NOT NULL,
	"expirations" integer DEFAULT 0 NOT NULL,
	"active_at_end" integer DEFAULT 0 NOT NULL,
	"trialing_at_end" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_subscription_rollups_site_id_network_id_day_plan_id_pk" PRIMARY KEY("site_id","network_id","day","plan_id")
);
--> statement-breakpoint
CREATE TABLE "ingested_events" (
	"site_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ingested_events_site_id_event_id_pk" PRIMARY KEY("site_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "ingestion_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "ingestion_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"name" text NOT NULL,
	"discount_type" text NOT NULL,
	"discount_value" integer NOT NULL,
	"currency" text,
	"plan_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"eligibility" text NOT NULL,
	"status" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"subscription_id" uuid,
	"plan_id" uuid,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"method" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_group_plans" (
	"group_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "plan_group_plans_group_id_plan_id_pk" PRIMARY KEY("group_id","plan_id")
);
--> statement-breakpoint
CREATE TABLE "plan_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"prices" jsonb NOT NULL,
	"billing_period" text NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"device_limit" integer DEFAULT 4 NOT NULL,
	"status" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "playback_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
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
	"error_code" text
);
--> statement-breakpoint
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
	CONSTRAINT "player_heartbeats_site_id_event_id_pk" PRIMARY KEY("site_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "subscriber_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"device_type" text NOT NULL,
	"os" text NOT NULL,
	"app_version" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_out_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscribers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"country" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"trial_ends_at" timestamp with time zone,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"cancelled_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"coupon_id" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"author_user_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_audience_rollups" ADD CONSTRAINT "daily_audience_rollups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_audience_rollups" ADD CONSTRAINT "daily_audience_rollups_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_payment_rollups" ADD CONSTRAINT "daily_payment_rollups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_payment_rollups" ADD CONSTRAINT "daily_payment_rollups_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_playback_rollups" ADD CONSTRAINT "daily_playback_rollups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_playback_rollups" ADD CONSTRAINT "daily_playback_rollups_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_subscription_rollups" ADD CONSTRAINT "daily_subscription_rollups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_subscription_rollups" ADD CONSTRAINT "daily_subscription_rollups_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingested_events" ADD CONSTRAINT "ingested_events_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingestion_keys" ADD CONSTRAINT "ingestion_keys_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_group_plans" ADD CONSTRAINT "plan_group_plans_group_id_plan_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."plan_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_group_plans" ADD CONSTRAINT "plan_group_plans_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_groups" ADD CONSTRAINT "plan_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_content_id_content_items_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_heartbeats" ADD CONSTRAINT "player_heartbeats_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriber_devices" ADD CONSTRAINT "subscriber_devices_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriber_devices" ADD CONSTRAINT "subscriber_devices_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscribers" ADD CONSTRAINT "subscribers_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_notes" ADD CONSTRAINT "support_notes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_notes" ADD CONSTRAINT "support_notes_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_notes" ADD CONSTRAINT "support_notes_author_user_id_staff_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_site_kind_updated_idx" ON "content_items" USING btree ("site_id","kind","updated_at");--> statement-breakpoint
CREATE INDEX "content_site_status_idx" ON "content_items" USING btree ("site_id","status");--> statement-breakpoint
CREATE INDEX "content_series_idx" ON "content_items" USING btree ("series_id");--> statement-breakpoint
CREATE INDEX "coupon_redemptions_coupon_idx" ON "coupon_redemptions" USING btree ("coupon_id");--> statement-breakpoint
CREATE INDEX "coupon_redemptions_subscriber_idx" ON "coupon_redemptions" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_site_code_uq" ON "coupons" USING btree ("site_id",lower("code"));--> statement-breakpoint
CREATE INDEX "coupons_offer_idx" ON "coupons" USING btree ("offer_id");--> statement-breakpoint
CREATE INDEX "daily_playback_site_dim_day_idx" ON "daily_playback_rollups" USING btree ("site_id","dimension","day");--> statement-breakpoint
CREATE INDEX "offers_site_status_idx" ON "offers" USING btree ("site_id","status");--> statement-breakpoint
CREATE INDEX "payments_site_at_idx" ON "payments" USING btree ("site_id","at");--> statement-breakpoint
CREATE INDEX "payments_subscriber_at_idx" ON "payments" USING btree ("subscriber_id","at");--> statement-breakpoint
CREATE INDEX "plan_groups_site_idx" ON "plan_groups" USING btree ("site_id","position");--> statement-breakpoint
CREATE INDEX "plans_site_status_idx" ON "plans" USING btree ("site_id","status");--> statement-breakpoint
CREATE INDEX "playback_site_started_idx" ON "playback_sessions" USING btree ("site_id","started_at");--> statement-breakpoint
CREATE INDEX "playback_subscriber_started_idx" ON "playback_sessions" USING btree ("subscriber_id","started_at");--> statement-breakpoint
CREATE INDEX "playback_content_started_idx" ON "playback_sessions" USING btree ("content_id","started_at");--> statement-breakpoint
CREATE INDEX "player_heartbeats_session_idx" ON "player_heartbeats" USING btree ("session_id","at");--> statement-breakpoint
CREATE INDEX "subscriber_devices_subscriber_idx" ON "subscriber_devices" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_site_email_uq" ON "subscribers" USING btree ("site_id",lower("email"));--> statement-breakpoint
CREATE INDEX "subscribers_site_created_idx" ON "subscribers" USING btree ("site_id","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_subscriber_idx" ON "subscriptions" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "subscriptions_site_status_idx" ON "subscriptions" USING btree ("site_id","status");--> statement-breakpoint
CREATE INDEX "subscriptions_site_started_idx" ON "subscriptions" USING btree ("site_id","started_at");--> statement-breakpoint
CREATE INDEX "subscriptions_plan_idx" ON "subscriptions" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "support_notes_subscriber_idx" ON "support_notes" USING btree ("subscriber_id","created_at");