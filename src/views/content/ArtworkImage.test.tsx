import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ArtworkImage, Thumbnail } from './ArtworkImage';

const STORED = `/v2.0/appcms/files/${'a'.repeat(64)}.png`;

describe('ArtworkImage', () => {
  afterEach(cleanup);

  it('shows artwork this console stored as an image', () => {
    render(<ArtworkImage url={STORED} alt="Poster of Storm Chasers" className="img" boxClassName="box" width={120} height={180} />);
    const img = screen.getByRole('img', { name: 'Poster of Storm Chasers' });
    expect(img.tagName.toLowerCase()).toBe('img');
    expect(img.getAttribute('src')).toBe(STORED);
  });

  it('never requests an address the console did not store: a neutral box says there is none', () => {
    const { container } = render(<ArtworkImage url="https://img.example.invalid/x.png" alt="Poster of Storm Chasers" className="img" boxClassName="box" width={120} height={180} />);
    expect(container.querySelector('img')).toBeNull();
    const box = screen.getByRole('img', { name: 'Poster of Storm Chasers: no artwork' });
    expect(box.textContent).toBe('No artwork');
    expect(box.getAttribute('style')).toContain('width: 120px');
  });

  it('turns into the box when the stored image fails to load', () => {
    const { container } = render(<Thumbnail url={STORED} title="Storm Chasers" />);
    fireEvent.error(screen.getByRole('img', { name: 'Thumbnail of Storm Chasers' }));
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'Thumbnail of Storm Chasers: no artwork' }).textContent).toBe('No artwork');
  });
});
