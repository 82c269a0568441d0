/**
 * The parse step: the uploaded file read once (prepare-list.ts), the services the key has and
 * the columns can feed, the enrichment fields bought, and the chunking. Answers the plan, or the
 * reason the list is Invalid.
 */
import type { ApiKeyRecord } from '../../accounts/key-config.js';
import { selectFields, type FieldSelection } from '../../enrichment/field-selection.js';
import { prepareList } from '../input/prepare-list.js';
import { planServices } from '../input/service-inputs.js';
import type { ListRow, ListServiceName } from '../list-record.js';
import { fail, ok, type Outcome } from '../outcome.js';
import { chunkSizeFor, type ListPlan } from './list-plan.js';
import type { ListFiles } from '../list-files.js';

/** The list services a key's services buy, in the reference's order. */
export function listServicesOf(key: Pick<ApiKeyRecord, 'services'>): ListServiceName[] {
  const out: ListServiceName[] = [];
  if (key.services.includes('verification')) out.push('email_validation');
  if (key.services.includes('enrichment') || key.services.includes('eam')) out.push('email_intelligence');
  if (key.services.includes('email_append')) out.push('email_append');
  return out;
}

export async function parseList(list: ListRow, key: ApiKeyRecord, files: ListFiles): Promise<Outcome<ListPlan>> {
  const prepared = await prepareList({
    path: await files.uploadPath(list.id, list.format),
    format: list.format,
    header: list.header,
    ...(list.delimiter !== null ? { delimiter: list.delimiter } : {}),
    ...(list.emailColumn !== null ? { emailColumn: list.emailColumn } : {}),
  });
  if (!prepared.ok) return prepared;
  const layout = prepared.value;
  if (layout.records === 0) return fail('The list has no records');

  const selection = selectFields(key, list.fields === null ? null : new Set(list.fields));
  const intelligenceColumns = [...selection.record, ...selection.eam];
  const wanted = listServicesOf(key).filter((s) => s !== 'email_intelligence' || intelligenceColumns.length > 0);
  const services = planServices(wanted, layout.roles, layout.emailColumnMismatch);
  if (!services.ok) return services;

  const chunkSize = chunkSizeFor(layout.records);
  return ok({
    layout,
    services: services.value,
    chunkSize,
    chunkCount: Math.ceil(layout.records / chunkSize),
    selection: { ...selection, postalAddress: false } satisfies FieldSelection,
    intelligenceColumns,
    verification: { bouncers: key.bouncers, corrections: key.services.includes('corrections') },
  });
}
