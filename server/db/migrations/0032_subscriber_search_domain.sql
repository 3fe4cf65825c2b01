-- Support search by the e-mail's domain and by a whole word of the e-mail (issue 38):
-- "example.org" or "@example.org" finds every address at example.org or one of its subdomains through
-- the reversed address ('gro.elpmaxe@…' LIKE 'gro.elpmaxe@%' or 'gro.elpmaxe.%'), and "lopez40" or
-- "example" finds 'maria.lopez40@example.org' through the GIN index over the address's words
-- (server/db/schema.ts subscriberEmailWords). The domain is shown by the mask; a word matches only whole.
CREATE INDEX IF NOT EXISTS "subscribers_site_email_reversed_idx" ON "subscribers" USING btree ("site_id", reverse(lower("email")) text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscribers_email_words_idx" ON "subscribers" USING gin (to_tsvector('simple'::regconfig, translate(lower("email"), '-+./@:_', '       ')));
