// Forms on react-hook-form, validated by a zod schema built from the contract's (so browser and
// server check the same rules; spec §5). A field's problem shows once it was left or after a
// submit; `isValid` (for the submit button) follows every keystroke.
import { zodResolver } from '@hookform/resolvers/zod';
import { type DefaultValues, type FieldValues, type Path, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type ValidationError, validationMessages } from './validation.ts';

export function useSchemaForm<T extends FieldValues>(
  schema: z.ZodType<T, T>,
  defaultValues: DefaultValues<T>,
) {
  const { t: tv } = useTranslation('validation');
  const form = useForm<T>({
    // raw: the submit handler gets the values as typed (it trims what it sends itself).
    resolver: zodResolver(schema, { error: validationMessages }, { raw: true }),
    mode: 'all',
    defaultValues,
  });
  const { errors, touchedFields, isSubmitted } = form.formState;

  /** The registered input of a MUI TextField; `deps` are fields checked again when this one changes. */
  const input = (name: Path<T>, deps?: Path<T>[]) => {
    const { ref, ...registered } = form.register(name, deps ? { deps } : undefined);
    return { ...registered, inputRef: ref };
  };
  /** The input with its problem as the helper text (a blank line while there is none). */
  const field = (name: Path<T>, deps?: Path<T>[]) => {
    const touched = (touchedFields as Partial<Record<string, boolean>>)[name];
    const message = touched || isSubmitted ? errors[name]?.message : undefined;
    return {
      ...input(name, deps),
      error: Boolean(message),
      helperText: typeof message === 'string' ? tv(message as ValidationError) : ' ',
    };
  };
  return { form, input, field };
}
