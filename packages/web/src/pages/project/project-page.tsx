// /project/{tab}?id (spec §2 'Project tabs'): overview, destinations, metadata, script, protocol.
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Box, Breadcrumbs, Chip, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useLocation, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { useFolderTree } from '../../api/folders.ts';
import { type Project, useProject } from '../../api/projects.ts';
import { NotFoundCard, PageContainer, PageHeader, PageSpinner } from '../../app/page.tsx';
import { useCurrentTeam } from '../../app/session.ts';
import { ancestorKeys, findNode } from '../../app/shell/tree-rules.ts';
import { DestinationsTab } from './destinations-tab.tsx';
import { MetadataTab } from './metadata-tab.tsx';
import { OverviewTab } from './overview-tab.tsx';
import { ProtocolTab } from './protocol-tab.tsx';
import { ScriptTab } from './script-tab.tsx';

export const projectTabs = ['overview', 'destinations', 'metadata', 'script', 'protocol'] as const;
export type ProjectTab = (typeof projectTabs)[number];
const isProjectTab = (value: string | undefined): value is ProjectTab =>
  (projectTabs as readonly string[]).includes(value ?? '');

/** Spec §2: /project redirects to /project/overview keeping the query. */
export function ProjectRedirect() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/project/overview', search }} replace />;
}

/** Projects / Sports / Football: where the project sits in the tree. */
function ProjectPath({ teamUuid, projectId }: { teamUuid: string; projectId: number }) {
  const { t } = useTranslation('shell');
  const tree = useFolderTree(teamUuid);
  const roots = tree.data ?? [];
  const keys = ancestorKeys(roots, (node) => node.key === `project-${projectId}`) ?? [];
  const folders = keys
    .map((key) => findNode(roots, (node) => node.key === key))
    .filter((node) => node !== null);
  if (folders.length === 0) return null;
  return (
    <Breadcrumbs sx={{ fontSize: '0.85rem' }} aria-label={t('drawer.tree')}>
      {folders.map((folder) => (
        <Typography
          key={folder.key}
          component={RouterLink}
          to={`/folder?id=${folder.id}`}
          variant="body2"
          color="text.secondary"
          sx={{ textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}
        >
          {folder.isRoot ? t(`tree.labels.${folder.type}`) : folder.name}
        </Typography>
      ))}
    </Breadcrumbs>
  );
}

function TabContent({ tab, project, teamUuid }: { tab: ProjectTab; project: Project; teamUuid: string }) {
  switch (tab) {
    case 'overview':
      return <OverviewTab project={project} teamUuid={teamUuid} />;
    case 'destinations':
      return <DestinationsTab project={project} teamUuid={teamUuid} />;
    case 'metadata':
      return <MetadataTab project={project} />;
    case 'script':
      return <ScriptTab project={project} teamUuid={teamUuid} />;
    case 'protocol':
      return <ProtocolTab project={project} teamUuid={teamUuid} />;
  }
}

export function ProjectPage() {
  const { t } = useTranslation('projects');
  const { tab } = useParams();
  const [params] = useSearchParams();
  const team = useCurrentTeam();
  const id = Number(params.get('id'));
  const validId = Number.isSafeInteger(id) && id > 0 ? id : 0;
  const project = useProject(team.teamid, validId);

  if (!isProjectTab(tab)) return <Navigate to={`/project/overview?id=${validId}`} replace />;
  if (validId && project.isPending) {
    return (
      <PageContainer maxWidth="xl">
        <PageSpinner />
      </PageContainer>
    );
  }
  if (!project.data || (project.error && isApiError(project.error, 'NotFound'))) {
    return (
      <PageContainer>
        <NotFoundCard testId="project-not-found" />
      </PageContainer>
    );
  }

  const data = project.data;
  return (
    <PageContainer maxWidth="xl">
      <PageHeader
        title={data.name}
        subtitle={
          <Stack
            direction="row"
            spacing={1.5}
            component="span"
            sx={{ alignItems: 'center', flexWrap: 'wrap' }}
          >
            <ProjectPath teamUuid={team.teamid} projectId={data.id} />
            {!data.canWrite && (
              <Chip
                component="span"
                size="small"
                variant="outlined"
                icon={<LockOutlinedIcon />}
                label={t('readOnly')}
                data-testid="project-read-only"
              />
            )}
          </Stack>
        }
        icon={<AccountTreeOutlinedIcon />}
      />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3, mt: -1 }}>
        <Tabs value={tab} variant="scrollable" scrollButtons="auto" aria-label={t('tabs.label')}>
          {projectTabs.map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(`tabs.${name}`)}
              component={RouterLink}
              to={`/project/${name}?id=${data.id}`}
              data-testid={`project-tab-${name}`}
              sx={{ minHeight: 48, px: 2.5 }}
            />
          ))}
        </Tabs>
      </Box>
      <TabContent key={data.id} tab={tab} project={data} teamUuid={team.teamid} />
    </PageContainer>
  );
}
