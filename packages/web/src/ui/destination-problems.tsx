// Issue 28: a destination failing now is named once, as a banner with the pictures waiting for
// it and a button that retries them all, instead of the same error under every picture.
import ReplayOutlinedIcon from '@mui/icons-material/ReplayOutlined';
import { Alert, Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { DestinationProblem } from '../api/picture-log.ts';
import { FailureCauseLine, useCauseText } from './failure-cause.tsx';

export function DestinationProblems({
  problems,
  onRetry,
  retrying,
}: {
  problems: DestinationProblem[];
  /** Absent for members who may not change the project. */
  onRetry?: (problem: DestinationProblem) => void;
  retrying: boolean;
}) {
  const { t } = useTranslation('jobLog');
  const causeText = useCauseText();
  if (problems.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ px: { xs: 1, sm: 2 }, pb: 1.5 }}>
      {problems.map((problem) => {
        const sentence =
          problem.cause.code === 'loginRefused'
            ? t('banner.loginRefused', { destination: problem.name })
            : causeText(problem.cause);
        return (
          <Alert
            key={`${problem.projectid}-${problem.kind}-${problem.name}`}
            severity="error"
            data-testid="destination-problem"
            data-destination={problem.name}
            sx={{ '& .MuiAlert-message': { minWidth: 0 } }}
          >
            <FailureCauseLine
              cause={problem.cause}
              color="inherit"
              text={`${sentence} – ${t('banner.waiting', { count: problem.waiting })}`}
            />
            {onRetry && (
              // Under the sentence, not in the alert's action slot: a German label there
              // wrapped into five lines on a phone.
              <Button
                color="inherit"
                size="small"
                variant="outlined"
                startIcon={<ReplayOutlinedIcon />}
                onClick={() => onRetry(problem)}
                disabled={retrying}
                data-testid="destination-problem-retry"
                sx={{ mt: 0.75 }}
              >
                {t('banner.retry', { destination: problem.name })}
              </Button>
            )}
          </Alert>
        );
      })}
    </Stack>
  );
}
