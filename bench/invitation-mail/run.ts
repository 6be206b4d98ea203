// Invitation mail benchmark (issue 27 item 5): what the .ics (ical.js, the zone's VTIMEZONE)
// adds to composing one event invitation, against the plain-text mail as the baseline, measured
// in the same run through nodemailer's stream transport (composition only, no network).
//
//   npx tsx bench/invitation-mail/run.ts [--mails 2000]
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import { invitationIcs } from '../../packages/server/src/modules/calendar/invitation-ics.ts';

const { values } = parseArgs({ options: { mails: { type: 'string', default: '2000' } } });
const mails = Number(values.mails);
const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
const text =
  'Das Team „Agentur“ möchte Sie für diesen Termin buchen:\n\nFC Bayern München - Borussia Dortmund\n';

async function run(withIcs: boolean) {
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < mails; i++) {
    const ics = withIcs
      ? invitationIcs(
          {
            uid: `entry-${i}@photorelay.example`,
            sequence: i,
            start: new Date(Date.UTC(2027, 1, 14, 14, 30) + i * 3600_000),
            end: new Date(Date.UTC(2027, 1, 14, 16, 30) + i * 3600_000),
            allDay: false,
            summary: 'FC Bayern München - Borussia Dortmund',
            description: 'PhotoRelay: https://photorelay.example/acceptPhotographerInivitation?x=1',
            location: 'Allianz Arena, München, Deutschland',
            zone: 'Europe/Berlin',
          },
          {
            organizer: {
              name: 'Agentur',
              address: `reply+${i}-0123456789abcdef0123456789abcdef@replies.example`,
            },
            attendee: { name: 'Hans Müller', address: 'hans@example.com' },
          },
        )
      : null;
    const info = await transport.sendMail({
      from: 'PhotoRelay <noreply@photorelay.example>',
      to: 'hans@example.com',
      subject: 'PhotoRelay: Agentur lädt Sie ein',
      text,
      ...(ics ? { icalEvent: { method: 'REQUEST', filename: 'invite.ics', content: ics } } : {}),
    });
    bytes += (info.message as Buffer).length;
  }
  const ms = performance.now() - started;
  return { perMailMs: ms / mails, bytes: Math.round(bytes / mails) };
}

await run(true); // warm-up (module loading, the zone file read)
const plain = await run(false);
const invitation = await run(true);
console.log(`${mails} mails each`);
console.log(`| | per mail | size |\n|---|---|---|`);
console.log(`| baseline: plain-text invitation | ${plain.perMailMs.toFixed(3)} ms | ${plain.bytes} B |`);
console.log(
  `| with .ics (alternative + attachment) | ${invitation.perMailMs.toFixed(3)} ms | ${invitation.bytes} B |`,
);
