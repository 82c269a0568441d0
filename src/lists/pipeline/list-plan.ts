/**
 * What parsing decided for a list, stored as the list's `plan` so that every worker (and a
 * resumed one) reads the file and runs the services exactly the same way.
 */
import type { FieldSelection } from '../../enrichment/field-selection.js';
import type { ListLayout } from '../input/prepare-list.js';
import type { ListServiceName } from '../list-record.js';

export interface ListPlan {
  layout: ListLayout;
  services: ListServiceName[];
  /** Records a chunk (the last may hold fewer). */
  chunkSize: number;
  chunkCount: number;
  /** The enrichment fields bought for `email_intelligence`, fixed at parse time. */
  selection: FieldSelection;
  /** Column names appended for `email_intelligence`, in order. */
  intelligenceColumns: string[];
  /** The key's settings the verdicts depend on, fixed at parse time. */
  verification: { bouncers: boolean; corrections: boolean };
}

/** Small lists still report progress; large ones keep the chunk table short. */
export function chunkSizeFor(records: number): number {
  return Math.min(1_000, Math.max(50, Math.ceil(records / 100)));
}
