// Kysely types of the calendar tables (migrations 0012 and 0013), kept beside schema.ts so that
// neither file grows past one screen of concern; schema.int.test.ts checks both against the database.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, never, never>;

export interface CalendarEntriesTable {
  id: Generated<number>;
  team_id: number;
  calendar_id: number;
  start_at: Timestamp;
  end_at: Timestamp;
  all_day: Generated<boolean>;
  summary: Generated<string>;
  description: Generated<string>;
  category: Generated<string>;
  subcategory: Generated<string>;
  scene: Generated<string>;
  location: Generated<string>;
  city: Generated<string>;
  state: Generated<string>;
  country: Generated<string>;
  team1: Generated<string>;
  team2: Generated<string>;
  urgency: number | null;
  flags: Generated<number>;
  cancelled_at: Timestamp | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  external_uid: string | null;
  recurrence_id: string | null;
  source_entry_id: number | null;
  source_status: 'changed' | 'vanished' | null;
  /** bigint, advanced by triggers on every change the listing shows (migration 0027); read as JSON. */
  version: Generated<number>;
  /** The listing's JSON texts, written by triggers (migration 0028): never written by the app. */
  listed: Generated<string>;
  listed_bookings: Generated<string | null>;
  listed_confirmers: Generated<string | null>;
}

export interface CalendarEntryConfirmationsTable {
  entry_id: number;
  user_id: number;
  confirmed_at: Timestamp;
}

export interface BookingsTable {
  id: Generated<number>;
  team_id: number;
  entry_id: number;
  user_id: number;
  state: Generated<'unset' | 'accepted' | 'canceled' | 'rejected'>;
  accreditation: Generated<'notaccredited' | 'requested' | 'processing' | 'accredited' | 'permanently'>;
  answer: Generated<'open' | 'accepted' | 'rejected'>;
  suggested: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface BookingHistoryTable {
  id: Generated<number>;
  booking_id: number;
  changed_by: number | null;
  changed_at: Timestamp;
  field: string;
  from_value: string | null;
  to_value: string | null;
}

export interface BookingInvitationsTable {
  id: Generated<number>;
  booking_id: number;
  selector: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface CalendarFeedTokensTable {
  id: Generated<number>;
  team_id: number;
  user_id: number;
  selector: string;
  token_hash: string;
  token_sealed: string;
  created_at: CreatedAt;
}
