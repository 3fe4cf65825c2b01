-- Support search by a word of the name (issue 29): the GIN index now holds the name's words with the
-- characters PostgreSQL's text parser reads as part of a number, version, host, path or e-mail made
-- blanks first (server/db/schema.ts subscriberNameWords), as the query's words are split. Before,
-- 'Pager-123456' held the signed number '-123456', so a search for '123456' did not find it.
DROP INDEX IF EXISTS "subscribers_name_words_idx";
--> statement-breakpoint
CREATE INDEX "subscribers_name_words_idx" ON "subscribers" USING gin (to_tsvector('simple'::regconfig, translate("name", '-+./@:_', '       ')));
