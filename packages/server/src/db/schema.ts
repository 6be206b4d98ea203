import type { ColumnType, Generated } from 'kysely';
import type {
  BookingHistoryTable,
  BookingInvitationsTable,
  BookingsTable,
  CalendarEntriesTable,
  CalendarEntryConfirmationsTable,
  CalendarFeedTokensTable,
} from './schema-calendar.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, never, never>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  email_verified: Generated<boolean>;
  registration_completed: Generated<boolean>;
  language: Generated<string>;
  timezone: Generated<string>;
  current_team_id: number | null;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  persistent: boolean;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export type TokenKind = 'verify' | 'reset' | 'invite';
export interface TokensTable {
  id: Generated<number>;
  kind: TokenKind;
  selector: string;
  token_hash: string;
  email: string;
  user_id: number | null;
  team_id: number | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface TeamsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  name: string;
  ready: Generated<boolean>;
  time_zone: Generated<string>;
  created_at: CreatedAt;
  /** bigint: what calendar entries show but do not own changed (migration 0027). */
  calendar_shared_version: Generated<number>;
}

/** A team's own event flags: the bits of calendar_entries.flags with their names (migration 0039). */
export interface TeamEventFlagsTable {
  team_id: number;
  bit: number;
  name: string;
  /** A flag of the spec's default list (its i18n key) until renamed; null for the team's own. */
  preset: string | null;
}

export type GroupName = 'Owner' | 'Operator' | 'Photographer';
export interface GroupsTable {
  id: Generated<number>;
  team_id: number;
  name: GroupName;
  has_all_permissions: boolean;
}

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  group_id: number;
  accreditation_number: string | null;
  created_at: CreatedAt;
}

export type FolderType = 'projects' | 'ftpservers' | 'calendars' | 'settings' | 'folders';
export interface FoldersTable {
  id: Generated<number>;
  team_id: number;
  parent_id: number | null;
  type: FolderType;
  name: string;
  created_at: CreatedAt;
}

export interface CalendarsTable {
  id: Generated<number>;
  team_id: number;
  folder_id: number;
  name: string;
  refname: string;
  type: Generated<string>;
  url: string | null;
  created_at: CreatedAt;
  etag: string | null;
  last_modified: string | null;
  refreshed_at: Timestamp | null;
  /** What the last refresh changed: {inserted, updated, removed} or null (migration 0039). */
  last_changes: unknown;
  last_error: string | null;
  refresh_due_at: Timestamp | null;
  refreshing_until: Timestamp | null;
}

export interface ConfigFilesTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  content: Buffer;
  size: number;
  updated_at: Timestamp;
}

export interface CommandsTable {
  id: Generated<number>;
  team_id: number;
  user_id: number;
  kind: string;
  token_hash: string;
  payload: unknown;
  state: 'ok' | 'error' | null;
  detail: unknown;
  attempts: Generated<number>;
  locked_until: Timestamp | null;
  created_at: CreatedAt;
  finished_at: Timestamp | null;
}

export type Permission = 'read' | 'write' | 'folder_admin';
export interface FolderPermissionsTable {
  id: Generated<number>;
  team_id: number;
  folder_id: number;
  user_id: number | null;
  group_id: number | null;
  permissions: Permission[];
}

export interface ProjectsTable {
  id: Generated<number>;
  team_id: number;
  folder_id: number;
  name: string;
  ingest_username: string;
  ingest_password_enc: string;
  fileincount: Generated<number>;
  fileoutcount: Generated<number>;
  bytesreceived: Generated<number>;
  bytessent: Generated<number>;
  created_at: CreatedAt;
  /** Hold pictures that cannot be stamped (issue 15, migration 0015). */
  hold_unstampable: Generated<boolean>;
  /** Stamp the booked event of the capture time into unset fields (issue 13, migration 0019). */
  event_stamping: Generated<boolean>;
  /** Hold pictures a template variable had no value for (issue 28, migration 0040). */
  hold_unresolved_variables: Generated<boolean>;
}

export interface FtpServersTable {
  id: Generated<number>;
  team_id: number;
  folder_id: number;
  name: string;
  host: string;
  port: number | null;
  path: Generated<string>;
  protocol: Generated<'ftp' | 'ftps' | 'sftp'>;
  username: string;
  password_enc: string;
  max_connections: Generated<number>;
  created_at: CreatedAt;
}

export interface ProjectFtpServersTable {
  project_id: number;
  ftp_server_id: number;
  path: string | null;
  enabled: Generated<boolean>;
}

export interface ProjectDestinationProjectsTable {
  project_id: number;
  destination_project_id: number;
  enabled: Generated<boolean>;
}

export type UploadState = 'received' | 'processing' | 'processed' | 'failed';
export interface UploadsTable {
  id: Generated<number>;
  team_id: number;
  project_id: number;
  path: string;
  filename: string;
  size: number;
  sha256: string;
  blob_key: string;
  processed_blob_key: string | null;
  processed_size: number | null;
  processed_sha256: string | null;
  processed_filename: string | null;
  /** Issue 16: md5 of the processing that applied (template, scripts, destinations). */
  processing_fingerprint: string | null;
  /** Issue 16: made on first request and kept with the upload (job log, job detail). */
  thumbnail_blob_key: Generated<string | null>;
  preview_blob_key: Generated<string | null>;
  state: Generated<UploadState>;
  processing_detail: unknown;
  locked_until: Timestamp | null;
  protocol: string;
  remote_address: string | null;
  chain: number[];
  source_upload_id: number | null;
  duplicate_of: number | null;
  received_at: Generated<Date>;
}

export type JobState =
  | 'scheduled'
  | 'running'
  | 'failed'
  | 'succeeded'
  | 'duplicate'
  | 'rejected'
  | 'skipped'
  | 'held';
export interface JobsTable {
  id: Generated<number>;
  team_id: number;
  upload_id: number;
  project_id: number;
  ftp_server_id: number | null;
  dest_project_id: number | null;
  ftpservername: string | null;
  destprojectname: string | null;
  state: Generated<JobState>;
  scheduletime: Generated<Date>;
  createtime: Generated<Date>;
  trynumber: Generated<number>;
  errortext: string | null;
  uploadduration: number | null;
  detail: unknown;
  locked_until: Timestamp | null;
  locked_by: string | null;
  finished_at: Timestamp | null;
}

/** One try of a delivery job (issue 15): when, how long, how much, and why it failed. */
export interface JobTriesTable {
  id: Generated<number>;
  job_id: number;
  started_at: Timestamp;
  duration_ms: number;
  bytes: number | null;
  error: string | null;
}

export interface IngestDirectoriesTable {
  project_id: number;
  path: string;
  created_at: CreatedAt;
}

export interface IngestSessionsTable {
  id: Generated<number>;
  project_id: number | null;
  username: string | null;
  protocol: string;
  tls: boolean;
  remote_address: string;
  login_result: string | null;
  entries: unknown;
  started_at: Timestamp;
  ended_at: Timestamp | null;
}

export interface IngestLoginFailuresTable {
  address: string;
  username: string;
  attempts: number;
  failures: number;
  last_attempt: Timestamp;
  blocked_until: Timestamp | null;
  /** The failures were on a name no account has (they block the address only in far greater numbers). */
  unknown_name: Generated<boolean>;
}

export interface FailureNoticesTable {
  project_id: number;
  destination: string;
  sent_at: Timestamp;
}

export interface Database {
  uploads: UploadsTable;
  jobs: JobsTable;
  job_tries: JobTriesTable;
  ingest_directories: IngestDirectoriesTable;
  ingest_sessions: IngestSessionsTable;
  ingest_login_failures: IngestLoginFailuresTable;
  failure_notices: FailureNoticesTable;
  folder_permissions: FolderPermissionsTable;
  projects: ProjectsTable;
  ftp_servers: FtpServersTable;
  project_ftp_servers: ProjectFtpServersTable;
  project_destination_projects: ProjectDestinationProjectsTable;
  users: UsersTable;
  sessions: SessionsTable;
  tokens: TokensTable;
  teams: TeamsTable;
  team_event_flags: TeamEventFlagsTable;
  groups: GroupsTable;
  team_members: TeamMembersTable;
  folders: FoldersTable;
  calendars: CalendarsTable;
  calendar_entries: CalendarEntriesTable;
  calendar_feed_tokens: CalendarFeedTokensTable;
  calendar_entry_confirmations: CalendarEntryConfirmationsTable;
  bookings: BookingsTable;
  booking_history: BookingHistoryTable;
  booking_invitations: BookingInvitationsTable;
  config_files: ConfigFilesTable;
  commands: CommandsTable;
  project_xmp_values: ProjectXmpValuesTable;
  project_xmp_modes: ProjectXmpModesTable;
  metadata_test_images: MetadataTestImagesTable;
  scripts: ScriptsTable;
  script_backoffs: ScriptBackoffsTable;
}

/** A project whose script keeps hitting the sandbox's hard stop: its uploads wait until `until`. */
export interface ScriptBackoffsTable {
  project_id: number;
  hard_stops: number;
  until: Timestamp;
}

export interface ProjectXmpValuesTable {
  project_id: number;
  propertytypeids: string;
  position: Generated<number>;
  lang: Generated<string>;
  value: string;
}

export type XmpModeName = 'off' | 'replace' | 'append' | 'prepend' | 'merge';
export interface ProjectXmpModesTable {
  project_id: number;
  property_id: string;
  mode: XmpModeName;
}

export interface MetadataTestImagesTable {
  id: Generated<number>;
  team_id: number;
  project_id: number | null;
  filename: string;
  source_blob_key: string | null;
  command_id: number | null;
  token_hash: string | null;
  result_blob_key: string | null;
  result_size: number | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface ScriptsTable {
  id: Generated<number>;
  team_id: number;
  project_id: number | null;
  folder_id: number | null;
  filename: string;
  source: string;
  updated_at: Generated<Date>;
}
