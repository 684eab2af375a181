// Change seat (換人 / 替補): from the next hand on, a new player (or one who
// left earlier) sits in one of the four seats; the seat keeps its place in the
// dealer rotation. In a group evening the substitute is a member: one tap on
// the group's roster, or a guest added to it here (issue 29 item 6).

import {api, ApiError} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t, windName} from '../../i18n.js';
import * as storage from '../../storage.js';
import {seatWind} from '../../tiles.js';
import {signed} from '../../format/numbers.js';
import {seatsOf} from '../../format/seats.js';
import {against, sendAgainst} from '../../parts/conflict.js';
import {busy, canonicalField, choices, clearErrors, errorSlot, field, showError} from '../../parts/form.js';
import {groupError} from '../../parts/group_shared.js';

let draft = {seat: null, player: ''};

export async function render(root, app) {
  const data = await app.loadSession();
  const roster = await loadRoster(app);
  const base = against(app); // the table this change is made against
  const seats = seatsOf(data);
  const dealerIndex = seats.indexOf(data.state.dealer);
  const form = h('form', {class: 'entry', testid: 'seat-form', novalidate: true});
  const paint = () => replace(form,
    h('section', {class: 'step'}, h('h2', {}, t('which_seat')),
      choices(seats.map((player, index) => ({value: index, label: player,
        sub: windName(seatWind(index, dealerIndex))})), {
        selected: [draft.seat], testid: 'pick-seat', onPick: (seat) => { draft.seat = seat; paint(); },
      }), errorSlot('seat')),
    h('section', {class: 'step'}, h('h2', {}, t('who_sits_down')),
      field(t('player_name'), h('input', {type: 'text', value: draft.player, testid: 'seat-player', maxlength: 40,
        autocomplete: 'off', onInput: (event) => { draft.player = event.target.value; }}), 'player'),
      returning(data, seats, paint),
      roster ? rosterPicker(roster, data, paint) : null),
    h('div', {class: 'submit-row'}, errorSlot(''),
      h('button', {type: 'button', class: 'btn ghost', onClick: () => { draft = {seat: null, player: ''}; app.go('table'); }},
        t('cancel')),
      h('button', {type: 'submit', class: 'btn primary big', testid: 'seat-submit'}, t('change_seat'))));
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(form.querySelector('[data-testid="seat-submit"]'), () => submit(app, form, base, roster));
  };
  paint();
  replace(root, h('h1', {}, t('change_seat')), h('p', {class: 'hint'}, t('change_seat_hint')), form);
}

/** Players who left earlier can come back with one tap. */
function returning(data, seats, paint) {
  const away = Object.keys(data.totals).filter((name) => !seats.includes(name));
  if (!away.length) return null;
  return h('div', {class: 'returning'}, h('span', {class: 'field-label'}, t('coming_back')),
    away.map((name) => h('button', {type: 'button', class: 'btn small', onClick: () => { draft.player = name; paint(); }},
      `${name} ${signed(data.totals[name])}`)));
}

/** The group of a group evening and its roster, when this phone holds one of the group's links; else null. */
async function loadRoster(app) {
  const id = app.session.group || app.data?.group;
  const group = id ? storage.knownGroups()[id] : null;
  if (!group) return null;
  try {
    return {group, members: (await api.group(group)).members};
  } catch {
    return null; // offline, or a link that no longer opens it: the name is typed as before
  }
}

/**
 * The roster's members who have not played tonight (those who have are under "coming back"), one tap each,
 * and "add a guest" (a new member, chosen at once).
 */
function rosterPicker(roster, data, paint) {
  const free = roster.members.filter((member) => !(member.name in data.totals));
  const box = h('div', {class: 'guest', testid: 'seat-guest'});
  const input = h('input', {type: 'text', testid: 'seat-guest-name', maxlength: 40, autocomplete: 'off',
    placeholder: t('group_guest_name'), 'aria-label': t('group_guest_name')});
  const add = h('button', {type: 'button', class: 'btn', testid: 'seat-add-guest', onClick: () => busy(add, async () => {
    clearErrors(box);
    const name = input.value.trim();
    if (!name) return showError(box, {field: 'guest', message: t('group_need_guest_name')});
    try {
      const member = await api.addMember(roster.group, {name});
      roster.members.push(member);
      draft.player = member.name;
      paint();
    } catch (error) {
      showError(box, {field: 'guest', message: groupError(error)});
    }
  })}, t('group_add'));
  box.append(h('span', {class: 'field-label'}, t('group_add_guest')), h('div', {class: 'row'}, input, add),
    errorSlot('guest'));
  return h('div', {class: 'seat-roster'},
    h('span', {class: 'field-label'}, t('seat_from_roster')),
    free.length ? choices(free.map((member) => ({value: member.name, label: member.name})), {
      selected: [draft.player], testid: 'seat-roster', onPick: (name) => { draft.player = name; paint(); }})
      : h('p', {class: 'hint'}, t('group_no_members')),
    roster.group.access !== 'read' ? box : null);
}

async function submit(app, form, base, roster) {
  clearErrors(form);
  if (draft.seat === null) return showError(form, {message: t('need_seat'), field: 'seat'});
  const body = {seat: draft.seat, player: draft.player.trim()};
  try {
    const done = await sendAgainst(app, base, (revision) => api.changeSeat(app.session, body, revision),
      t('what_seat', {player: body.player}));
    if (done) app.toast(t('seat_changed', {player: body.player}), 'ok');
  } catch (error) {
    // A group evening's substitute who is no member: say that, not which field was refused.
    if (error instanceof ApiError && error.status === 422 && canonicalField(error.field) === 'player'
        && (app.session.group || app.data?.group)
        && !(roster?.members || []).some((member) => member.name === body.player)) {
      return showError(form, {field: 'player', message: t('seat_not_member', {name: body.player})});
    }
    return showError(form, error);
  }
  draft = {seat: null, player: ''};
  app.data = null;
  app.go('table');
}
