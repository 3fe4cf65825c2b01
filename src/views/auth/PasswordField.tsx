/** A labelled password input with a show/hide toggle. */
import { useId, useState } from 'react';
import { field, input, label as labelStyle } from '../../theme/ui.css';
import * as css from './auth.css';

export interface PasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  name: string;
  describedBy?: string;
}

export function PasswordField({ label, value, onChange, autoComplete, name, describedBy }: PasswordFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className={field}>
      <label htmlFor={id} className={labelStyle}>{label}</label>
      <div className={css.passwordRow}>
        <input
          id={id} name={name} className={`${input} ${css.passwordInput}`} type={visible ? 'text' : 'password'}
          value={value} onChange={(e) => onChange(e.target.value)} autoComplete={autoComplete} aria-describedby={describedBy}
        />
        <button
          type="button" className={css.toggle} onClick={() => setVisible((v) => !v)}
          aria-pressed={visible} aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  );
}
