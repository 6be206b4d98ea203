// /welcome and /userprofile (spec §2): edit first and last name; list of the user's teams.
import BadgeOutlinedIcon from '@mui/icons-material/BadgeOutlined';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import WavingHandOutlinedIcon from '@mui/icons-material/WavingHandOutlined';
import {
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Grid,
  List,
  ListItem,
  ListItemAvatar,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { type FormEvent, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSwitchTeam, useUpdateProfile } from '../../api/account.ts';
import { supportedLanguages } from '../../i18n/i18n.ts';
import { CalendarFeedCard } from '../../ui/calendar-feed-card.tsx';
import { PageContainer, PageHeader } from '../../ui/page.tsx';
import { type LoggedInSession, useSession } from '../../ui/session.ts';
import { useFormFields } from '../../ui/use-form-fields.ts';
import { useLanguage } from '../../ui/use-language.ts';
import { hasErrors, validateRequired } from '../../ui/validation.ts';

function DetailsCard({ session }: { session: LoggedInSession }) {
  const { t } = useTranslation('profile');
  const { t: tv } = useTranslation('validation');
  const { t: tShell } = useTranslation('shell');
  const { enqueueSnackbar } = useSnackbar();
  const update = useUpdateProfile();
  const { language, setLanguage } = useLanguage();
  const { user } = session;
  const form = useFormFields({ firstName: user.firstName, lastName: user.lastName });
  const { setValues } = form;

  // Follow the stored profile when it changes elsewhere (e.g. after saving).
  useEffect(() => {
    setValues({ firstName: user.firstName, lastName: user.lastName });
  }, [user.firstName, user.lastName, setValues]);

  const errors = {
    firstName: validateRequired(form.values.firstName, limits.nameField),
    lastName: validateRequired(form.values.lastName, limits.nameField),
  };
  const changed =
    form.values.firstName.trim() !== user.firstName || form.values.lastName.trim() !== user.lastName;
  const invalid = hasErrors(errors);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.touchAll();
    if (invalid) return;
    update.mutate(
      { firstName: form.values.firstName.trim(), lastName: form.values.lastName.trim() },
      { onSuccess: () => enqueueSnackbar(t('saved'), { variant: 'success' }) },
    );
  };

  const fieldProps = (name: keyof typeof errors) => {
    const error = form.shown(name, errors[name]);
    return { ...form.bind(name), error: Boolean(error), helperText: error ? tv(error) : ' ' };
  };

  return (
    <Card>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 3 }}>
          <Avatar
            sx={{ width: 56, height: 56, bgcolor: 'primary.main', fontSize: '1.3rem', fontWeight: 600 }}
          >
            {user.initials || '?'}
          </Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h6" component="h2" noWrap data-testid="profile-fullname">
              {user.fullName}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {user.email}
            </Typography>
          </Box>
        </Stack>
        <Box component="form" onSubmit={submit} noValidate data-testid="profile-form">
          <Grid container columnSpacing={2} rowSpacing={0.5}>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                label={t('fields.firstName')}
                required
                autoComplete="given-name"
                {...fieldProps('firstName')}
                slotProps={{ htmlInput: { maxLength: limits.nameField, 'data-testid': 'profile-firstName' } }}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                label={t('fields.lastName')}
                required
                autoComplete="family-name"
                {...fieldProps('lastName')}
                slotProps={{ htmlInput: { maxLength: limits.nameField, 'data-testid': 'profile-lastName' } }}
              />
            </Grid>
            <Grid size={12}>
              <TextField
                label={t('fields.email')}
                value={user.email}
                disabled
                helperText={t('emailHint')}
                // A hint to read, not a disabled control: the disabled grey fails contrast (axe).
                slotProps={{
                  htmlInput: { readOnly: true },
                  formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } },
                }}
              />
            </Grid>
            <Grid size={12}>
              <TextField
                select
                label={t('fields.language')}
                value={language}
                onChange={(event) => setLanguage(event.target.value === 'de' ? 'de' : 'en')}
                helperText={t('languageHint')}
                slotProps={{ htmlInput: { 'data-testid': 'profile-language' } }}
              >
                {supportedLanguages.map((lng) => (
                  <MenuItem key={lng} value={lng} data-testid={`profile-language-${lng}`}>
                    {tShell(`language.${lng}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
          </Grid>
          <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 2.5 }}>
            <Button
              type="submit"
              variant="contained"
              startIcon={<SaveOutlinedIcon />}
              disabled={invalid || !changed || update.isPending}
              data-testid="profile-save"
            >
              {t('save')}
            </Button>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}

function TeamsCard({ session }: { session: LoggedInSession }) {
  const { t } = useTranslation('profile');
  const { enqueueSnackbar } = useSnackbar();
  const switchTeam = useSwitchTeam();
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <Typography variant="h6" component="h2">
          {t('teams.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('teams.subtitle', { count: session.teams.length })}
        </Typography>
        <List disablePadding data-testid="profile-teams">
          {session.teams.map((team) => {
            const current = team.teamid === session.currentTeam?.teamid;
            return (
              <ListItem
                key={team.teamid}
                disableGutters
                divider
                secondaryAction={
                  current ? (
                    <Chip size="small" color="primary" label={t('teams.current')} />
                  ) : team.ready ? (
                    <Button
                      size="small"
                      disabled={switchTeam.isPending}
                      onClick={() =>
                        switchTeam.mutate(team.teamid, {
                          onSuccess: () =>
                            enqueueSnackbar(t('teams.switched', { team: team.name }), { variant: 'success' }),
                        })
                      }
                    >
                      {t('teams.switch')}
                    </Button>
                  ) : (
                    <Chip size="small" label={t('teams.notReady')} />
                  )
                }
              >
                <ListItemAvatar sx={{ minWidth: 48 }}>
                  <Avatar
                    sx={{ width: 34, height: 34, bgcolor: 'rgba(31,79,179,0.08)', color: 'primary.main' }}
                  >
                    <GroupsOutlinedIcon fontSize="small" />
                  </Avatar>
                </ListItemAvatar>
                <ListItemText primary={team.name} slotProps={{ primary: { noWrap: true, sx: { pr: 10 } } }} />
              </ListItem>
            );
          })}
        </List>
      </CardContent>
    </Card>
  );
}

export function ProfilePage({ variant }: { variant: 'welcome' | 'profile' }) {
  const { t } = useTranslation('profile');
  const session = useSession();
  if (session.status !== 'loggedIn') return null;
  const welcome = variant === 'welcome';
  return (
    <PageContainer>
      <PageHeader
        title={welcome ? t('welcomeTitle', { name: session.user.firstName }) : t('title')}
        subtitle={welcome ? t('welcomeSubtitle') : t('subtitle')}
        icon={welcome ? <WavingHandOutlinedIcon /> : <BadgeOutlinedIcon />}
      />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 7 }}>
          <DetailsCard session={session} />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <TeamsCard session={session} />
        </Grid>
        {!welcome && session.currentTeam?.ready && (
          <Grid size={12}>
            <CalendarFeedCard teamUuid={session.currentTeam.teamid} />
          </Grid>
        )}
      </Grid>
    </PageContainer>
  );
}
