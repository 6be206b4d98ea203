import type { AppContext } from '../context.ts';
import * as q from './failure-notice-queries.ts';
import type { ClaimedJob } from './queue.ts';

/**
 * When a job gives up, the project's owners and operators get a mail naming the files and the
 * error: at most one per destination per hour (the next one lists everything failed since).
 */
export async function notifyJobGaveUp(ctx: AppContext, job: ClaimedJob, error: string) {
  const destination = job.ftpServerId ? `ftpserver:${job.ftpServerId}` : `project:${job.destProjectId}`;
  if (!(await q.claimFailureNotice(ctx.db, job.projectId, destination))) return;

  const [project, recipients, failed] = await Promise.all([
    q.findProjectName(ctx.db, job.projectId),
    q.listNotifiedMembers(ctx.db, job.teamId),
    q.listRecentlyFailed(ctx.db, job),
  ]);
  const target = failed[0]?.ftpservername ?? failed[0]?.destprojectname ?? destination;
  const files = failed.map((f) => `- ${f.path}`).join('\n') || `- ${job.path}`;
  const link = `${ctx.config.publicUrl}/project/protocol?id=${job.projectId}`;
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
