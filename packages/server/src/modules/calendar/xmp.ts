import { AppError } from '@photorelay/contract/errors';
import { templateToXmpSidecar } from '@photorelay/xmp/sidecar';
import type { TemplateValue } from '@photorelay/xmp/template';
import { setProperty, simple } from '@photorelay/xmp/xmp-model';
import { parseXmpPacket } from '@photorelay/xmp/xmp-packet';
import { serializeXmpPacket } from '@photorelay/xmp/xmp-serialize';
import type { AppContext } from '../../context.ts';
import { requireTeamAdmin } from '../folders/permissions.ts';
import { safeFileName } from '../metadata/service.ts';
import type { Member } from '../teams/service.ts';
import type { Entry } from './entry-queries.ts';
import * as q from './entry-queries.ts';
import { inZone } from './time.ts';

// The event's XMP sidecar (GET /api/{teamUuid}/calendar/xmp/{entryId}): its IPTC fields written
// by the metadata engine, so that 'storexmpfile' takes it into a project as that project's
// template and Photo Mechanic loads it as a stationery pad.

const photoshopNs = 'http://ns.adobe.com/photoshop/1.0/';

/** Template values (catalog ids) of an entry: what storexmpfile reads back. */
export function entryTemplateValues(entry: Entry, zone: string): TemplateValue[] {
  const values: TemplateValue[] = [];
  const add = (propertytypeids: string, value: string, position?: number) => {
    if (value.trim() !== '')
      values.push({ propertytypeids, value: value.trim(), ...(position === undefined ? {} : { position }) });
  };
  const title = entry.summary || entry.scene;
  add('headline', title);
  add('eventName', entry.scene && entry.summary ? `${entry.scene}: ${entry.summary}` : title);
  add('dateCreated', inZone(entry.startAt, zone).iso);
  add('sublocationName', entry.location);
  add('cityName', entry.city);
  add('provinceState', entry.state);
  add('countryName', entry.country);
  for (const structure of ['locationCreated', 'locationsShown']) {
    add(`${structure},sublocation`, entry.location, 0);
    add(`${structure},city`, entry.city, 0);
    add(`${structure},provinceState`, entry.state, 0);
    add(`${structure},countryName`, entry.country, 0);
  }
  return values;
}

/**
 * The legacy photoshop fields the IPTC catalog leaves out but Photo Mechanic and newsrooms still
 * read: Category (3 characters, spec §5), Supplemental Categories and Urgency.
 */
function withLegacyFields(xml: string, entry: Entry): string {
  const packet = parseXmpPacket(xml);
  if (entry.category)
    setProperty(packet, photoshopNs, 'Category', simple(entry.category.slice(0, 3).toUpperCase()));
  const supplemental = [entry.category, entry.subcategory, entry.scene].filter((v) => v !== '');
  if (supplemental.length > 0)
    setProperty(packet, photoshopNs, 'SupplementalCategories', {
      kind: 'array',
      form: 'Bag',
      items: supplemental.map((v) => simple(v)),
    });
  if (entry.urgency !== null) setProperty(packet, photoshopNs, 'Urgency', simple(String(entry.urgency)));
  return serializeXmpPacket(packet, { padding: 0 });
}

export async function entryXmp(ctx: AppContext, member: Member, entryId: number) {
  requireTeamAdmin(member);
  const entry = await q.findEntry(ctx.db, member.teamId, entryId);
  if (!entry) throw new AppError('NotFound');
  // Spec §6: the XMP download applies only to 'default' entries.
  if (entry.calendarType !== 'default')
    throw new AppError('Conflict', 'Only entries of the team calendar have an XMP download');
  const zone = await q.findTeamTimeZone(ctx.db, member.teamId);
  const sidecar = templateToXmpSidecar({ modes: {}, values: entryTemplateValues(entry, zone) });
  const day = inZone(entry.startAt, zone).day;
  return {
    filename: safeFileName(`${day} ${entry.summary || entry.scene}`, '.xmp'),
    content: withLegacyFields(sidecar, entry),
  };
}
