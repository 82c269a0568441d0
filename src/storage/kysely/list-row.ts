/** Conversions between `lists` rows and the lists domain's records. */
import type { Insertable, Selectable } from 'kysely';
import type { InputFormat, ListPatch, ListRow, ListStatus, NewList } from '../../lists/list-record.js';
import type { ListsTable } from '../database.js';

export function newListRow(list: NewList): Insertable<ListsTable> {
  return {
    key_id: list.keyId,
    name: list.name,
    format: list.format,
    delimiter: list.delimiter,
    header: list.header ? 1 : 0,
    email_column: list.emailColumn,
    report: list.report ? 1 : 0,
    fields: list.fields === null ? null : JSON.stringify(list.fields),
    callback_url: list.callbackUrl,
    evidence: list.evidence ? 1 : 0,
    size_bytes: list.sizeBytes,
    status: 'Pending',
    error: null,
    records: 0,
    services: '{}',
    plan: null,
    purchase: null,
    created_at: list.createdAt,
    updated_at: list.createdAt,
  };
}

export function patchRow(patch: ListPatch, updatedAt: string): Partial<Selectable<ListsTable>> {
  const row: Partial<Selectable<ListsTable>> = { updated_at: updatedAt };
  if (patch.status !== undefined) row.status = patch.status;
  if (patch.error !== undefined) row.error = patch.error;
  if (patch.records !== undefined) row.records = patch.records;
  if (patch.services !== undefined) row.services = JSON.stringify(patch.services);
  if (patch.plan !== undefined) row.plan = patch.plan === null ? null : JSON.stringify(patch.plan);
  if (patch.purchase !== undefined) row.purchase = patch.purchase === null ? null : JSON.stringify(patch.purchase);
  return row;
}

export function toList(row: Selectable<ListsTable>): ListRow {
  return {
    id: row.id,
    keyId: row.key_id,
    name: row.name,
    format: row.format as InputFormat,
    delimiter: row.delimiter,
    header: row.header === 1,
    emailColumn: row.email_column,
    report: row.report === 1,
    fields: row.fields === null ? null : (JSON.parse(row.fields) as string[]),
    callbackUrl: row.callback_url,
    evidence: row.evidence === 1,
    sizeBytes: Number(row.size_bytes),
    status: row.status as ListStatus,
    error: row.error,
    records: row.records,
    services: JSON.parse(row.services) as ListRow['services'],
    plan: row.plan === null ? null : (JSON.parse(row.plan) as unknown),
    purchase: row.purchase === null ? null : (JSON.parse(row.purchase) as unknown),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}
