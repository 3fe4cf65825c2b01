import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { PasswordField } from './PasswordField';

function Field() {
  const [value, setValue] = useState('');
  return <PasswordField label="New Password" name="newPassword" value={value} onChange={setValue} autoComplete="new-password" />;
}

describe('PasswordField', () => {
  it('hides the password until Show is pressed, and hides it again', async () => {
    const view = await renderView(<Field />);
    const input = screen.getByLabelText('New Password') as HTMLInputElement;
    await view.user.type(input, 'S3cret!');
    expect(input.type).toBe('password');
    expect(input.value).toBe('S3cret!');
    await view.user.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(input.type).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide new password' }).getAttribute('aria-pressed')).toBe('true');
    await view.user.click(screen.getByRole('button', { name: 'Hide new password' }));
    expect(input.type).toBe('password');
  });
});
