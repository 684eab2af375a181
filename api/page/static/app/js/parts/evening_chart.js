// The evening's running totals (走勢) on Settle and History: every player's
// total after each played hand, a line each.

import {h} from '../dom.js';
import {t, word} from '../i18n.js';
import {signed} from '../format/numbers.js';
import {linesChart} from './chart.js';

/**
 * Each of `players`' total before the first hand and after each played hand of `hands` (as GET …/hands gives
 * them): a voided hand leaves no point, a corrected one counts as it stands (reports.model's running_totals).
 */
export function runningTotals(hands, players) {
  const running = Object.fromEntries(players.map((player) => [player, [0]]));
  const played = hands.filter((hand) => !hand.void).sort((a, b) => a.number - b.number);
  for (const hand of played) {
    for (const [player, series] of Object.entries(running)) {
      series.push(series[series.length - 1] + (hand.payments?.[player] || 0));
    }
  }
  return running;
}

/** Everyone who sat during the evening `data`, in order of first appearance: the order of the chart's colours. */
export function participants(data) {
  return [...new Set([...data.players, ...(data.seat_changes || []).map((change) => change.player)])];
}

/**
 * The chart of `running` ({player: [totals]}) of the evening `data`: a line per participant, coloured in order of
 * first appearance as in the PDF and the pictures. Drawn with the view, whole: a view drawn again for another
 * phone's hand never shows an empty place where the chart was.
 */
export function eveningChart(running, data) {
  const lines = participants(data).filter((name) => running[name]).map((name) => ({name, values: running[name]}));
  if (!lines.length || lines[0].values.length < 2) return null; // no hand played yet: nothing to draw
  return h('section', {class: 'card evening-chart', testid: 'evening-chart'},
    h('h2', {}, word('hand.running_totals')), chart(lines));
}

function chart(lines) {
  const played = lines[0].values.length - 1;
  const ends = lines.map(({name, values}) => `${name} ${signed(values[values.length - 1])}`).join(', ');
  return linesChart(lines, {label: t('running_chart_label', {totals: ends}), last: word('hand.played', {played}),
    testid: 'running-chart'});
}
