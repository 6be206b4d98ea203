export const serverDist: string;
export const serverEntry: string;
export function buildServer(options?: { onlyIfStale?: boolean }): Promise<string>;
