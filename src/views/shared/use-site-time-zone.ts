/**
 * The site's time zone for the dates a view writes (common/display-format.ts, issue 30): the signed-in
 * site's `defaultTimezone` from the auth actor's session (the same value the adapters keep in the
 * `defaultTimezone` cookie), a zone the browser knows, else 'UTC'. Formatting only; no flow.
 */
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { knownTimeZone } from '../../../common/zoned-time';
import { formatDate, formatDateTime } from '../../../common/display-format';
import { selectSession } from '../../../machines/auth.machine';
import { useAppActor } from '../../app-actor';

export function useSiteTimeZone(): string {
  const auth = useAppActor('auth');
  return useSelector(auth, (s) => knownTimeZone(selectSession(s)?.profile?.defaultTimezone));
}

export interface DisplayDates {
  zone: string;
  /** "25 Nov 2026" in the site's zone. */
  date: (iso: string | null | undefined) => string;
  /** "25 Nov 2026, 14:05 (Europe/London)". */
  dateTime: (iso: string | null | undefined) => string;
}

/** The console's date format bound to the site's zone, for views that write many dates. */
export function useDisplayDates(): DisplayDates {
  const zone = useSiteTimeZone();
  return useMemo(() => ({
    zone,
    date: (iso) => formatDate(iso, zone),
    dateTime: (iso) => formatDateTime(iso, zone),
  }), [zone]);
}
