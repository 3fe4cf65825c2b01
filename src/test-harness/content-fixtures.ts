/** Wire-shaped content fixtures for the content views' tests. */
import type { Roles } from '../../common/contract';
import type { ContentDetailResponse, ContentSummary } from '../../common/content';
import type { Session } from '../../machines/auth.types';
import { siteProfile } from '../../machines/test-harness/fixtures';

export function signedInAs(roles: Roles): Session {
  return {
    accessToken: 'token-1', apiKey: 'key-1', site: 'viewlift-demo', username: 'content@demo.test', roles,
    accessFlags: { adminAccess: false, contentAccess: true, subOfferAccess: false, custAccess: false },
    encodingEnabled: true, profile: siteProfile({ roles }),
  };
}

export function contentRow(n: number, over: Partial<ContentSummary> = {}): ContentSummary {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    kind: 'video', title: `Harbour Lights ${n}`, status: 'published', durationSeconds: 3725, plays30d: 1200 + n,
    updatedAt: '2026-03-04T10:20:00.000Z', version: 1, artworkUrl: '', ...over,
  };
}

export function contentDetail(over: Partial<ContentDetailResponse['item']> = {}): ContentDetailResponse {
  const playsByDay = Array.from({ length: 30 }, (_, i) => ({ day: `2026-03-${String(i + 1).padStart(2, '0')}`, plays: i % 7 }));
  return {
    success: true,
    item: {
      ...contentRow(1), description: 'A lighthouse keeper and the last ferry of the season.', genre: 'Drama', tags: ['coast', 'family'],
      scheduledAt: null, publishedAt: '2026-01-02T08:00:00.000Z', artworkUrl: '', seriesId: null, seasonNumber: null,
      posterUrl: '', rating: 'PG-13', originalLanguage: 'en', releaseDate: '2025-11-20', startsAt: null, seasons: [],
      episodeNumber: null, createdAt: '2026-01-01T08:00:00.000Z', plays30d: 90, ...over,
    },
    playsByDay,
    qos: {
      sessions: 90, avgStartupMs: 1234, rebufferRatio: 0.012, errorRate: 0.02, avgBitrateKbps: 4200,
      startupHistogram: [10, 40, 30, 8, 2, 0], rebufferHistogram: [50, 30, 6, 3, 1, 0],
    },
  };
}
