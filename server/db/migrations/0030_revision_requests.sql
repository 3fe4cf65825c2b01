-- Issue 37 (Undo and Restore of a creation): a revision says whether it created its object (the write
-- had no row before it). A creation has no earlier values to write back: its Restore and its Undo are
-- refused with a clear message, and the History panel does not offer them. Older revisions are marked
-- when they are their object's first and every change came from nothing (a subscriber's note is a
-- field added to an existing subscriber, not a creation).
ALTER TABLE "revisions" ADD COLUMN IF NOT EXISTS "creation" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "revisions" r SET "creation" = true
WHERE r."object_kind" <> 'subscriber'
  AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(r."changes") c WHERE c -> 'before' IS DISTINCT FROM 'null'::jsonb)
  AND NOT EXISTS (SELECT 1 FROM "revisions" o WHERE o."site_id" = r."site_id" AND o."object_kind" = r."object_kind" AND o."object_id" = r."object_id" AND o."seq" < r."seq");
