// The wall (排行榜): a competition for a projector or a TV, legible from five metres at 1920×1080 and usable on
// a phone: the round and its clock, the leaderboard, and each table's progress (hands, 將 done, closed) with the
// tables still being waited for. It follows the competition's own events (GET …/events: `round`, `table`,
// `standings`) and paints what each brings; the clock counts down on this device from the round's `ends_at`.
// Below, the organiser goes back to the competition, a spectator to the standings (their picture and sheet).
// On a wide screen the wall is one screen high and shows the whole field in pages that turn by themselves
// (as many rows as fit, measured; "Ranks 25–48 of 800 · page 2 of 34" says which); a phone scrolls instead.

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import {signClass, signed} from '../../format/numbers.js';
import {pointsText, roundClock, tieBreaks} from '../../parts/competition_shared.js';

/** Seconds a page of the leaderboard and of the tables stays on a wide wall before the next one. */
const PAGE_S = 8;
/** From this width the wall is a projector's: one screen high, its lists in pages (app.css says the same). */
const WIDE = '(min-width: 1000px)';
/** The one stream of the wall on screen (the route left, it is closed at the next event). */
let source = null;
let shown = null;
/** Where each paged list's page begins and its number (by its testid), kept while the wall repaints. */
let starts = {};
let numbers = {};
let turning = null;

export async function render(root, app) {
  source?.close();
  const [data, standings] = await Promise.all([app.loadCompetition(), api.competitionStandings(app.competition)]);
  shown = {data, standings};
  const board = h('div', {class: 'wall', testid: 'wall'});
  const paint = () => {
    paintWall(board, shown, app);
    turnPages(board);
  };
  paintWall(board, shown, app);
  replace(root, board);
  requestAnimationFrame(() => turnPages(board)); // once on the screen: its lists' boxes have their size
  document.fonts.ready.then(() => turnPages(board));
  clearInterval(turning);
  starts = {};
  numbers = {};
  turning = setInterval(() => {
    if (!board.isConnected) {
      clearInterval(turning);
      return;
    }
    turnPages(board, true);
  }, PAGE_S * 1000);
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
      standings.length ? h('ol', {class: 'wall-ranking wall-paged', testid: 'wall-ranking',
        dataset: {words: 'comp_wall_ranks'}}, standings.map((row) =>
        h('li', {dataset: {entrant: String(row.entrant)}, class: row.withdrawn ? 'withdrawn' : null},
          h('span', {class: 'rank'}, row.rank), h('span', {class: 'wall-name'}, row.name,
            row.withdrawn ? h('small', {class: 'wall-withdrawn'}, ` ${t('comp_withdrawn')}`) : null),
          byPoints ? h('span', {class: 'wall-points'}, pointsText(row)) : null,
          h('span', {class: `wall-net ${signClass(row.net)}`}, signed(row.net)))))
        : h('p', {class: 'wall-note'}, t('comp_no_entrants')),
      h('p', {class: 'wall-page', testid: 'wall-ranking-page', hidden: true})),
    round ? tablesPart(round) : null,
    app.competition.access === 'organizer' || data.access === 'organizer'
      ? h('button', {type: 'button', class: 'btn ghost wall-back', testid: 'to-competition',
        onClick: () => app.go('competition')}, t('comp_to_competition'))
      : h('button', {type: 'button', class: 'btn ghost wall-back', testid: 'to-comp-standings',
        onClick: () => app.go('competition-standings')}, t('comp_standings')));
}

/** More tables than this still playing are counted, not listed (200 numbers would fill the wall). */
const WAITING_NAMED = 12;

window.addEventListener('resize', () => {
  const board = document.querySelector('[data-testid=wall]');
  if (board) turnPages(board);
});

function tablesPart(round) {
  const waiting = round.tables.filter((table) => !table.closed && !table.jiang_done);
  return h('section', {class: 'wall-tables-box', 'aria-label': t('comp_tables')},
    h('h2', {}, t('comp_tables')),
    h('p', {class: 'wall-note', testid: 'wall-waiting'}, !waiting.length || round.ended_at ? t('comp_waiting_none')
      : waiting.length > WAITING_NAMED ? t('comp_waiting_count', {n: waiting.length})
        : t('comp_waiting_for', {tables: waiting.map((table) => table.table).join(', ')})),
    h('ol', {class: 'wall-tables wall-paged', testid: 'wall-tables', dataset: {words: 'comp_wall_tables'}},
      round.tables.map((table) =>
      h('li', {class: `wall-table${table.jiang_done || table.closed ? ' done' : ''}`, dataset: {table: String(table.table)}},
        h('span', {class: 'wall-table-no'}, t('comp_table_n', {n: table.table})),
        h('span', {}, `${t('comp_hands_n', {n: table.hands})} · ${table.closed ? t('comp_table_closed')
          : table.jiang_done ? t('comp_jiang_done') : t('comp_playing')}`)))),
    h('p', {class: 'wall-page', testid: 'wall-tables-page', hidden: true}));
}

/**
 * On a wide wall each list shows a page of its items from where its last page ended (`starts`), as many as its
 * box holds (measured: the first item whose bottom passes the box's ends the page), and the line below says
 * which; `advance` turns to the next page. Measured each time, so a late font or a resize never skips anyone.
 * On a phone, every item.
 */
function turnPages(board, advance = false) {
  if (!board.isConnected) return;
  const wide = window.matchMedia(WIDE).matches;
  for (const list of board.querySelectorAll('.wall-paged')) {
    const items = [...list.children];
    const line = list.parentElement.querySelector('.wall-page');
    const key = list.dataset.testid;
    if (!wide) {
      items.forEach((item) => { item.hidden = false; });
      line.hidden = true;
      continue;
    }
    line.hidden = false; // measured with the line below the list in its place, worded (an empty one is flat)
    if (!line.textContent) {
      line.textContent = t(list.dataset.words, {from: 1, to: items.length, of: items.length, page: 1, pages: 1});
    }
    let start = (starts[key] || 0) < items.length ? starts[key] || 0 : 0;
    let page = start ? numbers[key] || 1 : 1;
    let fit = pageFrom(list, items, start);
    if (advance && fit < items.length) {
      [start, page] = start + fit >= items.length ? [0, 1] : [start + fit, page + 1];
      fit = pageFrom(list, items, start);
    }
    starts[key] = start;
    numbers[key] = page;
    if (fit >= items.length) {
      line.hidden = true;
      continue;
    }
    // Counted as they turn: the last page may hold fewer rows, and a long name may take two lines.
    const pages = page + Math.ceil((items.length - start - fit) / fit);
    line.textContent = t(list.dataset.words, {from: start + 1, to: Math.min(items.length, start + fit),
      of: items.length, page, pages});
  }
}

/** Show `items` from `start` as far as `list`'s box holds them and hide the others; how many are shown. */
function pageFrom(list, items, start) {
  items.forEach((item, index) => { item.hidden = index < start; });
  const bottom = list.getBoundingClientRect().bottom + 1;
  const over = items.findIndex((item, index) => index >= start && item.getBoundingClientRect().bottom > bottom);
  const fit = over === -1 ? items.length - start : Math.max(1, over - start);
  items.forEach((item, index) => { item.hidden = index < start || index >= start + fit; });
  return start === 0 && over === -1 ? items.length : fit;
}
