/**
 * Create New's address (issue 29): `/content/new?kind=episode&series=<id>&season=2`, so the series
 * page's "Add episode" opens the form with its series and season chosen. The router validates them
 * with `validateCreateSearch`: an invalid value is dropped, so a bad link still opens the form.
 */
import { isContentKind, type ContentKind } from '../../../common/content';

export interface CreateSearch {
  kind?: ContentKind;
  /** The series of a new episode. */
  series?: string;
  season?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function validateCreateSearch(raw: Record<string, unknown>): CreateSearch {
  const search: CreateSearch = {};
  if (isContentKind(raw.kind)) search.kind = raw.kind;
  if (typeof raw.series === 'string' && UUID.test(raw.series)) search.series = raw.series.toLowerCase();
  const season = Number(raw.season);
  if (Number.isInteger(season) && season >= 1 && season <= 100) search.season = season;
  return search;
}
