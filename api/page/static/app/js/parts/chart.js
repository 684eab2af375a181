// The cumulative net-money chart of a member's page, drawn as inline SVG by the
// page itself (no chart library): a line from 0 through each evening's running
// total, the zero line, the highest and lowest totals, the first and last day.

import {signed} from '../format/numbers.js';

const NS = 'http://www.w3.org/2000/svg';
const WIDTH = 360;
const HEIGHT = 200;
const PAD = {left: 62, right: 14, top: 14, bottom: 30}; // left: room for "-12000" in big text's 16 px

/** An SVG element (document.createElementNS: `h` makes HTML elements only). */
function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/**
 * `series`: [{session, name, day, net, cumulative}] in order; `label` names the
 * chart for screen readers, `dayText(day)` writes a day for the axis.
 */
export function cumulativeChart(series, {label, dayText}) {
  const totals = [0, ...series.map((point) => point.cumulative)];
  const low = Math.min(0, ...totals);
  const high = Math.max(0, ...totals);
  const span = high - low || 1;
  const x = (index) => PAD.left + (index * (WIDTH - PAD.left - PAD.right)) / Math.max(totals.length - 1, 1);
  const y = (value) => PAD.top + ((high - value) * (HEIGHT - PAD.top - PAD.bottom)) / span;
  const axisLabel = (value) => s('text', {x: PAD.left - 6, y: y(value) + 4, 'text-anchor': 'end', class: 'chart-label'},
    signed(value));
  return s('svg', {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-label': label,
    'data-testid': 'net-chart', 'data-points': series.length},
  s('line', {x1: PAD.left, x2: WIDTH - PAD.right, y1: y(0), y2: y(0), class: 'chart-zero'}),
  axisLabel(0), high > 0 ? axisLabel(high) : '', low < 0 ? axisLabel(low) : '',
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
 * A member's rating after each rated evening (`history`: [{evening, date, rating}] in order), under the net
 * chart: a dashed line in its own colour, the highest and lowest rating, the first and last day.
 */
export function ratingChart(history, {label, dayText}) {
  const values = history.map((point) => point.rating);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || 1;
  const x = (index) => PAD.left + (index * (WIDTH - PAD.left - PAD.right)) / Math.max(values.length - 1, 1);
  const y = (value) => PAD.top + ((high - value) * (HEIGHT - PAD.top - PAD.bottom)) / span;
  const axisLabel = (value) => s('text', {x: PAD.left - 6, y: y(value) + 4, 'text-anchor': 'end', class: 'chart-label'},
    value.toFixed(2));
  const first = history[0];
  const last = history[history.length - 1];
  return s('svg', {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-label': label,
    'data-testid': 'rating-chart', 'data-points': history.length},
  s('line', {x1: PAD.left, x2: WIDTH - PAD.right, y1: y(0), y2: y(0), class: 'chart-zero'}),
  axisLabel(0), high > 0 ? axisLabel(high) : '', low < 0 ? axisLabel(low) : '',
  s('polyline', {points: values.map((value, index) => `${x(index)},${y(value)}`).join(' '), class: 'chart-rating'}),
  ...history.map((point, index) => s('rect', {x: x(index) - 4, y: y(point.rating) - 4, width: 8, height: 8,
    class: 'chart-rating-point', 'data-rating': point.rating}, s('title', {}, `${dayText(point.date)}: ${point.rating.toFixed(2)}`))),
  s('text', {x: x(0), y: HEIGHT - 8, 'text-anchor': history.length > 1 ? 'middle' : 'start', class: 'chart-label'},
    dayText(first.date)),
  history.length > 1 && last.date !== first.date ? s('text', {x: x(history.length - 1), y: HEIGHT - 8,
    'text-anchor': 'end', class: 'chart-label'}, dayText(last.date)) : '');
}
