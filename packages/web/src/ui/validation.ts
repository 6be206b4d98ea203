// Form rules of spec §5: the contract's schemas (the server checks the same), with their issues
// mapped to the texts under `validation.` in the i18n files. Forms use them through
// use-schema-form.ts (react-hook-form); single checks through the validate* functions.
import { email, password, personName } from '@photorelay/contract/account';
import { limits } from '@photorelay/contract/limits';
import { inviteEmailPattern } from '@photorelay/contract/teams';
import { z } from 'zod';

/** Keys under `validation.` in the i18n files. */
export type ValidationError =
  | 'required'
  | 'invalidEmail'
  | 'passwordTooShort'
  | 'passwordsNotEqual'
  | 'tooLong';

/**
 * The contract's schemas carry no texts: an empty value is 'required' (every rule here starts with
 * min(1)), a longer minimum only exists for passwords, too long is 'tooLong', a format (the e-mail
 * pattern) 'invalidEmail'. Texts given in a schema (passwordsNotEqual) win over this map.
 */
export const validationMessages: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'too_small') return issue.minimum === 1 ? 'required' : 'passwordTooShort';
  if (issue.code === 'too_big') return 'tooLong';
  if (issue.code === 'invalid_format') return 'invalidEmail';
  return undefined;
};

/** A text that must not be blank, of at most `max` characters. */
export const requiredText = (max: number) => z.string().trim().min(1).max(max);
export const nameField = personName;
export const emailField = z.string().trim().min(1).pipe(email);
export const passwordField = z.string().min(1).pipe(password);
export const repeatField = z.string().min(1);

/** The repeated password must equal the password (checked even while the password has a problem). */
export const passwordsEqual = (values: { password: string; repeat: string }) =>
  values.password === values.repeat;
export const passwordsEqualRule = {
  path: ['repeat'],
  message: 'passwordsNotEqual' satisfies ValidationError,
  when: () => true,
};

function problemOf(schema: z.ZodType, value: unknown): ValidationError | null {
  const result = schema.safeParse(value, { error: validationMessages });
  return result.success ? null : ((result.error.issues[0]?.message ?? 'required') as ValidationError);
}

export const validateRequired = (value: string, maxLength?: number) =>
  problemOf(maxLength === undefined ? z.string().trim().min(1) : requiredText(maxLength), value);
export const validateEmail = (value: string) => problemOf(emailField, value);
export const validatePassword = (value: string) => problemOf(passwordField, value);
export function validateRepeat(passwordValue: string, repeat: string): ValidationError | null {
  return problemOf(repeatField, repeat) ?? (passwordValue === repeat ? null : 'passwordsNotEqual');
}

export const hasErrors = (errors: Record<string, ValidationError | null>) =>
  Object.values(errors).some((error) => error !== null);

/** Spec §5 invite dialog: an address with a top-level domain of 2 to 12 letters. */
export const isInviteEmail = (value: string) =>
  value.trim().length <= limits.emailField && inviteEmailPattern.test(value.trim());
