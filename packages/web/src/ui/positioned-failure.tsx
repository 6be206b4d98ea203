// 'Something went wrong:' with the position (line:column) and the message of a failed script or
// image upload (spec §8 "Image or script upload failure"), used by the script panel and the test
// image preview.
import { Alert } from '@mui/material';
import type { PositionedFailure } from './positioned-error.ts';

export function PositionedFailureAlert({
  label,
  failure,
  onClose,
  testId,
}: {
  label: string;
  failure: PositionedFailure;
  onClose: () => void;
  testId: string;
}) {
  return (
    <Alert severity="error" sx={{ mt: 1.5 }} onClose={onClose} data-testid={testId}>
      {label} {failure.position && <strong>{failure.position}</strong>} {failure.message}
    </Alert>
  );
}
