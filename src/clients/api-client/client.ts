/** The one HTTP client every CLI command uses; it turns the API's error envelope into a typed error. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class ConnectionError extends Error {}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** Wraps each request, e.g. to show a spinner while it is in flight. */
export type Progress = <T>(label: string, work: () => Promise<T>) => Promise<T>;

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    private readonly progress: Progress = (_label, work) => work(),
  ) {}

  private url(path: string, query: Query = {}): string {
    const url = new URL(`/api/v1${path}`, this.baseUrl);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  raw(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<RawResponse> {
    return this.progress(`${method} ${path}`, () => this.send(method, path, options));
  }

  private async send(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown },
  ): Promise<RawResponse> {
    let response: Response;
    try {
      response = await fetch(this.url(path, options.query), {
        method,
        headers: {
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch (error) {
      throw new ConnectionError(
        `Cannot reach comply at ${this.baseUrl} (${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}). ` +
          'Is the daemon running? Set COMPLY_URL to its address.',
      );
    }
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok) {
      let envelope: { error?: { code?: string; message?: string; details?: Record<string, unknown> } } = {};
      try {
        envelope = JSON.parse(body.toString('utf8'));
      } catch {
        // Not our envelope (a proxy, say): report the status alone.
      }
      throw new ApiError(
        response.status,
        envelope.error?.code ?? `HTTP_${response.status}`,
        envelope.error?.message ?? response.statusText,
        envelope.error?.details ?? {},
      );
    }
    return { status: response.status, headers: response.headers, body };
  }

  async request<T>(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown } = {},
  ): Promise<T> {
    const response = await this.raw(method, path, options);
    return (response.body.length ? JSON.parse(response.body.toString('utf8')) : null) as T;
  }

  get = <T>(path: string, query?: Query) => this.request<T>('GET', path, { query });
  post = <T>(path: string, body: unknown) => this.request<T>('POST', path, { body });
  put = <T>(path: string, body: unknown) => this.request<T>('PUT', path, { body });
  delete = <T>(path: string) => this.request<T>('DELETE', path);
}
