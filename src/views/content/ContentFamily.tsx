/**
 * The item page's family (issue 29): a series lists its seasons and their episodes, each linked,
 * with "Add episode" for write roles; an episode links its series. Catalogue facts (rating, original
 * language, release date, a live event's start in the site's default time zone). The family shows its
 * members only: a series' own poster is shown once, in the page's Poster panel (ArtworkPanel, issue 38).
 */
import { Link } from '@tanstack/react-router';
import {
  CONTENT_CREATE_MESSAGES as M, CONTENT_LANGUAGES,
  type ContentFamilyResponse, type ContentItem,
} from '../../../common/content';
import { formatCalendarDay, formatDateTime } from '../../../common/display-format';
import { CONTENT_STATUS_WORDS } from '../../../common/status-words';
import { Thumbnail } from './ArtworkImage';
import * as css from './content.css';
import * as own from './create.css';

/** The facts a catalogue adds to the item page's list. */
export function catalogueFacts(item: ContentItem, timeZone: unknown): [string, string][] {
  const facts: [string, string][] = [
    ['Rating', item.rating === 'NR' ? 'Not rated' : item.rating],
    ['Original language', CONTENT_LANGUAGES[item.originalLanguage] ?? item.originalLanguage],
  ];
  if (item.releaseDate) facts.push(['Release date', formatCalendarDay(item.releaseDate)]);
  if (item.startsAt) facts.push(['Starts', formatDateTime(item.startsAt, timeZone)]);
  return facts;
}

export function ContentFamily({ item, family, writable }: { item: ContentItem; family: ContentFamilyResponse | undefined; writable: boolean }) {
  if (!family) return null;
  if (item.kind === 'episode') {
    return (
      <section className={`${css.section} ${own.familySection}`} aria-labelledby="family-title">
        <h2 id="family-title" className={css.sectionTitle}>Series</h2>
        {family.series
          ? <p>Episode {item.episodeNumber} of season {item.seasonNumber} of <Link to="/content/$contentType/$id" params={{ contentType: 'series', id: family.series.id }}>{family.series.title}</Link></p>
          : <p className={css.statLabel}>{M.seriesMissing}</p>}
      </section>
    );
  }
  if (item.kind !== 'series') return null;
  return (
    <section className={`${css.section} ${own.familySection}`} aria-labelledby="family-title">
      <h2 id="family-title" className={css.sectionTitle}>Seasons and episodes</h2>
      <div className={own.family}>
        {family.seasons.map((season) => {
          const episodes = family.episodes.filter((e) => e.seasonNumber === season.number);
          return (
            <section key={season.number} className={own.season} aria-label={season.title}>
              <div className={own.seasonHead}>
                <h3 style={{ margin: 0 }}>{season.title}</h3>
                {writable && (
                  <Link to="/content/new" search={{ kind: 'episode', series: item.id, season: season.number }}>Add episode</Link>
                )}
              </div>
              {episodes.length === 0 ? <p className={css.statLabel}>{M.noEpisodes}</p> : (
                <ol className={own.episodes}>
                  {episodes.map((e) => (
                    <li key={e.id} className={own.episode}>
                      <Thumbnail url={e.artworkUrl} title={e.title} />
                      <span className={own.nowrap}>{e.episodeNumber}.</span>
                      <Link to="/content/$contentType/$id" params={{ contentType: 'episode', id: e.id }}>{e.title}</Link>
                      <span className={`${css.statusBadge[e.status]} ${own.nowrap}`}>{CONTENT_STATUS_WORDS[e.status]}</span>
                    </li>
                  ))}
                </ol>
              )}
            </section>
          );
        })}
      </div>
    </section>
  );
}
