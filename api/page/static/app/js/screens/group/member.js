// A member's page (個人): lifetime figures (each with what it rests on), the
// cumulative net money evening by evening as a chart, the rating under it with its
// history (μ − 3σ after each closed evening, ledger/ratings.py), head to head against
// every other member, the figures by rule set, and the patterns they scored
// (full entries only: a quick entry records no pattern).

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import {shortDay} from '../../format/dates.js';
import {percent, ratingText, signClass, signed} from '../../format/numbers.js';
import {cumulativeChart, ratingChart} from '../../parts/chart.js';

export async function render(root, app) {
  await Promise.all([app.loadGroup(), app.loadRulesets()]);
  const id = decodeURIComponent(location.hash.slice(1).split('/')[1] || '');
  const page = await api.member(app.group, id);
  const {overall} = page;
  replace(root, h('h1', {testid: 'member-name'}, page.member.name),
    page.member.aliases?.length ? h('p', {class: 'hint'}, t('group_aliases', {names: page.member.aliases.join(', ')}))
      : null,
    figures(overall),
    h('section', {class: 'card', testid: 'member-chart'}, h('h2', {}, t('group_chart')),
      page.series.length ? cumulativeChart(page.series, {label: t('group_chart_label', {name: page.member.name,
        total: signed(page.series[page.series.length - 1].cumulative)}), dayText: shortDay})
        : h('p', {class: 'hint'}, t('group_no_evenings'))),
    rating(page),
    headToHead(app, page.head_to_head),
    byRuleset(app, page.by_ruleset),
    patterns(page, patternNames(app.rulesets)),
    h('nav', {class: 'more'},
      h('button', {type: 'button', class: 'btn wide', testid: 'nav-standings', onClick: () => app.go('standings')},
        t('group_standings')),
      h('button', {type: 'button', class: 'btn wide ghost', testid: 'to-group', onClick: () => app.go('group')},
        t('group_to_home'))));
}

/** The rating now, what it rests on, and its history as a chart (none before a closed evening). */
function rating(page) {
  const rated = page.rating;
  return h('section', {class: 'card', testid: 'member-rating'}, h('h2', {}, t('group_rating')),
    rated ? [h('p', {class: 'member-rating-now', testid: 'rating-now'}, ratingText(rated.rating)),
      h('p', {class: 'hint'}, t('group_rating_rests_on', {games: rated.games, mu: rated.mu.toFixed(2),
        sigma: rated.sigma.toFixed(2)})),
      ratingChart(rated.history, {label: t('group_rating_chart_label', {name: page.member.name,
        rating: ratingText(rated.rating)}), dayText: shortDay})]
      : h('p', {class: 'hint', testid: 'rating-none'}, t('group_rating_none')));
}

/** The standings row of the member, figure by figure. */
function figures(row) {
  const items = [
    ['net', t('group_net'), h('span', {class: signClass(row.net)}, signed(row.net))],
    ['evenings', t('group_evenings_played'), row.evenings],
    ['hands', t('group_hands'), row.hands],
    ['wins', t('group_wins'), t('group_of_hands', {count: row.wins, rate: percent(row.win_rate)})],
    ['self_draws', t('group_self_draws'), row.self_draws],
    ['deal_ins', t('group_deal_ins'), t('group_of_hands', {count: row.deal_ins, rate: percent(row.deal_in_rate)})],
    ['average', t('group_average_per_win'), (row.average_per_win || []).length
      ? row.average_per_win.map((item) => t('group_average', {average: item.average, unit: unitWord(item.unit),
        wins: item.wins})).join(' · ') : '–'],
    ['biggest', t('group_biggest_hand'), row.biggest_hand
      ? `${row.biggest_hand.value} ${unitWord(row.biggest_hand.unit)}` : '–'],
    ['streak', t('group_longest_streak'), streakText(row.longest_dealer_streak)],
  ];
  return h('section', {class: 'card', testid: 'member-figures'},
    h('dl', {class: 'figures'}, items.map(([key, term, value]) => [h('dt', {}, term),
      h('dd', {dataset: {figure: key}}, value)])),
    h('p', {class: 'hint'}, t('group_figures_rest_on', {hands: row.hands, full: row.full_hands ?? 0,
      quick: row.quick_hands ?? 0})));
}

/** The longest streak as the table says it (連n, the dealer badge while that hand was played); "–" never dealt. */
function streakText(streak) {
  return streak === null || streak === undefined ? '–' : t('streak_n', {n: streak});
}

function unitWord(unit) {
  return t(`unit_${unit}`);
}

function headToHead(app, rows) {
  return h('section', {class: 'card', testid: 'head-to-head'}, h('h2', {}, t('group_head_to_head')),
    rows.length ? h('ul', {class: 'plain-list'}, rows.map((row) => h('li', {dataset: {member: row.name}},
      h('button', {type: 'button', class: 'btn link', onClick: () => app.go(`member/${encodeURIComponent(row.member)}`)},
        row.name),
      h('span', {class: `amount ${signClass(row.net)}`}, signed(row.net)))))
      : h('p', {class: 'hint'}, t('group_no_head_to_head')));
}

/** The figures by rule set, only when the member played under more than one. */
function byRuleset(app, rows) {
  const entries = Object.entries(rows || {});
  if (entries.length < 2) return null;
  const nameOf = (id) => (app.rulesets || []).find((ruleset) => ruleset.id === id)?.name || id;
  return h('section', {class: 'card', testid: 'by-ruleset'}, h('h2', {}, t('group_by_ruleset')),
    h('ul', {class: 'plain-list'}, entries.map(([id, row]) => h('li', {},
      h('span', {}, nameOf(id), h('span', {class: 'hint'}, ` · ${t('group_evenings_hands', {evenings: row.evenings,
        hands: row.hands})}`)),
      h('span', {class: `amount ${signClass(row.net)}`}, signed(row.net))))));
}

/**
 * A pattern's Chinese name (never translated) by its rule set: one id names a different pattern in each
 * (dragon_pung is taiwan's 三元台, shanghai's 字牌碰/字暗刻); a pattern a table switched on from the sibling rule
 * set is named as there.
 */
function patternNames(rulesets) {
  const byRuleset = Object.fromEntries((rulesets || []).map((ruleset) => [ruleset.id,
    Object.fromEntries(ruleset.patterns.map((pattern) => [pattern.id, pattern.name]))]));
  const anywhere = Object.assign({}, ...Object.values(byRuleset).reverse());
  return (item) => byRuleset[item.ruleset]?.[item.pattern] || anywhere[item.pattern] || item.pattern;
}

/** The API's rows by rule set, one line per name (門清 of taiwan and of taiwan_zz is one line), most first. */
function patternLines(list, nameOf) {
  const counts = new Map();
  for (const item of list) counts.set(nameOf(item), (counts.get(nameOf(item)) || 0) + item.count);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

function patterns(page, nameOf) {
  const lines = patternLines(page.patterns || [], nameOf);
  return h('section', {class: 'card', testid: 'member-patterns'}, h('h2', {}, t('group_patterns')),
    lines.length ? h('ul', {class: 'plain-list'}, lines.map(([name, count]) => h('li', {},
      h('span', {class: 'pattern-name'}, name), h('span', {class: 'amount'}, `× ${count}`))))
      : null,
    h('p', {class: 'hint'}, t('group_patterns_rest_on', {full: page.full_hands ?? page.overall.full_hands ?? 0})));
}
