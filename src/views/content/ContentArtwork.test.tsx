import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentArtwork, initialsOf, titleLines } from './ContentArtwork';

describe('ContentArtwork', () => {
  afterEach(cleanup);

  it('draws a poster from the title and genre when there is no artwork URL: no image request at all', () => {
    const { container } = render(<ContentArtwork title="The Lighthouse Keeper of the North Sea" genre="Drama" artworkUrl="" />);
    const poster = screen.getByRole('img', { name: 'Artwork of The Lighthouse Keeper of the North Sea' });
    expect(poster.tagName.toLowerCase()).toBe('svg');
    expect(container.querySelector('img')).toBeNull();
    expect([...poster.querySelectorAll('text')].map((t) => t.textContent)).toEqual(['TL', 'The Lighthouse', 'Keeper of the', 'North Sea', 'Drama']);
  });

  it('draws the same poster every time, and one genre keeps its colours', () => {
    const stops = (title: string, genre: string) => {
      const { container, unmount } = render(<ContentArtwork title={title} genre={genre} artworkUrl="" />);
      const colours = [...container.querySelectorAll('stop')].map((s) => s.getAttribute('stop-color'));
      const markup = container.innerHTML;
      unmount();
      return { colours, markup };
    };
    expect(stops('Storm Chasers', 'Sports')).toEqual(stops('Storm Chasers', 'Sports'));
    expect(stops('Storm Chasers', 'Sports').colours).toEqual(stops('Match of the Day', 'Sports').colours);
  });

  it('shows the artwork URL when there is one', () => {
    render(<ContentArtwork title="Storm Chasers" genre="Sports" artworkUrl="/art/storm.jpg" />);
    expect(screen.getByRole('img', { name: 'Artwork of Storm Chasers' }).getAttribute('src')).toBe('/art/storm.jpg');
  });

  it('falls back to the drawn poster when the artwork URL does not load', () => {
    render(<ContentArtwork title="Storm Chasers" genre="Sports" artworkUrl="https://images.example.test/storm.jpg" />);
    fireEvent.error(screen.getByRole('img', { name: 'Artwork of Storm Chasers' }));
    expect(screen.getByRole('img', { name: 'Artwork of Storm Chasers' }).tagName.toLowerCase()).toBe('svg');
  });

  it('keeps long titles to three lines and takes initials from words with letters', () => {
    expect(titleLines('One two three four five six seven eight nine ten eleven twelve')).toHaveLength(3);
    expect(titleLines('One two three four five six seven eight nine ten eleven twelve').at(-1)).toMatch(/…$/);
    expect(initialsOf('– Été indien')).toBe('ÉI');
  });
});
