// The text of an error on the metadata tab: the server's own message where it gave one (it names
// the property and the rule), else the app's text for the error.
import { isApiError } from '../../../api/client.ts';
import { describeError } from '../../../ui/report-error.ts';

export function errorText(error: unknown): string {
  if (isApiError(error) && error.serverMessage && error.status < 500) return error.serverMessage;
  return describeError(error);
}
