// A competition's standings (排名): every entrant ranked, with points, net money and the tie-breaks stated;
// tapping an entrant opens their history (each round: table, wind, opponents, net, place, points, or sat out),
// from the standings rows' `rounds`. The organiser and the read-only link both see it, and both may share the
// standings as a picture for the chat, download the results sheet (PDF) and the standings (CSV).

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t, windName} from '../../i18n.js';
import {decimal, signClass, signed} from '../../format/numbers.js';
import {competitionDownload, competitionPicture, pointsWords, resultsSheet, tieBreaks} from '../../parts/competition_shared.js';

export async function render(root, app) {
  const [data, standings] = await Promise.all([app.loadCompetition(), api.competitionStandings(app.competition)]);
  const byPoints = data.ranking !== 'net';
  replace(root, h('h1', {}, t('comp_standings_of', {name: data.name})),
    h('p', {class: 'hint', testid: 'tie-breaks'}, tieBreaks(data)),
    standings.length ? h('ol', {class: 'comp-standings', testid: 'comp-standings'},
      standings.map((row) => standingRow(row, byPoints)))
      : h('p', {class: 'hint', testid: 'comp-standings-empty'}, t('comp_no_entrants')),
    h('div', {class: 'downloads'},
      competitionPicture(app, app.competition, data.name, 'comp-standings-picture'),
      resultsSheet(app.competition, 'comp-results-pdf'),
      competitionDownload(app.competition, 'standings.csv', t('comp_standings_csv'), 'comp-standings-csv')),
    h('nav', {class: 'more'},
      data.access === 'organizer' ? h('button', {type: 'button', class: 'btn wide', testid: 'to-competition',
        onClick: () => app.go('competition')}, t('comp_to_competition')) : null,
      h('button', {type: 'button', class: 'btn wide', testid: 'to-wall', onClick: () => app.go('wall')},
        t('comp_wall'))));
}

function standingRow(row, byPoints) {
  return h('li', {class: 'comp-standing', dataset: {entrant: String(row.entrant), name: row.name}},
    h('details', {testid: 'comp-standing'},
      h('summary', {class: 'ranking-row'},
        h('span', {class: 'rank'}, row.rank),
        h('span', {class: 'ranking-name'}, row.name, row.withdrawn ? h('small', {class: 'hint'}, ` ${t('comp_withdrawn')}`) : null),
        byPoints ? h('span', {class: 'comp-points', testid: 'points'}, pointsWords(row.points_exact)) : null,
        h('span', {class: `amount ${signClass(row.net)}`, testid: 'net'}, signed(row.net))),
      h('ol', {class: 'comp-history', testid: 'comp-history'}, row.rounds.map((line) => historyLine(line, byPoints)))));
}

function historyLine(line, byPoints) {
  if (line.sat_out) return h('li', {}, t('comp_history_sat_out', {n: line.round}));
  const where = t('comp_history_table', {n: line.round, table: line.table, wind: windName(line.wind)});
  const against = t('comp_history_opponents', {names: line.opponents.join('、')});
  const result = line.played ? [t('comp_history_place', {place: decimal(line.place)}),
    byPoints ? pointsWords(line.points_exact) : null, signed(line.net)].filter(Boolean).join(' · ')
    : t('comp_history_not_played');
  return h('li', {}, h('strong', {}, where), ' ', against, h('br', {}), h('span', {class: line.played ? signClass(line.net) : 'hint'}, result));
}
