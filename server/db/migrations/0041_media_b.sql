-- Issue 40 (video), second part: the poster's chosen time (seconds into the video; null: the
-- encoder's default, a tenth of the duration up to 10 s).
ALTER TABLE "media_assets" ADD COLUMN IF NOT EXISTS "poster_seconds" double precision;
