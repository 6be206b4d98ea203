// Minimal form state: values, which fields were touched, and per-field validation errors.
import { type ChangeEvent, useState } from 'react';
import type { ValidationError } from './validation.ts';

export function useFormFields<K extends string>(initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});

  const bind = (name: K) => ({
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
    onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
  });

  /** Shows an error only once the field was left (or after a submit attempt). */
  const shown = (name: K, error: ValidationError | null) => (touched[name] ? error : null);
  const touchAll = () =>
    setTouched(Object.fromEntries(Object.keys(values).map((key) => [key, true])) as Record<K, boolean>);

  return { values, setValues, bind, shown, touchAll };
}
