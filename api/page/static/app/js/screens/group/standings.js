// A group's standings (排名): members ranked by net money over a period picked
// with a switch (all time, this year, or one of the group's seasons), each row
// with what it rests on (evenings, hands), its rating over the same period (μ − 3σ of
// the closed evenings, GET …/ratings) and the member's page a tap away.

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import {shortDay} from '../../format/dates.js';
import {percent, ratingText, signClass, signed} from '../../format/numbers.js';
import {choices} from '../../parts/form.js';
import {groupDownload, groupError, groupPicture} from '../../parts/group_shared.js';

/** The period on screen: 'all', 'year' or 'season:<id>' (kept while the page is open). */
let period = 'all';

export async function render(root, app) {
  const data = await app.loadGroup();
  const seasons = data.seasons || [];
  if (period.startsWith('season:') && !seasons.some((season) => `season:${season.id}` === period)) period = 'all';
  const periods = h('div', {});
  const box = h('div', {class: 'standings-box', testid: 'standings-box'});
  const show = async () => {
    replace(periods, periodSwitch(seasons, show));
    await load(app, box, seasons);
  };
  const files = h('div', {class: 'downloads'},
    groupPicture(app, () => `standings.png${periodQuery(seasons)}`, 'share-card'),
    groupDownload(app, () => `report.pdf${periodQuery(seasons)}`, t('group_sheet'), 'group-pdf', 'primary big'),
    groupDownload(app, () => `standings.csv${periodQuery(seasons)}`, t('group_standings_csv'), 'standings-csv'));
  replace(root, h('h1', {}, t('group_standings')), periods, box, files,
    h('button', {type: 'button', class: 'btn wide ghost', testid: 'to-group', onClick: () => app.go('group')},
      t('group_to_home')));
  await show();
}

function periodSwitch(seasons, onChange) {
  const year = new Date().getFullYear();
  return h('fieldset', {}, h('legend', {}, t('group_period')),
    choices([{value: 'all', label: t('group_all_time')}, {value: 'year', label: t('group_this_year', {year})},
      ...seasons.map((season) => ({value: `season:${season.id}`, label: season.name, sub: `${shortDay(season.from)} – ${shortDay(season.to)}`}))],
    {selected: [period], testid: 'period', onPick: (value) => { period = value; onChange(); }}));
}

/** `?from=&to=` of the period (a season by its dates, this year in the phone's calendar), '' for all time. */
function periodQuery(seasons) {
  if (period === 'year') {
    const year = new Date().getFullYear();
    return `?from=${year}-01-01&to=${year}-12-31`;
  }
  const season = seasons.find((candidate) => `season:${candidate.id}` === period);
  return season ? `?from=${season.from}&to=${season.to}` : '';
}

async function load(app, box, seasons) {
  const asked = period;
  replace(box, h('p', {class: 'loading'}, '…'));
  let answer;
  try {
    answer = await api.standings(app.group, periodQuery(seasons));
  } catch (error) {
    replace(box, h('p', {class: 'note error', testid: 'standings-error'}, groupError(error)));
    return;
  }
  if (asked !== period) return; // another period was picked meanwhile
  box.dataset.period = period;
  replace(box, answer.standings.length ? h('ol', {class: 'ranking', testid: 'ranking'},
    answer.standings.map((row, index) => standingRow(app, row, index)))
    : h('p', {class: 'hint', testid: 'standings-empty'}, t('group_no_standings')));
}

function standingRow(app, row, index) {
  return h('li', {dataset: {member: row.member, net: String(row.net)}},
    h('button', {type: 'button', class: 'ranking-row', testid: 'standing',
      onClick: () => app.go(`member/${encodeURIComponent(row.member)}`)},
    h('span', {class: 'rank'}, index + 1), h('span', {class: 'ranking-name'}, row.name),
    h('span', {class: `amount ${signClass(row.net)}`}, signed(row.net)),
    h('span', {class: 'ranking-line hint'}, t('group_standing_line', {evenings: row.evenings, hands: row.hands,
      wins: row.wins, win_rate: percent(row.win_rate), deal_in_rate: percent(row.deal_in_rate)})),
    h('span', {class: 'ranking-line ranking-rating', testid: 'standing-rating'},
      t('group_rating_line', {rating: ratingText(row.rating)}))));
}
