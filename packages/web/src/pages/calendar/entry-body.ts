import type { CalendarEntry, EntryBody } from '../../api/calendar.ts';

/** The body that saves an entry unchanged (flags and copies start from it). */
export const entryBody = (entry: CalendarEntry): EntryBody => ({
  startdatetime: entry.startdatetime,
  enddatetime: entry.enddatetime,
  summary: entry.summary,
  description: entry.description,
  category: entry.category,
  subcategory: entry.subcategory,
  scene: entry.scene,
  location: entry.location,
  city: entry.city,
  state: entry.state,
  country: entry.country,
  team1: entry.team1,
  team2: entry.team2,
  urgency: entry.urgency ?? null,
  flags: entry.flags,
});
