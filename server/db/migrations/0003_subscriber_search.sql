CREATE INDEX "subscribers_site_email_prefix_idx" ON "subscribers" USING btree ("site_id",lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "subscribers_site_name_prefix_idx" ON "subscribers" USING btree ("site_id",lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "subscribers_site_phone_digits_idx" ON "subscribers" USING btree ("site_id",regexp_replace("phone", '[^0-9]', '', 'g') text_pattern_ops);--> statement-breakpoint
CREATE INDEX "subscribers_site_id_prefix_idx" ON "subscribers" USING btree ("site_id",("id"::text) text_pattern_ops);