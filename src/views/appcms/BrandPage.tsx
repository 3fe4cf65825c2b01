/** AppCMS Brand (spec §2.7): the current network's logo, icon and themes, read-only. */
import { useState } from 'react';
import type { ThemeColors } from '../../../common/contract';
import { NetworkDataPage } from './NetworkDataPage';
import * as css from './appcms.css';

const THEMES = [
  { key: 'theme', title: 'Theme' },
  { key: 'themeOtt', title: 'OTT theme' },
  { key: 'themeApps', title: 'Apps theme' },
] as const;

const COLOR_LABELS: Record<keyof Omit<ThemeColors, 'fontFamily'>, string> = {
  primaryColor: 'Primary',
  secondaryColor: 'Secondary',
  backgroundColor: 'Background',
  textColor: 'Text',
};

function isTheme(value: unknown): value is ThemeColors {
  return typeof value === 'object' && value !== null && 'primaryColor' in value;
}

/** One brand image with its URL; a placeholder instead of the browser's broken-image icon when it does not load. */
function BrandImage({ label, url }: { label: string; url: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <figure className={css.figure} data-testid={`brand-${label.toLowerCase()}`}>
      {failed
        ? <span className={css.imagePlaceholder} role="img" aria-label={`${label} (not available)`}>No preview</span>
        : <img className={css.image} src={url} alt={label} onError={() => setFailed(true)} />}
      <figcaption className={css.figureCaption}>
        <strong>{label}</strong>
        <a className={css.url} href={url} target="_blank" rel="noreferrer" title={url}>{url}</a>
      </figcaption>
    </figure>
  );
}

function ThemeCard({ title, testId, theme }: { title: string; testId: string; theme: ThemeColors }) {
  return (
    <section className={css.card} data-testid={testId}>
      <h2 className={css.cardTitle}>{title}</h2>
      {(Object.keys(COLOR_LABELS) as (keyof typeof COLOR_LABELS)[]).map((key) => (
        <div key={key} className={css.swatchRow}>
          <span className={css.swatch} style={{ background: theme[key] }} aria-hidden />
          <span>{COLOR_LABELS[key]}</span>
          <code data-testid={`${testId}-${key}`}>{theme[key]}</code>
        </div>
      ))}
      <div className={css.swatchRow}>Font: {theme.fontFamily}</div>
    </section>
  );
}

export function BrandPage() {
  return (
    <NetworkDataPage title="Brand" kind="brand">
      {(data) => (
        <div className={css.grid}>
          <section className={css.card}>
            <h2 className={css.cardTitle}>Logo and icons</h2>
            <div className={css.images}>
              {typeof data.logoUrl === 'string' && <BrandImage key={data.logoUrl} label="Logo" url={data.logoUrl} />}
              {typeof data.iconUrl === 'string' && <BrandImage key={data.iconUrl} label="Icon" url={data.iconUrl} />}
            </div>
          </section>
          {THEMES.map(({ key, title }) => {
            const theme = data[key];
            return isTheme(theme) ? <ThemeCard key={key} title={title} testId={`brand-${key}`} theme={theme} /> : null;
          })}
        </div>
      )}
    </NetworkDataPage>
  );
}
