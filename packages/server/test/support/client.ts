/** A browser-like API client: keeps the session cookie and sends our Origin and JSON bodies. */
export class TestClient {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const sendsBody = method !== 'GET' && method !== 'HEAD';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(sendsBody ? { 'content-type': 'application/json', origin: this.baseUrl } : {}),
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...headers,
      },
      body: sendsBody ? JSON.stringify(body ?? {}) : undefined,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {}
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body);
  }
  put<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body);
  }
  del<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.request<T>('DELETE', path, body);
  }

  /** A GET whose answer is binary (pictures, downloads): the bytes as they came. */
  async getBytes(path: string) {
    const res = await fetch(`${this.baseUrl}${path}`, {
      headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
  }

  cookie(name: string) {
    return this.cookies.get(name);
  }
}
