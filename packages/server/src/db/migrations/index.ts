import type { Migration } from 'kysely';
import * as accounts from './0001-accounts.ts';
import * as teams from './0002-teams.ts';
import * as commands from './0003-commands.ts';
import * as folderPermissions from './0004-folder-permissions.ts';
import * as projectsFtpServers from './0005-projects-ftpservers.ts';
import * as uploadsJobs from './0006-uploads-jobs.ts';
import * as metadata from './0007-metadata.ts';
import * as jobsDueByProject from './0008-jobs-due-by-project.ts';
import * as ingestLoginFailures from './0010-ingest-login-failures.ts';
import * as calendarEntries from './0012-calendar-entries.ts';
import * as externalCalendars from './0013-external-calendars.ts';
import * as scripts from './0014-scripts.ts';
import * as metadataHold from './0015-metadata-hold.ts';
import * as uploadFingerprint from './0017-upload-fingerprint.ts';
import * as eventStamping from './0019-event-stamping.ts';
import * as uploadThumbnails from './0022-upload-thumbnails.ts';
import * as jobTries from './0024-job-tries.ts';
import * as trafficIndexes from './0025-traffic-indexes.ts';
import * as calendarChangeCounter from './0026-calendar-change-counter.ts';
import * as calendarEntryVersions from './0027-calendar-entry-versions.ts';
import * as calendarEntryListing from './0028-calendar-entry-listing.ts';
import * as uploadScriptLogs from './0030-upload-script-logs.ts';
import * as fairProcessing from './0031-fair-processing.ts';
import * as jobLogIndexes from './0035-job-log-indexes.ts';
import * as loginNamesFeedTokens from './0036-login-names-feed-tokens.ts';
import * as filenameTrigram from './0037-filename-trigram.ts';
import * as teamEventFlags from './0039-team-event-flags.ts';
import * as holdUnresolvedVariables from './0040-hold-unresolved-variables.ts';

// Applied in key order; a landed migration is never edited, new ones are appended.
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-teams': teams,
  '0003-commands': commands,
  '0004-folder-permissions': folderPermissions,
  '0005-projects-ftpservers': projectsFtpServers,
  '0006-uploads-jobs': uploadsJobs,
  '0007-metadata': metadata,
  '0008-jobs-due-by-project': jobsDueByProject,
  '0010-ingest-login-failures': ingestLoginFailures,
  '0012-calendar-entries': calendarEntries,
  '0013-external-calendars': externalCalendars,
  '0014-scripts': scripts,
  '0015-metadata-hold': metadataHold,
  '0017-upload-fingerprint': uploadFingerprint,
  '0019-event-stamping': eventStamping,
  '0022-upload-thumbnails': uploadThumbnails,
  '0024-job-tries': jobTries,
  '0025-traffic-indexes': trafficIndexes,
  '0026-calendar-change-counter': calendarChangeCounter,
  '0027-calendar-entry-versions': calendarEntryVersions,
  '0028-calendar-entry-listing': calendarEntryListing,
  '0030-upload-script-logs': uploadScriptLogs,
  '0031-fair-processing': fairProcessing,
  '0035-job-log-indexes': jobLogIndexes,
  '0036-login-names-feed-tokens': loginNamesFeedTokens,
  '0037-filename-trigram': filenameTrigram,
  '0039-team-event-flags': teamEventFlags,
  '0040-hold-unresolved-variables': holdUnresolvedVariables,
};
