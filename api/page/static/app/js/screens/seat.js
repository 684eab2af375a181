// Change seat (換人 / 替補): from the next hand on, a new player (or one who
// left earlier) sits in one of the four seats; the seat keeps its place in the
// dealer rotation.

import {api} from '../api.js';
import {h, replace} from '../dom.js';
import {t, windName} from '../i18n.js';
import {seatWind} from '../tiles.js';
import {signed} from '../format/numbers.js';
import {seatsOf} from '../format/seats.js';
import {against, sendAgainst} from '../parts/conflict.js';
import {busy, choices, clearErrors, errorSlot, field, showError} from '../parts/form.js';

let draft = {seat: null, player: ''};

export async function render(root, app) {
  const data = await app.loadSession();
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
      returning(data, seats, paint)),
    h('div', {class: 'submit-row'}, errorSlot(''),
      h('button', {type: 'button', class: 'btn ghost', onClick: () => { draft = {seat: null, player: ''}; app.go('table'); }},
        t('cancel')),
      h('button', {type: 'submit', class: 'btn primary big', testid: 'seat-submit'}, t('change_seat'))));
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(form.querySelector('[data-testid="seat-submit"]'), () => submit(app, form, base));
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

async function submit(app, form, base) {
  clearErrors(form);
  if (draft.seat === null) return showError(form, {message: t('need_seat'), field: 'seat'});
  const body = {seat: draft.seat, player: draft.player.trim()};
  try {
    const done = await sendAgainst(app, base, (revision) => api.changeSeat(app.session, body, revision),
      t('what_seat', {player: body.player}));
    if (done) app.toast(t('seat_changed', {player: body.player}), 'ok');
  } catch (error) {
    return showError(form, error);
  }
  draft = {seat: null, player: ''};
  app.data = null;
  app.go('table');
}
