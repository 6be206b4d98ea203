import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import type { ClaimedJob } from '../modules/jobs/queries.ts';

/**
 * When a job gives up, the project's owners and operators get a mail naming the files and the
 * error: at most one per destination per hour (the next one lists everything failed since).
 */
export async function notifyJobGaveUp(ctx: AppContext, job: ClaimedJob, error: string) {
  const destination = job.ftp_server_id ? `ftpserver:${job.ftp_server_id}` : `project:${job.dest_project_id}`;
  const claimed = await sql<{ project_id: number }>`
    insert into failure_notices (project_id, destination, sent_at) values (${job.project_id}, ${destination}, now())
    on conflict (project_id, destination) do update set sent_at = now()
    where failure_notices.sent_at < now() - interval '1 hour'
    returning project_id
  `.execute(ctx.db);
  if (claimed.rows.length === 0) return;

  const [project, recipients, failed] = await Promise.all([
    ctx.db.selectFrom('projects').select('name').where('id', '=', job.project_id).executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('team_members as m')
      .innerJoin('groups as g', 'g.id', 'm.group_id')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.email', 'u.language'])
      .where('m.team_id', '=', job.team_id)
      .where('g.has_all_permissions', '=', true)
      .where('u.email_verified', '=', true)
      .execute(),
    ctx.db
      .selectFrom('jobs as j')
      .innerJoin('uploads as u', 'u.id', 'j.upload_id')
      .select(['u.path', 'j.ftpservername', 'j.destprojectname'])
      .where('j.project_id', '=', job.project_id)
      .where('j.state', '=', 'failed')
      .where(
        job.ftp_server_id ? 'j.ftp_server_id' : 'j.dest_project_id',
        '=',
        job.ftp_server_id ?? job.dest_project_id ?? -1,
      )
      .where('j.finished_at', '>', sql<Date>`now() - interval '1 hour'`)
      .orderBy('j.id')
      .limit(200)
      .execute(),
  ]);
  const target = failed[0]?.ftpservername ?? failed[0]?.destprojectname ?? destination;
  const files = failed.map((f) => `- ${f.path}`).join('\n') || `- ${job.path}`;
  const link = `${ctx.config.publicUrl}/project/protocol?id=${job.project_id}`;
  for (const r of recipients) {
    const de = r.language === 'de';
    await ctx.mailer
      .send({
        to: r.email,
        link,
        subject: de
          ? `PhotoRelay: Übertragung an ${target} fehlgeschlagen (${project.name})`
          : `PhotoRelay: delivery to ${target} failed (${project.name})`,
        text: de
          ? `Diese Dateien des Projekts „${project.name}“ konnten nach allen Versuchen nicht an ${target} übertragen werden:\n\n${files}\n\nFehler: ${error}\n\nProtokoll: ${link}\n`
          : `These files of project "${project.name}" could not be delivered to ${target} after all tries:\n\n${files}\n\nError: ${error}\n\nJob log: ${link}\n`,
      })
      .catch((err) => ctx.log.warn({ err, to: r.email }, 'failure mail could not be sent'));
  }
}
