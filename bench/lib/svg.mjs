// A small hand-written SVG: throughput and p99 of the create workload against store size (log
// scale), the mock and the bare Express baseline, one panel each.
const WIDTH = 360;
const HEIGHT = 260;
const PAD = { left: 58, right: 16, top: 34, bottom: 44 };
const SERIES = [
  { key: 'mock', label: 'shortlink-mock (durable, validated)', color: '#1f6feb', dash: '' },
  { key: 'baseline', label: 'bare Express 5', color: '#6e7781', dash: '6 4' },
];

/** rows: [{links, mock: {reqPerSec, p99}, baseline: {…}}] of one workload, sorted by links. */
export function chartSvg(rows, title, workload = 'create') {
  const panels = [
    panel(rows, 'reqPerSec', `${workload}: throughput (req/s, median)`, 0),
    panel(rows, 'p99', `${workload}: p99 latency (ms, median)`, WIDTH),
  ];
  const legend = SERIES.map((s, i) => `<g transform="translate(${PAD.left + i * 280},${HEIGHT + 8})"><line x1="0" y1="0" x2="26" y2="0" stroke="${s.color}" stroke-width="2.5" stroke-dasharray="${s.dash}"/><text x="32" y="4">${s.label}</text></g>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH * 2}" height="${HEIGHT + 24}" viewBox="0 0 ${WIDTH * 2} ${HEIGHT + 24}" font-family="system-ui, sans-serif" font-size="11">`,
    `<title>${escape(title)}</title>`,
    '<rect width="100%" height="100%" fill="#fff"/>',
    ...panels,
    ...legend,
    '</svg>',
  ].join('\n');
}

function panel(rows, field, label, offsetX) {
  const sizes = rows.map((r) => r.links);
  const values = rows.flatMap((r) => SERIES.map((s) => r[s.key][field])).filter(Number.isFinite);
  const top = niceCeiling(Math.max(1, ...values) * 1.1);
  const [minLog, maxLog] = [Math.log10(Math.min(...sizes)), Math.log10(Math.max(...sizes))];
  const x = (links) => PAD.left + (maxLog === minLog ? 0.5 : (Math.log10(links) - minLog) / (maxLog - minLog)) * (WIDTH - PAD.left - PAD.right);
  const y = (value) => HEIGHT - PAD.bottom - (value / top) * (HEIGHT - PAD.top - PAD.bottom);
  const grid = [0, 0.25, 0.5, 0.75, 1].map((f) => `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(top * f)}" y2="${y(top * f)}" stroke="#eaeef2"/><text x="${PAD.left - 6}" y="${y(top * f) + 4}" text-anchor="end">${format(top * f)}</text>`);
  const ticks = sizes.map((links) => `<text x="${x(links)}" y="${HEIGHT - PAD.bottom + 16}" text-anchor="middle">${links >= 1000 ? `${links / 1000}k` : links}</text>`);
  const lines = SERIES.map((s) => {
    const other = SERIES.find((o) => o !== s).key;
    // The label goes above the point when this series is the higher one there, below otherwise.
    const points = rows.filter((r) => Number.isFinite(r[s.key][field])).map((r) => [x(r.links), y(r[s.key][field]), r[s.key][field], !(r[other][field] > r[s.key][field])]);
    const path = `<polyline fill="none" stroke="${s.color}" stroke-width="2.5" stroke-dasharray="${s.dash}" points="${points.map(([px, py]) => `${px},${py}`).join(' ')}"/>`;
    const dots = points.map(([px, py, v, above]) => `<circle cx="${px}" cy="${py}" r="3.5" fill="${s.color}"/>${pointLabel(px, py, above, format(v), s.color)}`);
    return [path, ...dots].join('');
  });
  return [
    `<g transform="translate(${offsetX},0)">`,
    `<text x="${WIDTH / 2}" y="18" text-anchor="middle" font-size="13" font-weight="600">${label}</text>`,
    ...grid,
    `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${HEIGHT - PAD.bottom}" y2="${HEIGHT - PAD.bottom}" stroke="#57606a"/>`,
    ...ticks,
    `<text x="${(PAD.left + WIDTH - PAD.right) / 2}" y="${HEIGHT - 10}" text-anchor="middle">links in the store (log scale)</text>`,
    ...lines,
    '</g>',
  ].join('\n');
}

/** Above the point, below it, or beside it when below would hit the axis. */
function pointLabel(px, py, above, text, color) {
  const axis = HEIGHT - PAD.bottom;
  if (above) return `<text x="${px}" y="${py - 8}" text-anchor="middle" fill="${color}">${text}</text>`;
  if (py + 16 <= axis - 4) return `<text x="${px}" y="${py + 16}" text-anchor="middle" fill="${color}">${text}</text>`;
  const right = px < WIDTH - PAD.right - 40;
  return `<text x="${right ? px + 7 : px - 7}" y="${py - 5}" text-anchor="${right ? 'start' : 'end'}" fill="${color}">${text}</text>`;
}

function niceCeiling(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].map((m) => m * power).find((candidate) => candidate >= value);
}

const format = (value) => (value >= 100 ? Math.round(value).toLocaleString('en') : String(Math.round(value * 10) / 10));
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
