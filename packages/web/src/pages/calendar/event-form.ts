// The event dialog's rules (spec §5 'Event dialog', 'Event defaults') as one zod schema, plus the
// mapping between the form and an entry. Messages are i18n keys of the calendar namespace.
import { eventCategories } from '@photorelay/contract/calendar';
import { addHours } from 'date-fns';
import { z } from 'zod';
import type { CalendarEntry, EntryBody } from '../../api/calendar.ts';
import { isValidDateText, isValidTimeText, localParts, parseLocal, toOffsetIso } from './calendar-time.ts';

export { eventCategories };
export const urgencies = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** Spec §3 'Event category definitions': one config file per category. */
const categoryFile = z.object({
  category: z.string().optional(),
  subCategories: z
    .array(
      z.object({
        id: z.string(),
        scenes: z.array(z.string()).default([]),
        showTeams: z.boolean().default(false),
      }),
    )
    .default([]),
});
export type CategoryDefinition = z.infer<typeof categoryFile>;
export type SubCategory = CategoryDefinition['subCategories'][number];

/** A broken or missing file offers no subcategories rather than breaking the dialog. */
export function parseCategoryFile(text: string | undefined): CategoryDefinition {
  if (!text) return { subCategories: [] };
  try {
    const parsed = categoryFile.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { subCategories: [] };
  } catch {
    return { subCategories: [] };
  }
}

/**
 * The scenes offered for a subcategory: its own from the team's file; without a subcategory (or
 * one without scenes) every scene of the file; a news file without any gets the built-in news list
 * in the page's language (issue 27 item 8: News had no suggestions while Scene is required).
 */
export function sceneOptions(
  definition: CategoryDefinition,
  subcategory: string,
  category: string,
  newsDefaults: readonly string[],
): string[] {
  const own = definition.subCategories.find((candidate) => candidate.id === subcategory)?.scenes ?? [];
  if (own.length > 0) return own;
  const all = [...new Set(definition.subCategories.flatMap((candidate) => candidate.scenes))];
  if (all.length > 0) return all;
  return category === 'news' ? [...newsDefaults] : [];
}

const dateField = z
  .string()
  .trim()
  .min(1, { message: 'validation.required', abort: true })
  .refine(isValidDateText, 'validation.invalidDate');
const timeField = z
  .string()
  .trim()
  .min(1, { message: 'validation.required', abort: true })
  .refine(isValidTimeText, 'validation.invalidTime');

export const eventFormSchema = z
  .object({
    date: dateField,
    time: timeField,
    endDate: dateField,
    endTime: timeField,
    category: z.enum(eventCategories),
    subcategory: z.string(),
    scene: z.string().trim().min(1, 'validation.required'),
    showTeams: z.boolean(),
    team1: z.string().trim(),
    team2: z.string().trim(),
    summary: z.string().trim(),
    description: z.string(),
    location: z.string().trim(),
    city: z.string().trim(),
    state: z.string().trim(),
    country: z.string().trim(),
    urgency: z.union([z.literal(''), z.coerce.number().int().min(1).max(8)]),
    flags: z.number().int(),
  })
  .superRefine((values, ctx) => {
    if (values.showTeams) {
      if (!values.team1) ctx.addIssue({ code: 'custom', path: ['team1'], message: 'validation.required' });
      if (!values.team2) ctx.addIssue({ code: 'custom', path: ['team2'], message: 'validation.required' });
    } else if (!values.summary) {
      ctx.addIssue({ code: 'custom', path: ['summary'], message: 'validation.required' });
    }
    const start = parseLocal(values.date, values.time, 'UTC');
    const end = parseLocal(values.endDate, values.endTime, 'UTC');
    if (start && end && end.getTime() < start.getTime())
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'validation.endBeforeStart' });
  });

export type EventFormValues = z.input<typeof eventFormSchema>;

/** Spec §5: for team events the summary becomes 'team1 - team2'. */
export const teamSummary = (team1: string, team2: string) => `${team1.trim()} - ${team2.trim()}`;

/** Spec §5 'Event defaults': 17:00 today, sport, football; the end two hours later. */
export function eventDefaults(todayText: string): EventFormValues {
  return {
    date: todayText,
    time: '17:00',
    endDate: todayText,
    endTime: '19:00',
    category: 'sport',
    subcategory: 'football',
    scene: '',
    showTeams: true,
    team1: '',
    team2: '',
    summary: '',
    description: '',
    location: '',
    city: '',
    state: '',
    country: '',
    urgency: '',
    flags: 0,
  };
}

export function entryToForm(entry: CalendarEntry, zone: string, showTeams: boolean): EventFormValues {
  const start = localParts(entry.startdatetime, zone);
  const end = localParts(entry.enddatetime || addHours(new Date(entry.startdatetime), 2), zone);
  return {
    date: start.date,
    time: start.time,
    endDate: end.date,
    endTime: end.time,
    category: entry.category === 'news' ? 'news' : 'sport',
    subcategory: entry.subcategory,
    scene: entry.scene,
    showTeams,
    team1: entry.team1,
    team2: entry.team2,
    summary: entry.summary,
    description: entry.description,
    location: entry.location,
    city: entry.city,
    state: entry.state,
    country: entry.country,
    urgency: entry.urgency ?? '',
    flags: entry.flags,
  };
}

/** The entry body of valid form values; times are read in the team's zone. */
export function formToBody(values: z.output<typeof eventFormSchema>, zone: string): EntryBody {
  const start = parseLocal(values.date, values.time, zone);
  const end = parseLocal(values.endDate, values.endTime, zone);
  if (!start || !end) throw new Error('formToBody needs validated values');
  return {
    startdatetime: toOffsetIso(start, zone),
    enddatetime: toOffsetIso(end, zone),
    summary: values.showTeams ? teamSummary(values.team1, values.team2) : values.summary,
    description: values.description,
    category: values.category,
    subcategory: values.subcategory,
    scene: values.scene,
    location: values.location,
    city: values.city,
    state: values.state,
    country: values.country,
    team1: values.showTeams ? values.team1 : '',
    team2: values.showTeams ? values.team2 : '',
    urgency: values.urgency === '' ? null : values.urgency,
    flags: values.flags,
  };
}
