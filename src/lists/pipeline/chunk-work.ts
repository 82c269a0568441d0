/**
 * Runs a list's services over one chunk of records, through the same services as the real-time
 * routes: verification per record (scheduled by domain), enrichment and email append batched
 * per chunk. Answers the chunk's per-service counters and what the results file needs of its
 * records: their original cells as written, their appended values and their duplicate keys; for a
 * list with evidence, each record's address and its verdict's evidence too (what `explain=true`
 * answers on /v5/ev, gathered by the same verification call).
 */
import type { EnrichQuery } from '../../enrichment/enrich-query.js';
import { parseEnrichQuery } from '../../enrichment/enrich-query.js';
import type { EnrichService } from '../../enrichment/enrich-service.js';
import type { EnrichmentRecord } from '../../enrichment/project.js';
import { parseAppendRequest, type AppendService } from '../../identity/append/index.js';
import { EvidenceTrace } from '../../verification/evidence.js';
import { renderEvidence, type EvidenceBody } from '../../verification/render-evidence.js';
import type { VerifyService } from '../../verification/verify-service.js';
import { duplicateHash, NO_HASH } from '../input/duplicates.js';
import type { HeaderRole } from '../input/header-map.js';
import type { ListRecord } from '../input/read-records.js';
import type { ListRow, ListServiceName } from '../list-record.js';
import { countAppend, countIntelligence, countValidation, type AppendMatchType, type Counts } from '../reporting.js';
import { originalHeader } from '../results/column-names.js';
import { csvText } from '../results/csv-text.js';
import type { RecordEvidence } from '../results/evidence-file.js';
import { padCells } from '../results/results-file.js';
import { encodeChunkResults, pushValidationValues } from '../results/stored-results.js';
import { validationOutcome, type ValidationOutcome } from '../validation-outcome.js';
import type { DomainScheduler } from './domain-scheduler.js';
import { askWithHoldBack, DEFAULT_HOLD_BACK, type HoldBackControl, type HoldBackPolicy } from './hold-back.js';
import type { ListPlan } from './list-plan.js';

export interface ChunkDeps {
  verify: VerifyService;
  enrich: EnrichService;
  append: AppendService;
  scheduler: DomainScheduler;
  /** Bound of one verdict in a list. */
  verifyTimeoutMs: number;
  /** How rows a provider throttled are held back and asked again (default DEFAULT_HOLD_BACK). */
  holdBack?: HoldBackPolicy;
}

export interface ChunkOutcome {
  counts: Partial<Record<ListServiceName, Counts>>;
  /** What the results file needs of these records (results/stored-results.ts), to store as JSON. */
  results: string[];
  /** A list with evidence: each record's address and evidence, in order, to store as JSON (results/evidence-file.ts). */
  evidence?: RecordEvidence[];
}

const PARAM_OF: Partial<Record<HeaderRole, string>> = {
  email: 'email',
  first: 'first',
  middle: 'middle',
  last: 'last',
  street: 'street',
  city: 'city',
  state: 'state',
  zip: 'zip',
  sha1: 'sha1_email',
  md5: 'md5_email',
};

/** `control` hears when the chunk only waits for rows held back, and may stop the wait (hold-back.ts). */
export async function runChunk(
  records: readonly ListRecord[],
  plan: ListPlan,
  list: Pick<ListRow, 'keyId' | 'evidence'>,
  deps: ChunkDeps,
  control?: HoldBackControl,
): Promise<ChunkOutcome> {
  const { layout } = plan;
  const runs = new Set(plan.services);
  // Validation needs only the address: no parameter object per record unless another service runs.
  const params =
    runs.has('email_intelligence') || runs.has('email_append') ? records.map((r) => paramsOf(r.cells, layout.roles)) : undefined;
  const evidence: (EvidenceBody | null)[] | undefined = list.evidence
    ? new Array<EvidenceBody | null>(records.length).fill(null)
    : undefined;
  const [validation, intelligence, append] = await Promise.all([
    runs.has('email_validation') ? validate(records, plan, list.keyId, deps, control, evidence) : undefined,
    runs.has('email_intelligence') ? enrich(params!, plan, deps) : undefined,
    runs.has('email_append') ? appendEmails(params!, deps) : undefined,
  ]);

  const counts: ChunkOutcome['counts'] = {};
  if (validation) counts.email_validation = countValidation(validation);
  if (intelligence) counts.email_intelligence = countIntelligence(intelligence.map(matchedFields));
  if (append) counts.email_append = countAppend(append.map((a) => a?.matchType));

  const text = csvText(layout.delimiter);
  const width = originalHeader(layout.header, layout.columnCount, layout.emailColumn).length;
  const emailColumn = validation ? layout.emailColumn : undefined;
  const hashes = new Float64Array(records.length).fill(NO_HASH);
  const stored: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const { cells } = records[i]!;
    if (emailColumn !== undefined) hashes[i] = duplicateHash(cells[emailColumn] ?? '');
    stored.push(text.join(padCells(cells, width)));
    if (validation) pushValidationValues(stored, validation[i]);
    if (intelligence) for (const column of plan.intelligenceColumns) stored.push(cellOf(intelligence[i]!, column));
    if (append) stored.push(append[i]?.email ?? '', append[i]?.matchType ?? '');
  }
  const outcome: ChunkOutcome = { counts, results: encodeChunkResults(hashes, stored) };
  if (evidence) {
    const column = layout.roles.email;
    outcome.evidence = records.map((record, i) => ({ email: emailOf(record.cells, column), evidence: evidence[i]! }));
  }
  return outcome;
}

function paramsOf(cells: readonly string[], roles: Partial<Record<HeaderRole, number>>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [role, column] of Object.entries(roles) as [HeaderRole, number][]) {
    const name = PARAM_OF[role];
    const value = cells[column]?.trim();
    if (name && value) params[name] = value;
  }
  return params;
}

/** The address as the real-time route would get it: the email cell, trimmed. */
function emailOf(cells: readonly string[], column: number | undefined): string {
  return column === undefined ? '' : (cells[column]?.trim() ?? '');
}

/**
 * Every record's verdict; rows the provider throttled are held back and asked again (hold-back.ts).
 * With `evidence`, each record's evidence is put there: that of the verdict that stands (a row
 * asked again gets the evidence of its last ask).
 */
function validate(
  records: readonly ListRecord[],
  plan: ListPlan,
  keyId: number,
  deps: ChunkDeps,
  control?: HoldBackControl,
  evidence?: (EvidenceBody | null)[],
): Promise<ValidationOutcome[]> {
  const options = { timeoutMs: deps.verifyTimeoutMs, key: { id: keyId, ...plan.verification } };
  const column = plan.layout.roles.email;
  const emails = records.map((record) => emailOf(record.cells, column));
  // Each verdict becomes its small outcome as soon as it comes: a chunk's thousand verdicts,
  // held until the last one, were most of what the garbage collector had to copy.
  const verifyOne = evidence
    ? async (i: number) => {
        const trace = new EvidenceTrace();
        const verdict = await deps.verify.verify(emails[i]!, { ...options, evidence: trace });
        evidence[i] = renderEvidence(trace.finish(verdict.code, verdict.limit));
        return validationOutcome(verdict);
      }
    : (i: number) => deps.verify.verify(emails[i]!, options).then(validationOutcome);
  const ask = (indexes: readonly number[]) =>
    deps.scheduler.runEach(
      indexes,
      (i) => domainOf(emails[i]!),
      verifyOne,
      // The key's own lane in each domain: another key's rows take turns with these (domain-scheduler.ts).
      keyId,
    );
  return askWithHoldBack(emails.length, ask, (outcome) => outcome.limit === 'throttled', deps.holdBack ?? DEFAULT_HOLD_BACK, control);
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

async function enrich(params: readonly Record<string, string>[], plan: ListPlan, deps: ChunkDeps): Promise<EnrichmentRecord[]> {
  const parsed = params.map((p) => parseEnrichQuery(p));
  const queries = parsed.flatMap((p) => ('query' in p ? [p.query] : [])) as EnrichQuery[];
  const answers = queries.length > 0 ? await deps.enrich.enrich(queries, plan.selection) : [];
  let next = 0;
  return parsed.map((p) => ('query' in p ? (JSON.parse(answers[next++]!.json) as EnrichmentRecord) : {}));
}

async function appendEmails(
  params: readonly Record<string, string>[],
  deps: ChunkDeps,
): Promise<({ email: string; matchType: AppendMatchType } | undefined)[]> {
  // Email append only: a list's addresses are its own, not a postal append request.
  const parsed = params.map(({ email: _email, ...rest }) => parseAppendRequest(rest));
  const requests = parsed.flatMap((p) => ('request' in p && p.request.emailAppend ? [p.request] : []));
  const answers = requests.length > 0 ? await deps.append.append(requests, { emailAppend: true, postalAppend: false }) : [];
  let next = 0;
  return parsed.map((p) => {
    if (!('request' in p) || !p.request.emailAppend) return undefined;
    const answer = answers[next++]!;
    const first = 'email_append' in answer ? answer.email_append?.[0] : undefined;
    return first && { email: first.email, matchType: first.email_match_type };
  });
}

/** The fields a record carries data for (the `Total Count` of email_intelligence's report). */
function matchedFields(record: EnrichmentRecord): string[] {
  const fields = Object.keys(record).filter((f) => f !== 'eam');
  const eam = record.eam as { date_first_seen?: string } | undefined;
  if (eam && eam.date_first_seen !== undefined && eam.date_first_seen !== 'now') fields.push('eam');
  return fields;
}

function cellOf(record: EnrichmentRecord, column: string): string {
  const value = (record as Record<string, unknown>)[column] ?? (record.eam as Record<string, unknown> | undefined)?.[column];
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return Object.keys(value).join(',');
  return String(value);
}
