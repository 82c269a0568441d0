/**
 * The Mailsure client: one method per operation of the API, typed from its OpenAPI document
 * (generated/openapi.ts), each answering a `Result` (errors are values: see errors.ts).
 *
 *   const mailsure = new MailsureClient({ baseUrl: 'https://localhost:8443', apiKey });
 *   const answer = await mailsure.verify('jane@example.com');
 *   if (answer.ok) console.log(answer.value.safe_to_send?.status);
 */
import { ok, type Result } from './errors.js';
import { ListsApi } from './lists.js';
import { Transport, type Exchange, type TransportOptions } from './transport.js';
import type {
  AppendAnswer,
  AppendBulkRecord,
  AppendQuery,
  EnrichBulkElement,
  EnrichBulkRecord,
  EnrichmentRecord,
  EnrichQuery,
  VerifyAnswer,
  VerifyOptions,
} from './types.js';

export interface ClientOptions extends TransportOptions {
  /** The API key: sent as the `api_key` query parameter, or header on the List API. */
  apiKey: string;
}

export class MailsureClient {
  /** The List API: submit, wait, download… */
  readonly lists: ListsApi;
  private readonly transport: Transport;
  private readonly apiKey: string;

  constructor(options: ClientOptions) {
    const { apiKey, ...transport } = options;
    this.apiKey = apiKey;
    this.transport = new Transport(transport);
    this.lists = new ListsApi(this.transport, apiKey);
  }

  /** `GET /v5/ev`: verify one address. */
  verify(email: string, options: VerifyOptions = {}): Promise<Result<VerifyAnswer>> {
    return this.get('/v5/ev', { ...options, email });
  }

  /** `GET /v5/td`: enrichment (and activity metrics) for one person. */
  enrich(query: EnrichQuery): Promise<Result<EnrichmentRecord>> {
    return this.get('/v5/td', query);
  }

  /** `POST /v5/ei/bulk`: up to 5,000 people, answered in order. */
  enrichBulk(records: EnrichBulkRecord[], options: { fields?: string } = {}): Promise<Result<EnrichBulkElement[]>> {
    return this.post('/v5/ei/bulk', options, records);
  }

  /** `GET /v5/eppend`: email append (name + postal address) or postal append (email). */
  append(query: AppendQuery): Promise<Result<AppendAnswer>> {
    return this.get('/v5/eppend', query);
  }

  /** `POST /v5/eppend/bulk`: up to 1,250 people, answered in order. */
  appendBulk(records: AppendBulkRecord[]): Promise<Result<AppendAnswer[]>> {
    return this.post('/v5/eppend/bulk', {}, records);
  }

  /** Ends the kept-alive connections. */
  close(): void {
    this.transport.close();
  }

  private async get<T>(path: string, query: object): Promise<Result<T>> {
    return valueOf(await this.transport.json<T>({ method: 'GET', path, query: { ...(query as Exchange['query']), api_key: this.apiKey } }));
  }

  private async post<T>(path: string, query: object, body: unknown): Promise<Result<T>> {
    const json = Buffer.from(JSON.stringify(body));
    return valueOf(
      await this.transport.json<T>({
        method: 'POST',
        path,
        query: { ...(query as Exchange['query']), api_key: this.apiKey },
        body: {
          contentType: 'application/json',
          length: json.length,
          replayable: true,
          chunks: async function* () {
            yield json;
          },
        },
      }),
    );
  }
}

function valueOf<T>(result: Result<{ value: T }>): Result<T> {
  return result.ok ? ok(result.value.value) : result;
}
