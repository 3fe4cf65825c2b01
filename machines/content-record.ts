/**
 * A content item as the editor machine holds it, and back: the editable fields as the detail form
 * shows them (a `datetime-local` text for the schedule, tags as one comma-separated text), and the
 * PATCH body of the changed fields. Pure: the Content wiring file (src/adapters/content-actors.ts) and
 * the view tests use the same mapping.
 */
import { CONTENT_STATUSES, type ContentDetailResponse, type ContentFamilyResponse, type ContentUpdateRequest } from '../common/content';
import { isOneOf } from '../common/one-of';
import { isoInTimeZone, zonedWallTimeToIso } from '../common/zoned-time';
import type { EditorRecord, EditorValues } from './editor.machine';

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as the value of a `datetime-local` input, in the browser's time zone. */
export function isoToLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (local time) as an ISO instant; '' is no date. Unparseable text goes as is (the server names it). */
export function localInputToIso(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

export function tagsFromText(text: string): string[] {
  return [...new Set(text.split(',').map((tag) => tag.trim()).filter(Boolean))];
}

/** What the item page holds: the detail answer and, for a series or an episode, its family (issue 29). */
/** `notice`: what the last save did besides the fields sent (issue 37: a manual status change cancelled a pending unpublish). */
export type ContentDetailData = ContentDetailResponse & { family?: ContentFamilyResponse; notice?: string };

/** An ISO instant as a `datetime-local` value in `timeZone` (the site's default zone, issue 29); '' for none. */
export function isoToZonedInput(iso: string | null, timeZone: string): string {
  return iso ? isoInTimeZone(iso, timeZone).replace(' ', 'T') : '';
}

/** A `datetime-local` value in `timeZone` as an ISO instant; '' is no date, unparseable text goes as is. */
export function zonedInputToIso(value: string, timeZone: string): string | null {
  if (!value) return null;
  return zonedWallTimeToIso(value, timeZone) ?? value;
}

/**
 * The editor record of a content item: the editable fields as the form shows them, and the whole
 * answer as data. With `timeZone` (the site's default zone) "Goes live at" is that zone's wall time,
 * else the browser's.
 */
export function contentRecordOf(detail: ContentDetailData, timeZone?: string): EditorRecord {
  const { item } = detail;
  return {
    values: {
      title: item.title,
      description: item.description,
      genre: item.genre,
      tags: item.tags.join(', '),
      status: item.status,
      scheduledAt: timeZone ? isoToZonedInput(item.scheduledAt, timeZone) : isoToLocalInput(item.scheduledAt),
      rating: item.rating,
      originalLanguage: item.originalLanguage,
      // A day without a time (a date input's value); '' for none.
      releaseDate: item.releaseDate ?? '',
    },
    version: item.version,
    data: detail,
  };
}

/** The PATCH body for the changed form fields. */
export function contentUpdateOf(version: number, changes: EditorValues, timeZone?: string): ContentUpdateRequest {
  const body: ContentUpdateRequest = { version };
  if (typeof changes.title === 'string') body.title = changes.title;
  if (typeof changes.description === 'string') body.description = changes.description;
  if (typeof changes.genre === 'string') body.genre = changes.genre;
  if (typeof changes.tags === 'string') body.tags = tagsFromText(changes.tags);
  // The form's status select offers the statuses only; anything else is not a status to send.
  if (isOneOf(CONTENT_STATUSES, changes.status)) body.status = changes.status;
  if (typeof changes.scheduledAt === 'string') body.scheduledAt = timeZone ? zonedInputToIso(changes.scheduledAt, timeZone) : localInputToIso(changes.scheduledAt);
  if (typeof changes.rating === 'string') body.rating = changes.rating;
  if (typeof changes.originalLanguage === 'string') body.originalLanguage = changes.originalLanguage;
  if (typeof changes.releaseDate === 'string') body.releaseDate = changes.releaseDate === '' ? null : changes.releaseDate;
  return body;
}
