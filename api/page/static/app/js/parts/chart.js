// The page's charts, drawn as inline SVG from the data (no chart library): a
// member's cumulative net money (a line from 0 through each evening's running
// total), and an evening's running totals (a line per player, its name at its
// end, in the colours of the PDF and the pictures, reports/chart.py).

import {signed} from '../format/numbers.js';

const NS = 'http://www.w3.org/2000/svg';
const WIDTH = 360;
const HEIGHT = 200;
const PAD = {left: 62, right: 14, top: 14, bottom: 30}; // left: room for "-12000" in big text's 16 px
/** Okabe & Ito's colours for colour-blind readers, as reports/chart.py's PALETTE_HEX (tests/reports/test_chart.py). */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
const NARROW = 300; // the evening's chart: narrower than the member's, so that its names stay large at 320 px
const NAME_SIZE = 14;
const NAME_GAP = 16; // between two names at the line ends, in the chart's units
const MAX_NAME = 9; // characters of a name at a line end; longer ones are cut with …

/** An SVG element (document.createElementNS: `h` makes HTML elements only). */
function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/**
 * Where `count` points of `values` land in a chart `width` wide, `right` on the right; 0 always in sight, and the
 * axis's values written by `format`.
 */
function frame(values, count, right = PAD.right, width = WIDTH, format = signed) {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || 1;
  const x = (index) => PAD.left + (index * (width - PAD.left - right)) / Math.max(count - 1, 1);
  const y = (value) => PAD.top + ((high - value) * (HEIGHT - PAD.top - PAD.bottom)) / span;
  const axisLabel = (value) => s('text', {x: PAD.left - 6, y: y(value) + 4, 'text-anchor': 'end', class: 'chart-label'},
    format(value));
  const axis = [s('line', {x1: PAD.left, x2: width - right, y1: y(0), y2: y(0), class: 'chart-zero'}),
    axisLabel(0), high > 0 ? axisLabel(high) : '', low < 0 ? axisLabel(low) : ''];
  return {x, y, axis};
}

/**
 * `series`: [{session, name, day, net, cumulative}] in order; `label` names the
 * chart for screen readers, `dayText(day)` writes a day for the axis.
 */
export function cumulativeChart(series, {label, dayText}) {
  const totals = [0, ...series.map((point) => point.cumulative)];
  const {x, y, axis} = frame(totals, totals.length);
  return s('svg', {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-label': label,
    'data-testid': 'net-chart', 'data-points': series.length},
  ...axis,
  s('polyline', {points: totals.map((value, index) => `${x(index)},${y(value)}`).join(' '), class: 'chart-line'}),
  ...series.map((point, index) => s('circle', {cx: x(index + 1), cy: y(point.cumulative), r: 4,
    class: `chart-point ${point.cumulative < 0 ? 'minus' : 'plus'}`, 'data-cumulative': point.cumulative},
  s('title', {}, `${point.name} · ${dayText(point.day)}: ${signed(point.net)} → ${signed(point.cumulative)}`))),
  series.length ? s('text', {x: x(1), y: HEIGHT - 8, 'text-anchor': 'middle',
    class: 'chart-label'}, dayText(series[0].day)) : '',
  series.length > 1 && series[series.length - 1].day !== series[0].day ? s('text', {x: x(series.length), y: HEIGHT - 8, 'text-anchor': 'end', class: 'chart-label'},
    dayText(series[series.length - 1].day)) : '');
}

/**
 * Heights as close to `wanted` as they can be while at least `gap` apart, within `low`..`high` if they fit
 * (reports/chart.py's `spread`): the names at the line ends never stand on each other.
 */
export function spread(wanted, gap, low, high) {
  const order = wanted.map((_, index) => index).sort((a, b) => wanted[a] - wanted[b]);
  const placed = [...wanted];
  let floor = low;
  for (const index of order) {
    placed[index] = floor = Math.max(placed[index], floor);
    floor += gap;
  }
  let ceiling = high;
  for (const index of order.reverse()) {
    placed[index] = ceiling = Math.min(placed[index], ceiling);
    ceiling -= gap;
  }
  return placed;
}

/** `name`, cut with … past `MAX_NAME` characters. */
function short(name) {
  const letters = [...name];
  return letters.length > MAX_NAME ? `${letters.slice(0, MAX_NAME - 1).join('')}…` : name;
}

/** A name's width in the chart's units, in the page's font. */
function nameWidth(name) {
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = `${NAME_SIZE}px ${getComputedStyle(document.body).fontFamily}`;
  return measure.measureText(name).width;
}

/**
 * `lines`: [{name, values}], the values at x = 0, 1, 2, …; each line in its colour (dashed once the colours come
 * round), its name at its end. `label` names the chart for screen readers, `last` writes the x axis's end.
 */
export function linesChart(lines, {label, last, testid}) {
  const names = lines.map((line) => short(line.name));
  const right = 12 + Math.max(...names.map(nameWidth));
  const count = Math.max(...lines.map((line) => line.values.length));
  const {x, y, axis} = frame(lines.flatMap((line) => line.values), count, right, NARROW);
  const ends = lines.map((line) => y(line.values[line.values.length - 1]));
  const heights = spread(ends, NAME_GAP, PAD.top, HEIGHT - PAD.bottom);
  const end = x(count - 1);
  return s('svg', {viewBox: `0 0 ${NARROW} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-label': label,
    'data-testid': testid},
  ...axis,
  s('text', {x: PAD.left, y: HEIGHT - 8, 'text-anchor': 'middle', class: 'chart-label'}, '0'),
  s('text', {x: end, y: HEIGHT - 8, 'text-anchor': 'end', class: 'chart-label'}, last),
  ...lines.map((line, index) => s('g', {class: 'chart-series', 'data-player': line.name,
    'data-values': line.values.join(' ')},
  s('polyline', {points: line.values.map((value, i) => `${x(i)},${y(value)}`).join(' '), class: 'chart-run',
    stroke: PALETTE[index % PALETTE.length], 'stroke-dasharray': index < PALETTE.length ? 'none' : '6 3'}),
  s('line', {x1: end, y1: ends[index], x2: end + 6, y2: heights[index], stroke: PALETTE[index % PALETTE.length],
    class: 'chart-leader'}),
  s('text', {x: end + 8, y: heights[index] + 5, 'font-size': NAME_SIZE, class: 'chart-name'}, names[index]),
  s('title', {}, `${line.name}: ${signed(line.values[line.values.length - 1])}`))));
}

/**
 * A member's rating after each rated evening (`history`: [{evening, date, rating}] in order), under the net
 * chart: a dashed line in its own colour, the highest and lowest rating, the first and last day.
 */
export function ratingChart(history, {label, dayText}) {
  const values = history.map((point) => point.rating);
  const {x, y, axis} = frame(values, values.length, PAD.right, WIDTH, (value) => value.toFixed(2));
  const first = history[0];
  const last = history[history.length - 1];
  return s('svg', {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-label': label,
    'data-testid': 'rating-chart', 'data-points': history.length},
  ...axis,
  s('polyline', {points: values.map((value, index) => `${x(index)},${y(value)}`).join(' '), class: 'chart-rating'}),
  ...history.map((point, index) => s('rect', {x: x(index) - 4, y: y(point.rating) - 4, width: 8, height: 8,
    class: 'chart-rating-point', 'data-rating': point.rating}, s('title', {}, `${dayText(point.date)}: ${point.rating.toFixed(2)}`))),
  s('text', {x: x(0), y: HEIGHT - 8, 'text-anchor': history.length > 1 ? 'middle' : 'start', class: 'chart-label'},
    dayText(first.date)),
  history.length > 1 && last.date !== first.date ? s('text', {x: x(history.length - 1), y: HEIGHT - 8,
    'text-anchor': 'end', class: 'chart-label'}, dayText(last.date)) : '');
}
