// bench/scale.svg: one small panel per metric of `npm run bench:scale`, each against the store size
// (log scale), one line per store (file, redis). Hand-written SVG, like bench/lib/svg.mjs.
const W = 250;
const H = 170;
const PAD = { left: 52, right: 12, top: 26, bottom: 30 };
const COLUMNS = 4;
const COLORS = { file: '#1f6feb', redis: '#cf222e' };

/** metrics: [{label, value(row)}]; runs: {file?: rows, redis?: rows}, rows sorted by links. */
export function scaleSvg(metrics, runs) {
  const rows = Math.ceil(metrics.length / COLUMNS);
  const panels = metrics.map((metric, i) => panel(metric, runs, (i % COLUMNS) * W, Math.floor(i / COLUMNS) * H));
  const legend = Object.keys(runs).map((store, i) => `<g transform="translate(${12 + i * 120},${rows * H + 12})"><line x1="0" x2="24" y1="0" y2="0" stroke="${COLORS[store]}" stroke-width="2.5"/><text x="30" y="4">${store} store</text></g>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COLUMNS * W}" height="${rows * H + 24}" viewBox="0 0 ${COLUMNS * W} ${rows * H + 24}" font-family="system-ui, sans-serif" font-size="10">`,
    '<title>npm run bench:scale: each metric against the number of links in the store</title>',
    '<rect width="100%" height="100%" fill="#fff"/>',
    ...panels,
    ...legend,
    '</svg>',
  ].join('\n');
}

function panel(metric, runs, ox, oy) {
  const series = Object.entries(runs).map(([store, rows]) => [store, rows.map((row) => [row.links, metric.value(row)]).filter(([, v]) => Number.isFinite(v))]);
  const points = series.flatMap(([, p]) => p);
  if (points.length === 0) return `<g transform="translate(${ox},${oy})"><text x="${W / 2}" y="16" text-anchor="middle" font-weight="600">${metric.label}</text><text x="${W / 2}" y="${H / 2}" text-anchor="middle" fill="#57606a">not measured</text></g>`;
  const sizes = points.map(([links]) => links);
  const [lo, hi] = [Math.log10(Math.min(...sizes)), Math.log10(Math.max(...sizes))];
  const top = niceCeiling(Math.max(1e-9, ...points.map(([, v]) => v)) * 1.1);
  const x = (links) => PAD.left + (hi === lo ? 0.5 : (Math.log10(links) - lo) / (hi - lo)) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - (v / top) * (H - PAD.top - PAD.bottom);
  const grid = [0, 0.5, 1].map((f) => `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(top * f)}" y2="${y(top * f)}" stroke="#eaeef2"/><text x="${PAD.left - 4}" y="${y(top * f) + 3}" text-anchor="end">${format(top * f)}</text>`);
  const ticks = [...new Set(sizes)].map((links) => `<text x="${x(links)}" y="${H - PAD.bottom + 12}" text-anchor="middle">${short(links)}</text>`);
  const lines = series.map(([store, p]) => `<polyline fill="none" stroke="${COLORS[store]}" stroke-width="2" points="${p.map(([l, v]) => `${x(l)},${y(v)}`).join(' ')}"/>${p.map(([l, v]) => `<circle cx="${x(l)}" cy="${y(v)}" r="3" fill="${COLORS[store]}"/><text x="${x(l)}" y="${y(v) - 6}" text-anchor="middle" fill="${COLORS[store]}">${format(v)}</text>`).join('')}`);
  return [`<g transform="translate(${ox},${oy})">`, `<text x="${W / 2}" y="14" text-anchor="middle" font-weight="600">${metric.label}</text>`, ...grid, `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" stroke="#57606a"/>`, ...ticks, ...lines, '</g>'].join('\n');
}

function niceCeiling(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].map((m) => m * power).find((candidate) => candidate >= value);
}

const short = (links) => (links >= 1e6 ? `${links / 1e6}M` : links >= 1000 ? `${links / 1000}k` : String(links));
const format = (v) => (v >= 100 ? Math.round(v).toLocaleString('en') : v >= 10 ? String(Math.round(v)) : String(Math.round(v * 100) / 100));
