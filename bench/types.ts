/** What each bench/*.bench.ts returns: our figure against a baseline measured in the same run. */
export interface BenchResult {
  title: string;
  ours: { label: string; value: number; unit: string };
  baseline: { label: string; value: number; unit: string };
  /** ours.value / baseline.value. */
  ratio: number;
  /** The target, e.g. "≥ 1.0". */
  goal: string;
  met: boolean;
  /** How it is measured, for docs/benchmarks.md. */
  notes?: string;
}
