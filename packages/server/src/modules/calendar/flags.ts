import { eventFlagNames, eventFlags, type TeamFlag } from '@photorelay/contract/calendar';
import { AppError } from '@photorelay/contract/errors';
import { limits } from '@photorelay/contract/limits';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/kysely.ts';
import { requireTeamAdmin } from '../folders/permissions.ts';
import type { Member } from '../teams/service.ts';
import * as fq from './flag-queries.ts';
import { inZone } from './time.ts';

// A team's own event flags (issue 27 item 8): owners and operators tick flags on events and keep
// the list (like the team's config files, team-wide administration is theirs). A flag set on events never vanishes silently: removing
// it answers 409 with where it is set, until the owner confirms (force), which clears it there.

const usedInShown = 5;

/** The spec's list (§3 'Event flags by bit id'), each new team's start. */
export const defaultTeamFlags = eventFlags.map((preset) => ({ name: eventFlagNames[preset], preset }));

/** Refuses a mask with a bit the team has no flag for. */
export async function requireTeamFlags(db: Db, teamId: number, flags: number) {
  const mask = await fq.teamMask(db, teamId);
  if ((flags & ~mask) !== 0) throw new AppError('ValidationError', 'flags: a bit this team has no flag for');
}

const isPreset = (value: string | null): value is TeamFlag['preset'] & string =>
  value !== null && (eventFlags as readonly string[]).includes(value);

export async function listTeamFlags(ctx: AppContext, member: Member): Promise<TeamFlag[]> {
  requireTeamAdmin(member);
  const flags = await fq.listFlags(ctx.db, member.teamId);
  const use = await fq.flagUse(
    ctx.db,
    member.teamId,
    flags.map((flag) => flag.bit),
    usedInShown,
  );
  return flags.map((flag) => {
    const used = use.get(flag.bit);
    return {
      bit: flag.bit,
      name: flag.name,
      preset: isPreset(flag.preset) ? flag.preset : null,
      usedBy: used?.count ?? 0,
      usedIn: (used?.entries ?? []).map((entry) => ({
        id: entry.id,
        summary: entry.summary,
        startDate: inZone(new Date(entry.startAt), member.teamTimeZone).date,
      })),
    };
  });
}

export async function addTeamFlag(ctx: AppContext, member: Member, name: string) {
  requireTeamAdmin(member);
  await ctx.db.transaction().execute(async (trx) => {
    const taken = new Set((await fq.listFlags(trx, member.teamId)).map((flag) => flag.bit));
    let bit = 0;
    while (taken.has(bit)) bit++;
    if (bit > limits.flagBitMax)
      throw new AppError('Conflict', `A team has at most ${limits.flagBitMax + 1} flags`);
    // A flag removed earlier cleared its bit on every entry; this keeps it so if one slipped through.
    await fq.clearBit(trx, member.teamId, bit);
    await fq.insertFlag(trx, member.teamId, bit, name);
  });
  return listTeamFlags(ctx, member);
}

export async function renameTeamFlag(ctx: AppContext, member: Member, bit: number, name: string) {
  requireTeamAdmin(member);
  if (!(await fq.renameFlag(ctx.db, member.teamId, bit, name))) throw new AppError('NotFound');
  return listTeamFlags(ctx, member);
}

export async function removeTeamFlag(ctx: AppContext, member: Member, bit: number, force: boolean) {
  requireTeamAdmin(member);
  const flag = (await listTeamFlags(ctx, member)).find((candidate) => candidate.bit === bit);
  if (!flag) throw new AppError('NotFound');
  if (flag.usedBy > 0 && !force) {
    const where = flag.usedIn.map((entry) => `${entry.summary} (${entry.startDate})`).join(', ');
    throw new AppError('Conflict', `The flag is set on ${flag.usedBy} events: ${where}`);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await fq.deleteFlag(trx, member.teamId, bit);
    await fq.clearBit(trx, member.teamId, bit);
  });
  return listTeamFlags(ctx, member);
}
