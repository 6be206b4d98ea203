// The early script (issue 28 item 8): a few hundred bytes that index.html runs while the app's
// libraries (about 1.1 MB of JavaScript) are still loading and starting. It asks for the session
// and, once that names the team, for the screen's first data, and for the screen's code files; the
// app takes these answers instead of asking again (api/client.ts). Before, the screen's code was
// asked for only after the libraries had run, and its data after that: a cold screen waited for
// them one after the other. Imports nothing the app imports, so it stays one small file.
import { earlyCodeElementId, earlyKey, earlyRoutes } from './early-routes.ts';

export type Early = {
  /**
   * The answer to a request the early script made, once, if it is still fresh; else undefined.
   * Every request of the app goes through here: one the app made itself is not made early after.
   */
  take: (method: string, path: string, body?: unknown) => Promise<Response> | undefined;
  /** Forgets every answer not taken yet: the app changes something (an answer from before is old). */
  clear: () => void;
};
declare global {
  interface Window {
    photorelayEarly?: Early;
  }
}

/** An early answer older than this is not used (the app asks again). */
const freshForMs = 15_000;

type UserInfo = {
  logged_in?: boolean;
  currentTeam?: string;
  member_of?: { teamid: string; ready?: boolean }[];
};

function start() {
  const answers = new Map<string, { response: Promise<Response>; at: number }>();
  // What the app asked for, and whether it changed something: not asked for early after that.
  const askedByApp = new Set<string>();
  let changed = false;
  const ask = (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const key = earlyKey(method, path, body);
    if (changed || askedByApp.has(key)) return;
    if (answers.has(key)) return answers.get(key)!.response;
    const hasBody = method !== 'GET';
    // The same request as api/client.ts makes (a preloaded answer is only used for an equal one).
    const response = fetch(`/api/${path}`, {
      method,
      credentials: 'same-origin',
      headers: hasBody
        ? { 'Content-Type': 'application/json', Accept: 'application/json' }
        : { Accept: 'application/json' },
      body: hasBody ? JSON.stringify(body ?? {}) : undefined,
    });
    response.catch(() => {}); // the app asks again and reports
    answers.set(key, { response, at: performance.now() });
    return response;
  };
  window.photorelayEarly = {
    take(method, path, body) {
      const key = earlyKey(method, path, body);
      askedByApp.add(key);
      const answer = answers.get(key);
      answers.delete(key);
      return answer && performance.now() - answer.at < freshForMs ? answer.response : undefined;
    },
    clear() {
      changed = true;
      answers.clear();
    },
  };

  const path = location.pathname.replace(/(.)\/+$/, '$1');
  const route = earlyRoutes[path];
  // The screen's code files (the build names them in index.html).
  const code = document.getElementById(earlyCodeElementId)?.textContent;
  const files = (code ? (JSON.parse(code) as Record<string, string[]>) : {})[path] ?? [];
  for (const href of files) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }

  // The session (index.html preloads it), then the screen's data in the current team.
  ask('GET', 'user/info')
    ?.then((response) => (response.ok ? (response.clone().json() as Promise<UserInfo>) : null))
    .then((info) => {
      if (!info?.logged_in) return;
      const teams = info.member_of ?? [];
      const team = teams.find((t) => t.teamid === info.currentTeam) ?? teams[0];
      if (!team?.ready) return;
      const today = new Date();
      today.setHours(0, 0, 0, 0);
      const teamPath = encodeURIComponent(team.teamid);
      const requests = route?.data?.(new URLSearchParams(location.search), today.toISOString()) ?? [];
      for (const request of requests) ask(request.method, `${teamPath}/${request.path}`, request.body);
      // What every screen's shell asks for: the session's groups, the drawer's folder tree and its
      // failing destinations.
      ask('GET', `${teamPath}/user/groups`);
      ask('GET', `${teamPath}/folders`);
      ask('POST', `${teamPath}/jobs/summary`, {});
    })
    .catch(() => {}); // the app asks for the session itself and shows its error
}

start();
