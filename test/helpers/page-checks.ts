/** Accessibility checks the dashboard's browser tests run in the page (page.evaluate). */

/** Form controls without a label or an accessible name (run in the page). */
export const UNLABELLED = `[...document.querySelectorAll('input, select, textarea, button')]
  .filter((el) => el.type !== 'hidden' && !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.textContent.trim())
  .map((el) => el.outerHTML)`;

/** Visible text whose colour against its background is under 4.5:1 (WCAG AA), in the page. */
export const LOW_CONTRAST = `(() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length || el.closest('.visually-hidden')) continue;
    const style = getComputedStyle(el);
    if (el.disabled || el.closest('button:disabled')) continue; // WCAG exempts inactive controls
    const [a, b] = [lum(rgb(style.color).slice(0, 3)), lum(background(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) bad.push(el.tagName + ' ' + el.textContent.trim().slice(0, 40) + ' ' + ratio.toFixed(2));
  }
  return bad;
})()`;
