// The event step of upload processing (issue 13), after the metadata step: when the project has
// event stamping on and the picture was shot during a booked event of the team's default
// calendar, the event's fields go into the IPTC fields the template and the picture leave unset.
// The job detail (processing.eventStamp) names the event applied, or the events that ran at once.
import type { EventStampDetail } from '@photorelay/contract/externalcalendars';
import { isJpeg, readJpegMetadata } from '@photorelay/xmp/index';
import { pictureFacts } from '@photorelay/xmp/variables';
import type { AppContext } from '../../context.ts';
import type { ProcessedFile, ProcessingStep, UploadToProcess } from '../../pipeline/processing.ts';
import * as entries from '../calendar/entry-queries.ts';
import { entryTemplateValues } from '../calendar/xmp.ts';
import { loadStampOptions, loadTemplate, readFirstBytes, stampBlob } from '../metadata/stamping.ts';
import { captureInstant, chooseEvent, fillValues } from './event-stamp.ts';
import * as q from './event-stamp-queries.ts';

async function readPicture(ctx: AppContext, key: string) {
  const input = ctx.blobs.read(key);
  try {
    return await readJpegMetadata(input);
  } finally {
    input.destroy();
  }
}

const withDetail = (current: ProcessedFile, eventStamp: EventStampDetail): ProcessedFile => ({
  ...current,
  detail: { eventStamp },
});

export const eventStampStep: ProcessingStep = { name: 'eventStamp', run: stampEvent };

async function stampEvent(
  ctx: AppContext,
  upload: UploadToProcess,
  current: ProcessedFile,
): Promise<ProcessedFile | null> {
  if (!(await q.getEventStamping(ctx.db, upload.teamId, upload.projectId))) return null;
  if (!isJpeg(await readFirstBytes(ctx, current.blobKey, 3))) return null;
  const picture = await readPicture(ctx, current.blobKey);
  const facts = pictureFacts(picture.exif, picture.xmp);
  const zone = await entries.findTeamTimeZone(ctx.db, upload.teamId);
  const at = captureInstant(facts.captureDate, zone);
  if (!at) return null;
  const events = await q.bookedEventsAt(ctx.db, upload.teamId, at);
  if (events.length === 0) return null;
  const { options } = await loadStampOptions(ctx.db, upload.teamId);
  const camera = facts.serial ? options.photographers?.[facts.serial] : undefined;
  const choice = chooseEvent(events, camera);
  const ids = choice && 'chosen' in choice ? [choice.chosen.entryId] : events.map((e) => e.entryId);
  const found = await entries.listEntriesByIds(ctx.db, upload.teamId, ids);
  if (!choice || !('chosen' in choice))
    return withDetail(current, {
      ambiguous: found.map((e) => ({ entryId: e.id, summary: e.summary || e.scene })),
    });
  const [entry] = found;
  if (!entry) return null;
  const { template } = await loadTemplate(ctx.db, upload.teamId, upload.projectId);
  const fill = fillValues(entryTemplateValues(entry, zone), template.modes, picture.values);
  const detail: EventStampDetail = {
    entryId: entry.id,
    summary: entry.summary || entry.scene,
    startAt: entry.startAt.toISOString(),
    endAt: entry.endAt.toISOString(),
    fields: fill.properties,
  };
  if (fill.values.length === 0) return withDetail(current, detail);
  const modes = Object.fromEntries(fill.properties.map((p) => [p, 'replace' as const]));
  // No codes or photographers here: the metadata step expanded them already.
  const filename = upload.path.split('/').pop() ?? upload.path;
  const stamped = await stampBlob(ctx, current.blobKey, { modes, values: fill.values }, { filename });
  return {
    ...current,
    blobKey: stamped.blobKey,
    size: stamped.size,
    sha256: stamped.sha256,
    detail: { eventStamp: detail },
  };
}
