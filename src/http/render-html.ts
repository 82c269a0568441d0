/**
 * `format=html`: the JSON record pretty-printed in a page. Inside <pre> text only `&`, `<` and
 * `>` can start markup, so those are escaped (a stored value such as `<script>` stays text).
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export function renderHtml(value: unknown): string {
  const json = JSON.stringify(value, null, 2).replace(/[&<>]/g, (c) => ESCAPES[c]!);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Mailsure</title></head><body><pre>${json}</pre></body></html>`;
}
