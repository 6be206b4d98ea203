// The project's destinations (spec §2 'Project tabs: Destinations'): FTP servers with an editable
// path, other projects; each can be switched off, removed, and added from a selector. Without
// canWrite everything is read-only (spec §6).
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import AddIcon from '@mui/icons-material/Add';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import {
  Button,
  Card,
  Grid,
  MenuItem,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type DestinationRef,
  type Project,
  type ProjectFtpServer,
  useDestinationMutations,
} from '../../api/projects.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table.tsx';
import { ItemLink } from '../../ui/item-link.tsx';
import { DestinationControls } from './destination-controls.tsx';

type Mutations = ReturnType<typeof useDestinationMutations>;

/** Picks one of the candidates and adds it (hidden without write access). */
function AddSelector({
  label,
  options,
  emptyText,
  onAdd,
  busy,
  testId,
}: {
  label: string;
  options: { id: number; name: string }[];
  emptyText: string;
  onAdd: (id: number) => void;
  busy: boolean;
  testId: string;
}) {
  const { t } = useTranslation('common');
  const [chosen, setChosen] = useState<number | ''>('');
  const available = options.some((option) => option.id === chosen) ? chosen : '';
  return (
    <Stack
      direction="row"
      spacing={1.5}
      sx={{ px: 2.5, py: 2, borderTop: 1, borderColor: 'divider', alignItems: 'flex-start' }}
    >
      <TextField
        select
        size="small"
        label={label}
        value={available}
        onChange={(event) => setChosen(Number(event.target.value))}
        disabled={options.length === 0 || busy}
        helperText={options.length === 0 ? emptyText : undefined}
        sx={{ maxWidth: 360 }}
        slotProps={{ htmlInput: { 'data-testid': `${testId}-select` } }}
        data-testid={`${testId}-field`}
      >
        {options.map((option) => (
          <MenuItem key={option.id} value={option.id} data-testid={`${testId}-option-${option.name}`}>
            {option.name}
          </MenuItem>
        ))}
      </TextField>
      <Button
        variant="contained"
        startIcon={<AddIcon />}
        disabled={available === '' || busy}
        onClick={() => {
          if (available === '') return;
          onAdd(available);
          setChosen('');
        }}
        data-testid={`${testId}-submit`}
        sx={{ flexShrink: 0, mt: '2px' }}
      >
        {t('actions.add')}
      </Button>
    </Stack>
  );
}

/** The path of one FTP destination: saved when the field is left or Enter is pressed. */
function PathField({
  server,
  disabled,
  mutations,
}: {
  server: ProjectFtpServer;
  disabled: boolean;
  mutations: Mutations;
}) {
  const { t } = useTranslation('projects');
  const { enqueueSnackbar } = useSnackbar();
  const stored = server.overridepath ?? '';
  const [value, setValue] = useState(stored);
  useEffect(() => setValue(stored), [stored]);
  const save = () => {
    if (value.trim() === stored) return;
    // Saved on leaving the field: the snackbar says so (issue 16 item 9).
    mutations.change.mutate(
      { ref: { kind: 'ftpserver', id: server.id }, change: { path: value } },
      {
        onSuccess: () =>
          enqueueSnackbar(t('destinations.pathSaved', { name: server.name }), { variant: 'success' }),
      },
    );
  };
  return (
    <TextField
      size="small"
      value={value}
      placeholder={server.defaultpath || '/'}
      onChange={(event) => setValue(event.target.value)}
      onBlur={save}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          (event.target as HTMLInputElement).blur();
        }
        if (event.key === 'Escape') setValue(stored);
      }}
      disabled={disabled}
      aria-label={t('destinations.path')}
      slotProps={{
        htmlInput: {
          maxLength: limits.ftpServerField,
          'data-testid': 'destination-path',
          style: {
            fontFamily: '"JetBrains Mono", "SFMono-Regular", Consolas, monospace',
            fontSize: '0.85rem',
          },
        },
      }}
      sx={{ minWidth: 180 }}
    />
  );
}

/**
 * One kind of destination in a card: its list (or a line saying there is none) and, with write
 * access, the selector that adds another. Every row ends with the switch and remove cells.
 */
function DestinationCard<Row extends { id: number; name: string; enabled: boolean }>({
  project,
  mutations,
  kind,
  icon,
  title,
  text,
  testId,
  rowTestId,
  emptyText,
  rows,
  columns,
  renderCells,
  add,
}: {
  project: Project;
  mutations: Mutations;
  kind: DestinationRef['kind'];
  icon: ReactNode;
  title: string;
  text: string;
  testId: string;
  rowTestId: string;
  emptyText: string;
  rows: readonly Row[];
  /** The columns before 'enabled' and the remove button. */
  columns: readonly DataTableColumn[];
  renderCells: (row: Row) => ReactNode;
  add: { label: string; options: { id: number; name: string }[]; emptyText: string; testId: string };
}) {
  const { t } = useTranslation('projects');
  const { canWrite } = project;
  const ref = (id: number): DestinationRef => ({ kind, id });
  return (
    <Card sx={{ height: '100%' }} data-testid={testId}>
      <CardHeading icon={icon} title={title} subtitle={text} />
      <DataTable
        size="small"
        rows={rows}
        rowKey={(row) => row.id}
        empty={
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ px: 2.5, py: 2 }}
            data-testid={`${testId}-empty`}
          >
            {emptyText}
          </Typography>
        }
        columns={[
          ...columns,
          { label: t('destinations.enabled'), align: 'center' },
          ...(canWrite ? [{ label: '', align: 'right', width: 48 } as const] : []),
        ]}
        renderRow={(row) => (
          <TableRow data-testid={`${rowTestId}-${row.name}`}>
            {renderCells(row)}
            <DestinationControls
              destination={row}
              destinationRef={ref(row.id)}
              canWrite={canWrite}
              mutations={mutations}
            />
          </TableRow>
        )}
      />
      {canWrite && (
        <AddSelector
          label={add.label}
          options={add.options}
          emptyText={add.emptyText}
          busy={mutations.add.isPending}
          onAdd={(id) => mutations.add.mutate(ref(id))}
          testId={add.testId}
        />
      )}
    </Card>
  );
}

export function DestinationsTab({ project, teamUuid }: { project: Project; teamUuid: string }) {
  const { t } = useTranslation('projects');
  const mutations = useDestinationMutations(teamUuid, project.id);
  return (
    <Grid container spacing={2.5}>
      <Grid size={{ xs: 12, xl: 7 }}>
        <DestinationCard
          project={project}
          mutations={mutations}
          kind="ftpserver"
          icon={<DnsOutlinedIcon color="primary" />}
          title={t('destinations.serversTitle')}
          text={t('destinations.serversText')}
          testId="destination-ftpservers"
          rowTestId="destination-server"
          emptyText={t('destinations.serversEmpty')}
          rows={project.ftpServers}
          columns={[{ label: t('destinations.server') }, { label: t('destinations.path') }]}
          renderCells={(server) => (
            <>
              <TableCell>
                {server.readable ? (
                  <ItemLink to={`/ftpserver?id=${server.id}`}>{server.name}</ItemLink>
                ) : (
                  <Typography variant="body2">{server.name}</Typography>
                )}
                {server.host && (
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {server.protocol.toUpperCase()} · {server.host}
                  </Typography>
                )}
              </TableCell>
              <TableCell>
                {project.canWrite ? (
                  <PathField server={server} disabled={false} mutations={mutations} />
                ) : (
                  <Typography
                    variant="body2"
                    sx={{ fontFamily: '"JetBrains Mono", "SFMono-Regular", Consolas, monospace' }}
                    data-testid="destination-path-text"
                  >
                    {server.path || '/'}
                  </Typography>
                )}
              </TableCell>
            </>
          )}
          add={{
            label: t('destinations.addServer'),
            options: project.otherFtpServers,
            emptyText: t('destinations.noOtherServers'),
            testId: 'add-ftpserver',
          }}
        />
      </Grid>
      <Grid size={{ xs: 12, xl: 5 }}>
        <DestinationCard
          project={project}
          mutations={mutations}
          kind="destinationproject"
          icon={<AccountTreeOutlinedIcon color="primary" />}
          title={t('destinations.projectsTitle')}
          text={t('destinations.projectsText')}
          testId="destination-projects"
          rowTestId="destination-project"
          emptyText={t('destinations.projectsEmpty')}
          rows={project.destinationProjects}
          columns={[{ label: t('destinations.project') }]}
          renderCells={(destination) => (
            <TableCell>
              {destination.readable ? (
                <ItemLink to={`/project/overview?id=${destination.id}`}>{destination.name}</ItemLink>
              ) : (
                <Typography variant="body2">{destination.name}</Typography>
              )}
            </TableCell>
          )}
          add={{
            label: t('destinations.addProject'),
            options: project.otherProjects,
            emptyText: t('destinations.noOtherProjects'),
            testId: 'add-project',
          }}
        />
      </Grid>
    </Grid>
  );
}
