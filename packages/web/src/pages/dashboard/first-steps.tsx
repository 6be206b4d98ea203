// Issue 16 item 1: an empty dashboard leads a new team through its first day: a project, the
// camera settings, a destination FTP server, and the first delivered picture. A member who may not
// set these up (a photographer) is told whom to ask instead (issue 27 item 6).
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { Box, Button, Card, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { type FolderNode, useFolderTree } from '../../api/folders.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { findNode } from '../../ui/tree/tree-rules.ts';

type Step = { key: 'project' | 'camera' | 'server' | 'picture'; done: boolean; to: string | null };

export function FirstSteps({ teamUuid }: { teamUuid: string }) {
  const { t } = useTranslation('dashboard');
  const team = useCurrentTeam();
  const tree = useFolderTree(teamUuid);
  const roots = tree.data ?? [];
  const root = (type: string) => roots.find((node) => node.isRoot && node.folderType === type);
  const first = (type: string) => findNode(roots, (node: FolderNode) => node.type === type);
  const projectsRoot = root('projects');
  const serversRoot = root('ftpservers');
  const project = first('project');
  const server = first('ftpserver');
  const steps: Step[] = [
    {
      key: 'project',
      done: project !== null,
      to: projectsRoot?.canWrite ? `/newproject?parentfolder=${projectsRoot.id}` : null,
    },
    { key: 'camera', done: false, to: project ? `/project/overview?id=${project.id}` : null },
    {
      key: 'server',
      done: server !== null,
      to: serversRoot?.canWrite ? `/newftpserver?parentfolder=${serversRoot.id}` : null,
    },
    { key: 'picture', done: false, to: project ? `/project/destinations?id=${project.id}` : null },
  ];
  const next = steps.find((step) => !step.done)?.key;
  if (tree.data && !projectsRoot?.canWrite && project === null)
    return (
      <Card sx={{ mb: 3 }} data-testid="member-start">
        <CardHeading title={t('memberStart.title')} subtitle={t('memberStart.text', { team: team.name })} />
        <Box sx={{ px: 2.5, pt: 2, pb: 2.5 }}>
          <Button
            variant="outlined"
            component={RouterLink}
            to="/calendar"
            data-testid="member-start-calendar"
          >
            {t('memberStart.calendar')}
          </Button>
        </Box>
      </Card>
    );
  return (
    <Card sx={{ mb: 3 }} data-testid="first-steps">
      <CardHeading title={t('firstSteps.title')} subtitle={t('firstSteps.text')} />
      <Stack component="ol" spacing={2} sx={{ listStyle: 'none', m: 0, px: 2.5, pb: 2.5 }}>
        {steps.map((step, index) => (
          <Stack
            component="li"
            key={step.key}
            direction="row"
            spacing={1.5}
            sx={{ alignItems: 'flex-start' }}
            data-testid={`first-step-${step.key}`}
            data-done={step.done}
          >
            {step.done ? (
              <CheckCircleIcon color="success" aria-label={t('firstSteps.done')} />
            ) : (
              <RadioButtonUncheckedIcon color={next === step.key ? 'primary' : 'disabled'} />
            )}
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="subtitle2">
                {index + 1}. {t(`firstSteps.${step.key}.title`)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t(`firstSteps.${step.key}.text`)}
              </Typography>
              {!step.to && !step.done && (
                <Typography variant="body2" color="text.secondary" data-testid={`first-step-${step.key}-ask`}>
                  {t('memberStart.stepAsk', { team: team.name })}
                </Typography>
              )}
            </Box>
            {step.to && !step.done && (
              <Button
                size="small"
                variant={next === step.key ? 'contained' : 'outlined'}
                component={RouterLink}
                to={step.to}
                data-testid={`first-step-${step.key}-action`}
              >
                {t(`firstSteps.${step.key}.action`)}
              </Button>
            )}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
