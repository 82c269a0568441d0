/** A horizontal bar chart of counts, readable as a table by screen readers and by the tests. */
export function BarChart({ title, counts }: { title: string; counts: Record<string, number> }) {
  const entries = Object.entries(counts);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <figure class="chart" aria-labelledby={`chart-${slug}`} data-chart={slug}>
      <figcaption id={`chart-${slug}`}>{title}</figcaption>
      {entries.length === 0 ? (
        <p class="hint">Nothing to show.</p>
      ) : (
        <table>
          <thead class="visually-hidden">
            <tr>
              <th scope="col">Value</th>
              <th scope="col">Share</th>
              <th scope="col">Count</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([label, n]) => (
              <tr key={label} data-label={label} data-count={n}>
                <th scope="row">{label}</th>
                <td class="bar-cell">
                  <span class="bar" style={{ width: `${(n / max) * 100}%` }} />
                  <span class="visually-hidden">{total ? `${Math.round((n / total) * 100)} %` : ''}</span>
                </td>
                <td class="count">{n.toLocaleString('en')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
