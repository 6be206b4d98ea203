// Form rules of spec §5 on top of the contract's schemas, so browser and server agree.
import { email as emailSchema, password as passwordSchema } from '@photorelay/contract/account';
import { limits } from '@photorelay/contract/limits';
import { inviteEmailPattern } from '@photorelay/contract/teams';

/** Keys under `validation.` in the i18n files. */
export type ValidationError =
  | 'required'
  | 'invalidEmail'
  | 'passwordTooShort'
  | 'passwordsNotEqual'
  | 'tooLong';

export function validateRequired(value: string, maxLength?: number): ValidationError | null {
  if (!value.trim()) return 'required';
  if (maxLength !== undefined && value.length > maxLength) return 'tooLong';
  return null;
}

export function validateEmail(value: string): ValidationError | null {
  if (!value.trim()) return 'required';
  return emailSchema.safeParse(value).success ? null : 'invalidEmail';
}

export function validatePassword(value: string): ValidationError | null {
  if (!value) return 'required';
  const result = passwordSchema.safeParse(value);
  if (result.success) return null;
  return value.length > limits.passwordMax ? 'tooLong' : 'passwordTooShort';
}

export function validateRepeat(password: string, repeat: string): ValidationError | null {
  if (!repeat) return 'required';
  return password === repeat ? null : 'passwordsNotEqual';
}

export const hasErrors = (errors: Record<string, ValidationError | null>) =>
  Object.values(errors).some((error) => error !== null);

/** Spec §5 invite dialog: an address with a top-level domain of 2 to 12 letters. */
export const isInviteEmail = (value: string) =>
  value.trim().length <= limits.emailField && inviteEmailPattern.test(value.trim());
