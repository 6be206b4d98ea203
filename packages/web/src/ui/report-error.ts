// Spec §8 'Global': an error field in any answer shows a global error text taken from the error
// (unless the caller handled it); a network failure shows 'FAILED'; an exception in a success
// handler shows its message.
import { enqueueSnackbar } from 'notistack';
import { ApiError, NetworkError } from '../api/client.ts';
import { CommandError } from '../api/commands.ts';
import i18n from '../i18n/i18n.ts';

export const isAbortError = (error: unknown) =>
  (error instanceof DOMException || error instanceof Error) && error.name === 'AbortError';

/** The text shown for an error, in the current language. */
export function describeError(error: unknown): string {
  if (error instanceof NetworkError) return i18n.t('errors:network');
  if (error instanceof ApiError) {
    return i18n.t(`errors:codes.${error.code}`, { defaultValue: error.serverMessage ?? error.code });
  }
  if (error instanceof CommandError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Errors the app already presents; everything else reaching window handlers is fatal. */
export const isPresentedError = (error: unknown) =>
  error instanceof ApiError ||
  error instanceof NetworkError ||
  error instanceof CommandError ||
  isAbortError(error);

export function createErrorReporter(onNotLoggedIn: () => void) {
  return (error: Error) => {
    if (isAbortError(error)) return;
    if (error instanceof ApiError && error.code === 'NotLoggedIn') onNotLoggedIn();
    enqueueSnackbar(describeError(error), { variant: 'error', preventDuplicate: true });
  };
}
