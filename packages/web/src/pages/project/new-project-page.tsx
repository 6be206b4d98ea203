// /newproject?parentfolder (spec §2, §5): name a new project; it then opens on its overview.
import CreateNewFolderOutlinedIcon from '@mui/icons-material/CreateNewFolderOutlined';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useFolderTree } from '../../api/folders.ts';
import { useCreateProject } from '../../api/projects.ts';
import { PageContainer, PageHeader } from '../../ui/page.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { useNodeLabel } from '../../ui/tree/node-label.ts';
import { findNode } from '../../ui/tree/tree-rules.ts';
import { projectNameProblem } from './project-name.ts';

export function NewProjectPage() {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation('common');
  const labelOf = useNodeLabel();
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const team = useCurrentTeam();
  const [params] = useSearchParams();
  const tree = useFolderTree(team.teamid);
  const create = useCreateProject(team.teamid);
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);

  const requested = Number(params.get('parentfolder'));
  const roots = tree.data ?? [];
  // Without a folder in the address the project goes to the top of the projects tree.
  const parent =
    findNode(roots, (node) => node.folderType === 'projects' && node.id === requested) ??
    roots.find((node) => node.type === 'projects' && node.isRoot) ??
    null;
  const parentId = parent?.id ?? (Number.isSafeInteger(requested) && requested > 0 ? requested : 0);
  const problem = projectNameProblem(name);
  const shownProblem = touched ? problem : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || !parentId) return;
    create.mutate(
      { name: name.trim(), parentFolderId: parentId },
      {
        onSuccess: ({ projectId }) => {
          enqueueSnackbar(t('created', { name: name.trim() }), { variant: 'success' });
          navigate(`/project/overview?id=${projectId}`);
        },
      },
    );
  };

  return (
    <PageContainer maxWidth="md">
      <PageHeader title={t('newTitle')} subtitle={t('newSubtitle')} icon={<CreateNewFolderOutlinedIcon />} />
      <Card>
        <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
          <Box component="form" onSubmit={submit} noValidate data-testid="new-project-form">
            {parent && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 3 }}>
                <Typography variant="body2" color="text.secondary">
                  {t('newIn')}
                </Typography>
                <Chip
                  size="small"
                  icon={<FolderOutlinedIcon />}
                  label={labelOf(parent)}
                  data-testid="new-project-parent"
                />
              </Stack>
            )}
            <TextField
              autoFocus
              required
              label={t('name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              onBlur={() => setTouched(true)}
              error={Boolean(shownProblem)}
              helperText={shownProblem ? t(shownProblem) : t('nameHint', { max: limits.projectName })}
              slotProps={{ htmlInput: { maxLength: limits.projectName, 'data-testid': 'new-project-name' } }}
            />
            <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', mt: 3 }}>
              <Button onClick={() => navigate(-1)} disabled={create.isPending}>
                {tc('actions.cancel')}
              </Button>
              <Button
                type="submit"
                variant="contained"
                disabled={create.isPending || !parentId}
                startIcon={create.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
                data-testid="new-project-submit"
              >
                {t('createButton')}
              </Button>
            </Stack>
          </Box>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
