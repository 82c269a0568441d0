/**
 * The engagement score verification attaches to deliverable addresses, from the same activity
 * data as the `eam` metrics. Skips the lookup while no activity is loaded (checked every few
 * seconds), so deployments without activity data pay nothing on the hot path.
 */
import type { Clock } from '../core/clock.js';
import type { ActivityStore } from '../people/activity-store.js';
import { activityWindows, engagementScore, todayUtc } from './activity-metrics.js';

export interface Engagement {
  /** The address's 0–10 score; undefined without activity data for it. */
  score(address: string): Promise<number | undefined>;
  /** True while no activity is known to be loaded: the caller may skip `score` (and its wait). */
  absent(): boolean;
}

export function createEngagement(activity: ActivityStore, clock: Clock, presenceTtlMs = 5_000): Engagement {
  let present: { value: boolean; expires: number } | undefined;
  return {
    absent: () => present !== undefined && !present.value && present.expires > clock.now(),
    async score(address) {
      const now = clock.now();
      if (!present || present.expires <= now) present = { value: await activity.hasAny(), expires: now + presenceTtlMs };
      if (!present.value) return undefined;
      const today = todayUtc(now);
      const stats = await activity.statsFor([address], activityWindows(today));
      return engagementScore(stats.get(address), today);
    },
  };
}
