-- Issue 37: uploaded files belong to the site that uploaded them. The file store is shared by content
-- hash, so a site could reference (and see served under its pages) another site's file by its hash.
-- upload_files records which site holds which stored file; an upload records its site, a reference in
-- a write must name a file of the writer's site, and GET /v2.0/appcms/files/<site id>/<key> serves only
-- that site's files. Existing data keeps working: every file a site references today (brand images,
-- network images, content artwork) or uploaded (its audit rows) is backfilled as that site's, marked
-- legacy: those keep being served at their old unscoped address /v2.0/appcms/files/<key>.
CREATE TABLE IF NOT EXISTS "upload_files" (
	"site_id" uuid NOT NULL,
	"key" text NOT NULL,
	"legacy" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_files_site_id_key_pk" PRIMARY KEY("site_id","key"),
	CONSTRAINT "upload_files_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "upload_files_key_idx" ON "upload_files" USING btree ("key");
--> statement-breakpoint
INSERT INTO "upload_files" ("site_id", "key", "legacy")
SELECT DISTINCT n."site_id", substring(u.url from '[0-9a-f]{64}\.(?:png|webp|svg)$'), true
FROM "network_brands" b
JOIN "networks" n ON n."id" = b."network_id"
CROSS JOIN LATERAL (VALUES (b."logo_url"), (b."icon_url")) AS u(url)
WHERE u.url ~ '^/v2\.0/appcms/files/[0-9a-f]{64}\.(png|webp|svg)$'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "upload_files" ("site_id", "key", "legacy")
SELECT DISTINCT n."site_id", substring(n."image" from '[0-9a-f]{64}\.(?:png|webp|svg)$'), true
FROM "networks" n
WHERE n."image" ~ '^/v2\.0/appcms/files/[0-9a-f]{64}\.(png|webp|svg)$'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "upload_files" ("site_id", "key", "legacy")
SELECT DISTINCT c."site_id", substring(u.url from '[0-9a-f]{64}\.(?:png|webp|svg)$'), true
FROM "content_items" c
CROSS JOIN LATERAL (VALUES (c."poster_url"), (c."artwork_url")) AS u(url)
WHERE u.url ~ '^/v2\.0/appcms/files/[0-9a-f]{64}\.(png|webp|svg)$'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "upload_files" ("site_id", "key", "legacy")
SELECT DISTINCT a."site_id", a."detail" ->> 'key', true
FROM "audit_events" a
JOIN "sites" s ON s."id" = a."site_id"
WHERE a."action" IN ('appcms.upload', 'content.artwork_upload')
  AND a."detail" ->> 'key' ~ '^[0-9a-f]{64}\.(png|webp|svg)$'
ON CONFLICT DO NOTHING;
