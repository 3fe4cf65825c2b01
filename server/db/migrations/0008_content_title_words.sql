DROP INDEX "content_title_words_idx";--> statement-breakpoint
ALTER TABLE "content_items" ADD COLUMN "title_words" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, title_search)) STORED;--> statement-breakpoint
CREATE INDEX "content_title_words_idx" ON "content_items" USING gin ("title_words");