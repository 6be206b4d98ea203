// Waiting in tests for what the server does in its own time (deliveries, retries).

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reads until `ok` holds (every 300 ms); after `ms` fails with `what` and the last value read. */
export async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms = 90_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: ${JSON.stringify(value).slice(0, 1500)}`);
    await sleep(300);
  }
}
