// The organiser's competition (比賽): its settings in a line, the links (the wall's, the organiser's own),
// entrants (enter by name or from the group's roster, check in, withdraw between rounds), the round: draw the
// next one (its seed shown, an optional seed and cut), its tables with their scoring links and the table cards
// PDF, start and end its clock (with the grace for the hand in play), each table's progress following the
// competition's events; and every round ended, whose tables the
// organiser may reopen for a correction (the evening then opens on this phone at its History). A read-only link
// shows the wall instead (shell/router.js). Links start where the evening's Share's do; on this computer's own address
// (127.0.0.1) the view says, as Share does, that no phone opens them.

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import * as storage from '../../storage.js';
import {clock} from '../../format/dates.js';
import {competitionDownload, competitionError, linkOrigin, organizerLink, roundClock, tableLink, wallLink}
  from '../../parts/competition_shared.js';
import {confirmDialog} from '../../parts/dialog.js';
import {busy, errorSlot, field} from '../../parts/form.js';
import {linkBlock} from '../../parts/links.js';
import {rulesetName} from '../../parts/terms.js';
import {unreachable} from '../../parts/unreachable.js';

/** The ended rounds whose tables are shown (kept while the page is open: a reopened table stays in sight). */
const opened = new Set();
/** The stream that keeps the round's tables' progress current while this view is on screen. */
let following = null;

export async function render(root, app) {
  // The rule sets name the competition's in the page's language (a phone opened by the link may have none yet).
  const [data, {origin, reachable}] = await Promise.all([app.loadCompetition(), linkOrigin(),
    app.loadRulesets().catch(() => null)]);
  if (data.access !== 'organizer') {
    app.go('wall');
    return;
  }
  following?.close();
  const redraw = () => render(root, app);
  const current = data.current_round ? data.drawn[data.current_round - 1] : null;
  const ended = data.drawn.filter((round) => round.ended_at);
  const slot = h('p', {class: 'field-error', role: 'alert', hidden: true, testid: 'comp-error'});
  const act = (button, work) => busy(button, async () => {
    slot.hidden = true;
    try {
      await work();
      await redraw();
    } catch (error) {
      slot.textContent = competitionError(error);
      slot.hidden = false;
      slot.scrollIntoView({block: 'center'});
    }
  });
  replace(root,
    h('h1', {testid: 'comp-heading'}, data.name),
    h('p', {class: 'hint', testid: 'comp-summary'}, summary(app, data)),
    reachable ? null : unreachable(), // as the evening's Share says it: these links open nothing on a phone
    slot,
    h('nav', {class: 'more'},
      h('button', {type: 'button', class: 'btn', testid: 'to-comp-standings',
        onClick: () => app.go('competition-standings')}, t('comp_standings')),
      h('button', {type: 'button', class: 'btn', testid: 'to-wall', onClick: () => app.go('wall')}, t('comp_wall')),
      h('button', {type: 'button', class: 'btn ghost', testid: 'comp-refresh', onClick: redraw}, t('comp_refresh'))),
    current ? roundCard(app, data, current, act, origin) : drawCard(app, data, act),
    entrantsCard(app, data, act, Boolean(current)),
    ended.length ? endedCard(app, data, ended, act) : null,
    linksCard(app, origin),
    h('button', {type: 'button', class: 'btn wide ghost', testid: 'comp-to-start', onClick: () => app.go('start')},
      t('other_session')));
  if (current) followTables(app, root);
}

/**
 * Each table's progress (hands, 將 done, closed) as its `table` events bring it (GET …/events), in place: the
 * rest of the view, a form being filled in included, is left alone.
 */
function followTables(app, root) {
  following?.close();
  const mine = following = api.competitionEvents(app.competition);
  mine.addEventListener('table', (event) => {
    const line = root.querySelector(`.comp-table[data-session="${CSS.escape(JSON.parse(event.data).session)}"]`);
    if (document.body.dataset.view !== 'competition' || !root.isConnected || mine !== following) {
      mine.close();
      return;
    }
    line?.querySelector('[data-testid=table-progress]')?.replaceChildren(progress(JSON.parse(event.data)));
  });
}

/** "Taiwanese · 3 rounds · until the first 將 or 90 minutes · 4/2/1/0 · Swiss · sit out · check-in". */
function summary(app, data) {
  const ruleset = (app.rulesets || []).find((r) => r.id === data.ruleset);
  const ends = data.round.until === 'jiang'
    ? (data.round.minutes ? t('comp_ends_jiang_or', {minutes: data.round.minutes}) : t('comp_ends_jiang'))
    : t('comp_ends_time', {minutes: data.round.minutes});
  const ranking = data.ranking === 'net' ? t('comp_ranking_net') : data.ranking.placement_points.join('/');
  return [ruleset ? rulesetName(ruleset) : data.ruleset, t('comp_rounds_n', {n: data.rounds}), ends, ranking,
    {swiss: t('comp_seating_swiss'), random: t('comp_seating_random'), rating: t('comp_seating_rating')}[data.seating],
    data.empty_seats === 'sit_out' ? t('comp_sit_out') : t('comp_substitutes'),
    data.check_in ? t('comp_check_in_required') : null].filter(Boolean).join(' · ');
}

// -- entrants -----------------------------------------------------------------------

function entrantsCard(app, data, act, roundOpen) {
  const names = h('textarea', {rows: 4, testid: 'entrant-names', 'aria-label': t('comp_names'),
    placeholder: t('comp_names_hint')});
  const substitute = h('input', {type: 'checkbox', testid: 'entrant-substitute'});
  const add = h('button', {type: 'button', class: 'btn primary wide', testid: 'entrants-add',
    onClick: () => act(add, () => api.competitionPost(app.competition, '/entrants',
      {names: names.value.split('\n').map((name) => name.trim()).filter(Boolean), substitute: substitute.checked}))},
  t('comp_enter'));
  // Those still in play: one who withdrew stays checked in on the server but plays no more rounds.
  const inPlay = data.entrants.filter((entrant) => !entrant.withdrawn_from);
  const entered = inPlay.length;
  const checkedIn = inPlay.filter((entrant) => entrant.checked_in).length;
  return h('section', {class: 'card', testid: 'entrants'},
    h('h2', {}, t('comp_entrants_n', {n: entered})),
    data.check_in ? h('p', {class: 'hint', testid: 'checked-in-count'},
      t('comp_checked_in_n', {n: checkedIn, of: entered})) : null,
    data.entrants.length ? h('ul', {class: 'entrant-list'},
      data.entrants.map((entrant) => entrantRow(app, data, entrant, act))) : null,
    data.group ? rosterPicker(app, data, act) : h('div', {},
      h('label', {class: 'field'}, h('span', {class: 'field-label'}, t('comp_names')), names),
      h('label', {class: 'toggle'}, substitute, h('span', {}, t('comp_as_substitutes'))), add),
    roundOpen ? h('p', {class: 'hint'}, t('comp_late_hint')) : null);
}

function entrantRow(app, data, entrant, act) {
  const ref = encodeURIComponent(entrant.entrant);
  const badges = [entrant.substitute ? t('comp_substitute') : null,
    entrant.first_round > 1 ? t('comp_from_round', {n: entrant.first_round}) : null,
    entrant.withdrawn_from ? t('comp_withdrawn_from', {n: entrant.withdrawn_from}) : null].filter(Boolean);
  const checkIn = h('button', {type: 'button', class: `btn small${entrant.checked_in ? ' on' : ''}`,
    testid: 'check-in', 'aria-pressed': String(entrant.checked_in), onClick: () => act(checkIn, () => (
      entrant.checked_in ? api.competitionDelete(app.competition, `/entrants/${ref}/check_in`)
        : api.competitionPost(app.competition, `/entrants/${ref}/check_in`)))},
  entrant.checked_in ? t('comp_checked_in') : t('comp_check_in'));
  const withdraw = h('button', {type: 'button', class: 'btn small ghost', testid: 'withdraw', onClick: async () => {
    if (!(await confirmDialog(t('comp_confirm_withdraw', {name: entrant.name}), t('comp_withdraw')))) return;
    act(withdraw, () => api.competitionDelete(app.competition, `/entrants/${ref}`));
  }}, t('comp_withdraw'));
  return h('li', {class: 'entrant', dataset: {entrant: String(entrant.entrant), name: entrant.name}},
    h('span', {class: 'entrant-name'}, entrant.name, badges.length ? h('small', {class: 'hint'}, ` ${badges.join(' · ')}`) : null),
    entrant.withdrawn_from ? null : h('span', {class: 'row'}, data.check_in ? checkIn : null, withdraw));
}

/** A group's competition: its members not yet entered, each a toggle; "Enter" enters those picked. */
function rosterPicker(app, data, act) {
  const group = storage.knownGroups()[data.group];
  if (!group) return h('p', {class: 'hint'}, t('comp_group_unknown'));
  const box = h('div', {testid: 'roster'}, h('p', {class: 'loading'}, '…'));
  api.group(group).then((found) => {
    const taken = new Set(data.entrants.map((entrant) => entrant.member));
    const members = (found.members || []).filter((member) => !taken.has(member.id));
    const picked = new Set();
    const add = h('button', {type: 'button', class: 'btn primary wide', testid: 'roster-add',
      onClick: () => act(add, () => api.competitionPost(app.competition, '/entrants', {names: [...picked]}))},
    t('comp_enter'));
    replace(box, members.length ? [h('div', {class: 'choices'}, members.map((member) => h('button', {
      type: 'button', class: 'choice', 'aria-pressed': 'false', dataset: {value: member.id}, onClick: (event) => {
        const on = !picked.has(member.id);
        if (on) picked.add(member.id);
        else picked.delete(member.id);
        event.currentTarget.classList.toggle('on', on);
        event.currentTarget.setAttribute('aria-pressed', String(on));
      }}, member.name))), add] : h('p', {class: 'hint'}, t('comp_roster_all_in')));
  }).catch((error) => replace(box, h('p', {class: 'field-error'}, competitionError(error))));
  return h('div', {}, h('h3', {}, t('comp_from_roster')), box);
}

// -- the round ----------------------------------------------------------------------

function drawCard(app, data, act) {
  const next = data.drawn.length + 1;
  if (next > data.rounds) {
    return h('section', {class: 'card', testid: 'comp-done'}, h('h2', {}, t('comp_all_played')),
      h('p', {class: 'hint'}, t('comp_all_played_hint')));
  }
  // The seed stays the digits typed, sent as a string: a Number keeps only 15-17 of a seed's 19 digits.
  const seed = h('input', {type: 'text', inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false',
    testid: 'draw-seed'});
  const cut = h('input', {type: 'number', inputmode: 'numeric', min: 4, testid: 'draw-cut'});
  const whole = (input) => (input.value.trim() === '' ? null : Number(input.value));
  const digits = (input) => (input.value.trim() === '' ? null : input.value.trim());
  const button = h('button', {type: 'button', class: 'btn primary big', testid: 'draw-round',
    onClick: () => act(button, () => api.competitionPost(app.competition, '/rounds',
      {seed: digits(seed), cut: whole(cut)}))}, t('comp_draw_n', {n: next}));
  return h('section', {class: 'card', testid: 'draw-card'}, h('h2', {}, t('comp_round_n', {n: next})),
    h('p', {class: 'hint'}, t(next === 1 && data.seating === 'rating' ? 'comp_draw_rating_hint'
      : next === 1 || data.seating === 'random' ? 'comp_draw_random_hint' : 'comp_draw_swiss_hint')),
    h('div', {class: 'row'}, field(t('comp_seed'), seed, 'seed', t('comp_seed_hint')),
      next > 1 ? field(t('comp_cut'), cut, 'cut', t('comp_cut_hint')) : null),
    errorSlot(''), button);
}

function roundCard(app, data, round, act, origin) {
  const grace = h('input', {type: 'number', inputmode: 'numeric', min: 0, value: String(data.round.grace),
    testid: 'end-grace'});
  const start = h('button', {type: 'button', class: 'btn primary big', testid: 'start-round',
    onClick: () => act(start, () => api.competitionPost(app.competition, `/rounds/${round.number}/start`))},
  t('comp_start_n', {n: round.number}));
  const end = h('button', {type: 'button', class: 'btn danger big', testid: 'end-round', onClick: async () => {
    if (!(await confirmDialog(t('comp_confirm_end', {n: round.number, minutes: grace.value || 0}),
      t('comp_end_n', {n: round.number})))) return;
    act(end, () => api.competitionPost(app.competition, `/rounds/${round.number}/end`, {grace: Number(grace.value || 0)}));
  }}, t('comp_end_n', {n: round.number}));
  return h('section', {class: 'card round-card', testid: 'round-card', dataset: {round: String(round.number)}},
    h('h2', {}, t('comp_round_n', {n: round.number})),
    h('p', {class: 'hint', testid: 'round-seed'}, t('comp_seed_shown', {seed: round.seed})),
    roundClock(round),
    outList('comp_sitting_out', round.sitting_out, 'sitting-out'),
    outList('comp_absent', round.absent || [], 'absent'),
    outList('comp_cut_out', round.cut || [], 'cut-out'),
    round.started_at ? h('div', {}, field(t('comp_grace'), grace, 'grace', t('comp_grace_hint')), end) : start,
    competitionDownload(app.competition, `tables.pdf?round=${round.number}`, t('comp_table_cards'), 'table-cards'),
    h('ol', {class: 'comp-tables', testid: 'comp-tables'}, round.tables.map((table) => tableRow(table, origin))));
}

function outList(key, names, testid) {
  return names.length ? h('p', {class: 'hint', testid}, t(key, {names: names.join('、')})) : null;
}

function progress(table) {
  return [t('comp_hands_n', {n: table.hands}), table.jiang_done ? t('comp_jiang_done') : null,
    table.closed ? t('comp_table_closed') : null].filter(Boolean).join(' · ');
}

function tableRow(table, origin) {
  const link = tableLink(table, origin);
  return h('li', {class: 'comp-table', testid: 'comp-table', dataset: {table: String(table.table), session: table.session}},
    h('h3', {}, t('comp_table_n', {n: table.table})),
    h('p', {}, table.seats.join(' · ')),
    h('p', {class: 'hint', testid: 'table-progress'}, progress(table)),
    h('input', {type: 'text', readonly: true, value: link, class: 'share-link', testid: 'table-link',
      'aria-label': t('comp_table_link', {n: table.table}), onFocus: (event) => event.target.select()}),
    h('a', {class: 'btn small', href: link, target: '_blank', rel: 'noopener', testid: 'table-open'},
      t('comp_open_table')));
}

function endedCard(app, data, ended, act) {
  return h('section', {class: 'card', testid: 'ended-rounds'}, h('h2', {}, t('comp_ended_rounds')),
    h('p', {class: 'hint'}, t('comp_correction_hint')),
    ended.slice().reverse().map((round) => h('details', {class: 'ended-round', dataset: {round: String(round.number)},
      open: opened.has(round.number), onToggle: (event) => {
        if (event.currentTarget.open) opened.add(round.number);
        else opened.delete(round.number);
      }},
      h('summary', {}, t('comp_round_ended_at', {n: round.number, time: clock(round.ended_at)})),
      h('ol', {class: 'comp-tables'}, round.tables.map((table) => {
        const reopen = h('button', {type: 'button', class: 'btn small', testid: 'reopen-table', onClick: async () => {
          if (!(await confirmDialog(t('comp_confirm_reopen', {n: table.table}), t('comp_reopen')))) return;
          act(reopen, () => api.competitionPost(app.competition, `/tables/${encodeURIComponent(table.session)}/reopen`));
        }}, t('comp_reopen'));
        const correct = h('button', {type: 'button', class: 'btn small primary', testid: 'correct-table', onClick: () => {
          // The organiser's own token: corrections after the round are its (and audited as the organiser's).
          app.open({id: table.session, token: app.competition.token, read_token: table.read_token});
          app.go('history');
        }}, t('comp_correct'));
        return h('li', {class: 'comp-table', testid: 'ended-table', dataset: {table: String(table.table)}},
          h('h3', {}, t('comp_table_n', {n: table.table})), h('p', {}, table.seats.join(' · ')),
          h('p', {class: 'hint'}, progress(table)), h('div', {class: 'row'}, table.closed ? reopen : correct));
      })))));
}

function linksCard(app, origin) {
  const wall = wallLink(app.competition, origin);
  const blocks = [];
  if (wall) {
    const {block, qr} = linkBlock(app, wall, 'wall', t('comp_wall_link'), t('comp_wall_link_note'), t('comp_wall_qr'));
    qr();
    blocks.push(block);
  }
  const own = linkBlock(app, organizerLink(app.competition, origin), 'organizer', t('comp_organizer_link'),
    t('comp_organizer_link_note'), t('comp_organizer_qr'));
  blocks.push(h('details', {class: 'card', testid: 'organizer-details', onToggle: (event) => {
    if (event.currentTarget.open) own.qr();
  }}, h('summary', {}, t('comp_organizer_link')), own.block));
  return blocks;
}
