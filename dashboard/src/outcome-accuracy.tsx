/**
 * The operator view's accuracy from outcomes (docs/outcomes.md): for each verdict class, what the
 * ESPs reported later (hard bounce, soft bounce, blocked, complaint, delivery), in all or for one
 * ESP. Its bias is said beside it: senders rarely mail what we called invalid.
 */
import { useState } from 'preact/hooks';
import type { AdminOutcomes } from './api.js';
import { BarChart } from './bar-chart.js';

const CLASS_NAMES: Record<string, string> = {
  '50': '50 safe to send',
  '45': '45 catch-all',
  '20': '20 domain OK, mailbox unknown',
  '5': '5 no answer in time',
  invalid: 'Invalid (every invalid code)',
  other: 'Other codes',
};
const KIND_NAMES: Record<string, string> = {
  bounce: 'hard bounce',
  deferral: 'soft bounce',
  blocked: 'blocked',
  complaint: 'complaint',
  delivery: 'delivered',
};

export function OutcomeAccuracy({ outcomes }: { outcomes: AdminOutcomes }) {
  const [source, setSource] = useState('');
  const classes = source ? (outcomes.by_source[source] ?? {}) : outcomes.classes;
  return (
    <section class="card" aria-labelledby="accuracy-title" data-outcomes-total={outcomes.total}>
      <h2 id="accuracy-title">Accuracy from outcomes</h2>
      <p class="hint">
        What ESPs reported after our verdicts since {outcomes.since}, every key ({outcomes.total.toLocaleString('en')} outcomes). Senders
        rarely mail what we called invalid: this measures the valid and unknown verdicts best.
      </p>
      <label for="accuracy-source">ESP</label>{' '}
      <select id="accuracy-source" value={source} onChange={(e) => setSource(e.currentTarget.value)}>
        <option value="">all</option>
        {Object.keys(outcomes.by_source).map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <div class="charts">
        {Object.entries(CLASS_NAMES).map(([cls, title]) => (
          <BarChart
            key={cls}
            title={title}
            counts={Object.fromEntries(Object.entries(KIND_NAMES).map(([kind, name]) => [name, classes[cls]?.[kind] ?? 0]))}
          />
        ))}
      </div>
    </section>
  );
}
