import { apiErrorOf, ConnectionError } from './errors.js';

/**
 * The one HTTP client of every surface (CLI, MCP server, gate, web console): it runs in Node and in the
 * browser alike, so it uses fetch and web types only, and it turns the API's error envelope into an ApiError.
 */
export { ApiError, ConnectionError } from './errors.js';

/** Query parameters; undefined and null are left out. */
export type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * What a request sends: a body as JSON, or, with `contentType`, a text body as given (a CSV file, say).
 */
export interface RequestOptions {
  query?: Query;
  body?: unknown;
  contentType?: string;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/** Wraps each request, e.g. to show a spinner while it is in flight. */
export type Progress = <T>(label: string, work: () => Promise<T>) => Promise<T>;

export interface ApiClientOptions {
  progress?: Progress;
  /** Called before the ApiError of a 401 is thrown (the console signs out). */
  onUnauthorized?: () => void;
  /** Extra fetch options, e.g. `credentials: 'omit'` in the browser. */
  init?: Omit<RequestInit, 'method' | 'headers' | 'body'>;
  /**
   * Extra headers on every request, e.g. the CLI's stored session: `cookie` and the daemon's `origin`
   * (the daemon refuses cookie-authenticated changes without it). The API key's header wins over these.
   */
  headers?: Record<string, string>;
}

const decoder = new TextDecoder();

export class ApiClient {
  private readonly options: ApiClientOptions;

  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    options: Progress | ApiClientOptions = {},
  ) {
    this.options = typeof options === 'function' ? { progress: options } : options;
  }

  private url(path: string, query: Query = {}): string {
    const url = new URL(`/api/v1${path}`, this.baseUrl);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  raw(method: string, path: string, options: RequestOptions = {}): Promise<RawResponse> {
    const { progress } = this.options;
    const send = () => this.send(method, path, options);
    return progress ? progress(`${method} ${path}`, send) : send();
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<RawResponse> {
    const { body: sent, contentType } = options;
    let response: Response;
    try {
      response = await fetch(this.url(path, options.query), {
        ...this.options.init,
        method,
        headers: {
          ...this.options.headers,
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
          ...(sent === undefined ? {} : { 'content-type': contentType ?? 'application/json' }),
        },
        body: sent === undefined ? undefined : contentType ? String(sent) : JSON.stringify(sent),
      });
    } catch (error) {
      throw new ConnectionError(
        `Cannot reach comply at ${this.baseUrl} (${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}). ` +
          'Is the daemon running? Set COMPLY_URL to its address.',
      );
    }
    const body = new Uint8Array(await response.arrayBuffer());
    if (!response.ok) {
      if (response.status === 401) this.options.onUnauthorized?.();
      throw apiErrorOf(response.status, response.statusText, decoder.decode(body));
    }
    return { status: response.status, headers: response.headers, body };
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.raw(method, path, options);
    return (response.body.length ? JSON.parse(decoder.decode(response.body)) : null) as T;
  }

  get = <T>(path: string, query?: Query) => this.request<T>('GET', path, { query });
  post = <T>(path: string, body: unknown) => this.request<T>('POST', path, { body });
  put = <T>(path: string, body: unknown) => this.request<T>('PUT', path, { body });
  delete = <T>(path: string) => this.request<T>('DELETE', path);
}

/** A response body as text (an export in CSV or Markdown, say). */
export const textOf = (response: RawResponse) => decoder.decode(response.body);
