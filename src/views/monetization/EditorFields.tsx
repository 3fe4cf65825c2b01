/**
 * Form fields bound to an editor machine: each reads its draft value and its field message from the
 * snapshot and sends `editor.change`. A required field has a red asterisk; a number input has a
 * minimum of 0 and no spin buttons (spec §5); a message shows beside its field.
 */
import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { selectDraft, selectFieldErrors, type EditorValue } from '../../../machines/editor.machine';
import * as ui from '../../theme/ui.css';
import * as css from './monetization.css';
import type { EditorRef } from './page-refs';

interface FieldProps {
  editor: EditorRef;
  field: string;
  label: string;
  required?: boolean;
  disabled: boolean;
}

function useField(editor: EditorRef, field: string) {
  const value = useSelector(editor, (s) => selectDraft(s)[field]);
  const error = useSelector(editor, (s) => selectFieldErrors(s)[field]);
  const change = (next: EditorValue) => editor.send({ type: 'editor.change', field, value: next });
  return { value, error, change };
}

export function FieldFrame({ id, label, required, error, children }: { id: string; label: string; required?: boolean; error?: string; children: ReactNode }) {
  return (
    <div className={ui.field}>
      <label className={ui.label} htmlFor={id}>
        {label}{required && <span className={css.required} aria-hidden>*</span>}
      </label>
      {children}
      {error && <p className={css.fieldError} id={`${id}-error`} role="alert">{error}</p>}
    </div>
  );
}

const fieldId = (field: string) => `mon-${field.replace(/\W/g, '-')}`;

export function TextField({ editor, field, label, required, disabled, multiline, type = 'text' }: FieldProps & { multiline?: boolean; type?: 'text' | 'datetime-local' }) {
  const { value, error, change } = useField(editor, field);
  const id = fieldId(field);
  const common = {
    id, disabled, required, value: typeof value === 'string' ? value : '', className: ui.input,
    'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined,
  };
  return (
    <FieldFrame id={id} label={label} required={required} error={error}>
      {multiline
        ? <textarea {...common} rows={3} onChange={(e) => change(e.target.value)} />
        : <input {...common} type={type} onChange={(e) => change(e.target.value)} />}
    </FieldFrame>
  );
}

export function NumberField({ editor, field, label, required, disabled, step = '1' }: FieldProps & { step?: string }) {
  const { value, error, change } = useField(editor, field);
  const id = fieldId(field);
  return (
    <FieldFrame id={id} label={label} required={required} error={error}>
      <input
        id={id} type="number" min={0} step={step} inputMode="decimal" className={`${ui.input} ${css.number}`} disabled={disabled} required={required}
        value={typeof value === 'string' ? value : ''} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => change(e.target.value)}
      />
    </FieldFrame>
  );
}

export function SelectField({ editor, field, label, required, disabled, options }: FieldProps & { options: readonly { value: string; label: string }[] }) {
  const { value, error, change } = useField(editor, field);
  const id = fieldId(field);
  return (
    <FieldFrame id={id} label={label} required={required} error={error}>
      <select id={id} className={ui.input} disabled={disabled} required={required} value={typeof value === 'string' ? value : ''}
        aria-invalid={error ? true : undefined} onChange={(e) => change(e.target.value)}>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </FieldFrame>
  );
}

export function CheckboxField({ editor, field, label, disabled }: Omit<FieldProps, 'required'>) {
  const { value, change } = useField(editor, field);
  return (
    <label className={css.checkRow}>
      <input type="checkbox" checked={value === true} disabled={disabled} onChange={(e) => change(e.target.checked)} /> {label}
    </label>
  );
}

/** A set of choices kept as a list of values (models, the plans of an offer). */
export function ChoiceList({ editor, field, label, required, disabled, options }: FieldProps & { options: readonly { value: string; label: string }[] }) {
  const { value, error, change } = useField(editor, field);
  const chosen = Array.isArray(value) ? value : [];
  const id = fieldId(field);
  return (
    <fieldset className={ui.field} id={id} aria-describedby={error ? `${id}-error` : undefined} style={{ border: 0, padding: 0 }}>
      <legend className={ui.label}>{label}{required && <span className={css.required} aria-hidden>*</span>}</legend>
      {options.map((o) => (
        <label key={o.value} className={css.checkRow}>
          <input type="checkbox" disabled={disabled} checked={chosen.includes(o.value)}
            onChange={(e) => change(e.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value))} /> {o.label}
        </label>
      ))}
      {options.length === 0 && <p className={css.muted}>Nothing to choose from yet.</p>}
      {error && <p className={css.fieldError} id={`${id}-error`} role="alert">{error}</p>}
    </fieldset>
  );
}

function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/**
 * An ordered list of chosen values (the plans of a group, in paywall order): add from the rest,
 * reorder by dragging, by the Up / Down buttons, or with Alt+Arrow keys on an item; remove.
 */
export function OrderedList({ editor, field, label, disabled, options }: Omit<FieldProps, 'required'> & { options: readonly { value: string; label: string }[] }) {
  const { value, error, change } = useField(editor, field);
  const [dragging, setDragging] = useState<number | null>(null);
  const order = Array.isArray(value) ? value : [];
  const name = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  const rest = options.filter((o) => !order.includes(o.value));
  const id = fieldId(field);
  const move = (from: number, to: number) => { if (to >= 0 && to < order.length) change(moved(order, from, to)); };
  return (
    <div className={ui.field}>
      <span className={ui.label} id={`${id}-label`}>{label}</span>
      <ol className={css.orderList} aria-labelledby={`${id}-label`}>
        {order.map((v, i) => (
          <li
            key={v} className={css.orderItem} draggable={!disabled} tabIndex={disabled ? -1 : 0} aria-label={`${i + 1}. ${name(v)}`}
            onDragStart={() => setDragging(i)} onDragOver={(e) => e.preventDefault()}
            onDrop={() => { if (dragging !== null) move(dragging, i); setDragging(null); }}
            onKeyDown={(e) => {
              if (disabled || !e.altKey) return;
              if (e.key === 'ArrowUp') { e.preventDefault(); move(i, i - 1); }
              if (e.key === 'ArrowDown') { e.preventDefault(); move(i, i + 1); }
            }}
          >
            <span className={css.grow}>{i + 1}. {name(v)}</span>
            {!disabled && (
              <>
                <button type="button" className={ui.button.ghost} aria-label={`Move ${name(v)} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>↑</button>
                <button type="button" className={ui.button.ghost} aria-label={`Move ${name(v)} down`} disabled={i === order.length - 1} onClick={() => move(i, i + 1)}>↓</button>
                <button type="button" className={ui.button.ghost} aria-label={`Remove ${name(v)}`} onClick={() => change(order.filter((x) => x !== v))}>✕</button>
              </>
            )}
          </li>
        ))}
      </ol>
      {order.length === 0 && <p className={css.muted}>No plans in this group yet.</p>}
      {!disabled && rest.length > 0 && (
        <select className={ui.input} aria-label="Add a plan" value="" onChange={(e) => e.target.value && change([...order, e.target.value])}>
          <option value="">Add a plan…</option>
          {rest.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      )}
      {!disabled && order.length > 1 && <p className={css.muted}>Drag a plan, use its arrows, or focus it and press Alt+↑ / Alt+↓.</p>}
      {error && <p className={css.fieldError} role="alert">{error}</p>}
    </div>
  );
}
