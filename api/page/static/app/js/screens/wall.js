// The wall (排行榜): a competition for a projector or a TV, legible from five metres at 1920×1080 and usable on
// a phone: the round and its clock, the leaderboard, and each table's progress (hands, 將 done, closed) with the
// tables still being waited for. It follows the competition's own events (GET …/events: `round`, `table`,
// `standings`) and paints what each brings; the clock counts down on this device from the round's `ends_at`.
// Below, the organiser goes back to the competition, a spectator to the standings (their picture and sheet).

import {api} from '../api.js';
import {h, replace} from '../dom.js';
import {t} from '../i18n.js';
import {signClass, signed} from '../format/numbers.js';
import {pointsText, roundClock, tieBreaks} from '../parts/competition.js';

/** The leaderboard's rows on the wall (the whole field is in the standings). */
const WALL_ROWS = 24;
/** The one stream of the wall on screen (the route left, it is closed at the next event). */
let source = null;
let shown = null;

export async function render(root, app) {
  source?.close();
  const [data, standings] = await Promise.all([app.loadCompetition(), api.competitionStandings(app.competition)]);
  shown = {data, standings};
  const board = h('div', {class: 'wall', testid: 'wall'});
  const paint = () => paintWall(board, shown, app);
  paint();
  replace(root, board);
  const mine = source = api.competitionEvents(app.competition);
  const still = () => {
    if (document.body.dataset.view === 'wall' && board.isConnected && mine === source) return true;
    mine.close();
    return false;
  };
  mine.addEventListener('round', (event) => {
    if (!still()) return;
    shown = {...shown, data: {...shown.data, ...JSON.parse(event.data), access: shown.data.access}};
    paint();
  });
  mine.addEventListener('table', (event) => {
    if (!still()) return;
    const table = JSON.parse(event.data);
    shown.data.drawn = shown.data.drawn.map((round) => (round.number !== table.round ? round
      : {...round, tables: round.tables.map((old) => (old.session === table.session ? {...old, ...table} : old))}));
    paint();
  });
  mine.addEventListener('standings', (event) => {
    if (!still()) return;
    shown = {...shown, standings: JSON.parse(event.data)};
    paint();
  });
  mine.addEventListener('error', () => {
    if (mine.readyState === EventSource.CLOSED && still()) {
      board.prepend(h('p', {class: 'note error', testid: 'wall-offline'}, t('comp_live_stopped')));
    }
  });
}

function paintWall(board, {data, standings}, app) {
  const round = data.current_round ? data.drawn[data.current_round - 1] : data.drawn[data.drawn.length - 1];
  const byPoints = data.ranking !== 'net';
  replace(board,
    h('header', {class: 'wall-head'},
      h('h1', {testid: 'wall-title'}, data.name),
      h('p', {class: 'wall-round', testid: 'wall-round'}, round ? t('comp_round_of', {n: round.number, of: data.rounds})
        : t('comp_no_round_yet')),
      round ? roundClock(round, 'wall-clock') : null),
    h('section', {class: 'wall-board', 'aria-label': t('comp_standings')},
      h('h2', {}, t('comp_standings')),
      h('p', {class: 'wall-note'}, tieBreaks(data)),
      standings.length ? h('div', {class: 'wall-columns', 'aria-hidden': 'true'}, h('span', {}), h('span', {}),
        byPoints ? h('span', {}, t('comp_points_head')) : null, h('span', {}, t('comp_net_head'))) : null,
      standings.length ? h('ol', {class: 'wall-ranking', testid: 'wall-ranking'}, standings.slice(0, WALL_ROWS).map((row) =>
        h('li', {dataset: {entrant: String(row.entrant)}},
          h('span', {class: 'rank'}, row.rank), h('span', {class: 'wall-name'}, row.name),
          byPoints ? h('span', {class: 'wall-points'}, pointsText(row)) : null,
          h('span', {class: `wall-net ${signClass(row.net)}`}, signed(row.net)))))
        : h('p', {class: 'wall-note'}, t('comp_no_entrants'))),
    round ? tablesPart(round) : null,
    app.competition.access === 'organizer' || data.access === 'organizer'
      ? h('button', {type: 'button', class: 'btn ghost wall-back', testid: 'to-competition',
        onClick: () => app.go('competition')}, t('comp_to_competition'))
      : h('button', {type: 'button', class: 'btn ghost wall-back', testid: 'to-comp-standings',
        onClick: () => app.go('competition-standings')}, t('comp_standings')));
}

function tablesPart(round) {
  const waiting = round.tables.filter((table) => !table.closed && !table.jiang_done);
  return h('section', {class: 'wall-tables-box', 'aria-label': t('comp_tables')},
    h('h2', {}, t('comp_tables')),
    h('p', {class: 'wall-note', testid: 'wall-waiting'}, waiting.length && !round.ended_at
      ? t('comp_waiting_for', {tables: waiting.map((table) => table.table).join(', ')}) : t('comp_waiting_none')),
    h('ol', {class: 'wall-tables', testid: 'wall-tables'}, round.tables.map((table) =>
      h('li', {class: `wall-table${table.jiang_done || table.closed ? ' done' : ''}`, dataset: {table: String(table.table)}},
        h('span', {class: 'wall-table-no'}, t('comp_table_n', {n: table.table})),
        h('span', {}, t('comp_hands_n', {n: table.hands})),
        h('span', {}, table.closed ? t('comp_table_closed') : table.jiang_done ? t('comp_jiang_done')
          : t('comp_playing'))))));
}
