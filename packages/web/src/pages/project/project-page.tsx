// /project/{tab}?id (spec §2 'Project tabs'): overview, destinations, metadata, script, protocol.
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Box, Chip, Stack, Tab, Tabs } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useLocation, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { type Project, useProject } from '../../api/projects.ts';
import { ItemPath } from '../../ui/item-path.tsx';
import { NotFoundCard, PageContainer, PageHeader, PageSpinner } from '../../ui/page.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import {
  prefetchMetadataTab,
  prefetchProjectTab,
  preloadAllProjectTabs,
  projectIdOf,
  projectTabScreens,
} from './prefetch.ts';

const {
  overview: OverviewTab,
  destinations: DestinationsTab,
  metadata: MetadataTab,
  script: ScriptTab,
  protocol: ProtocolTab,
} = projectTabScreens;

const tabPreloadDelayMs = 3000;

export const projectTabs = ['overview', 'destinations', 'metadata', 'script', 'protocol'] as const;
export type ProjectTab = (typeof projectTabs)[number];
const isProjectTab = (value: string | undefined): value is ProjectTab =>
  (projectTabs as readonly string[]).includes(value ?? '');

/** Spec §2: /project redirects to /project/overview keeping the query. */
export function ProjectRedirect() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/project/overview', search }} replace />;
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
  const validId = projectIdOf(params.get('id'));
  const project = useProject(team.teamid, validId);
  const queryClient = useQueryClient();
  // The metadata editor's code and data load beside the project, not after it (issue 16).
  useEffect(() => {
    if (tab === 'metadata' && validId) prefetchMetadataTab(queryClient, team.teamid, validId);
  }, [tab, validId, team.teamid, queryClient]);
  // The other tabs' code loads while the user reads the page (issue 28 item 8): a few seconds
  // after it shows and when the browser is idle, so the open tab's own code, data and first
  // paint come first (issue 16).
  const shownId = project.data?.id;
  useEffect(() => {
    if (!shownId) return;
    const preload = () => preloadAllProjectTabs(queryClient, team.teamid, shownId);
    let idle: number | undefined;
    const timer = setTimeout(() => {
      if (typeof window.requestIdleCallback === 'function')
        idle = window.requestIdleCallback(preload, { timeout: 2000 });
      else preload();
    }, tabPreloadDelayMs);
    return () => {
      clearTimeout(timer);
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, [shownId, queryClient, team.teamid]);

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
            <ItemPath teamUuid={team.teamid} nodeKey={`project-${data.id}`} />
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
        <Tabs
          value={tab}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label={t('tabs.label')}
        >
          {projectTabs.map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(`tabs.${name}`)}
              component={RouterLink}
              to={`/project/${name}?id=${data.id}`}
              data-testid={`project-tab-${name}`}
              // A tab's data is asked for as the pointer or the focus reaches it, before the click.
              onPointerEnter={() =>
                name !== tab && prefetchProjectTab(queryClient, team.teamid, data.id, name)
              }
              onFocus={() => name !== tab && prefetchProjectTab(queryClient, team.teamid, data.id, name)}
              sx={{ minHeight: 48, px: 2.5 }}
            />
          ))}
        </Tabs>
      </Box>
      <TabContent key={data.id} tab={tab} project={data} teamUuid={team.teamid} />
    </PageContainer>
  );
}
