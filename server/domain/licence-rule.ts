/**
 * The licence rule of publishing (issue 29): an item without licences may be published at any time;
 * an item with licences only inside one of their windows (start inclusive, end exclusive). A refusal
 * names the licence that matters: the next one to start, else the last one that ended.
 */
import { AVAILABILITY_MESSAGES } from '../../common/content-availability';
import { formatDateTime } from '../../common/display-format';

export interface LicenceWindow { name: string; startsAt: Date; endsAt: Date }

export function licenceRefusal(licences: readonly LicenceWindow[], at: Date, timeZone: string): string | null {
  if (licences.length === 0) return null;
  const t = at.getTime();
  if (licences.some((l) => l.startsAt.getTime() <= t && t < l.endsAt.getTime())) return null;
  const upcoming = licences.filter((l) => l.startsAt.getTime() > t).sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())[0];
  const ended = [...licences].sort((a, b) => b.endsAt.getTime() - a.endsAt.getTime())[0]!;
  const named = upcoming ?? ended;
  return AVAILABILITY_MESSAGES.publishOutsideLicence(
    named.name, formatDateTime(named.startsAt.toISOString(), timeZone), formatDateTime(named.endsAt.toISOString(), timeZone),
  );
}
