/**
 * A horizontal bar chart of counts, readable as a table by screen readers and by the tests. Labels
 * stay on one line, cut short with an ellipsis past the room they have (the whole label, or its
 * `titles` entry, on hover), so a long one never widens the page.
 */
export function BarChart({
  title,
  counts,
  titles = {},
}: {
  title: string;
  counts: Record<string, number>;
  titles?: Record<string, string>;
}) {
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
                <th scope="row" title={titles[label] ?? label}>
                  <span class="label">{label}</span>
                </th>
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
