// Enter a win (胡牌): tap the winner, then the discarder or 自摸 (or 搶槓), then
// the value: quick (the 台 or points agreed at the table) or full (the tile
// picker, counted by POST /api/score before it is recorded). Shanghai extras:
// dice, 三口 pairs, discarder ready. Several winners where the rules allow.
// A false win (詐胡) is entered here too: tap "False win", then the offender.

import {api, OfflineError} from '../../api.js';
import {h, replace} from '../../dom.js';
import {eventLabel, t, windName, word} from '../../i18n.js';
import * as outbox from '../../outbox.js';
import {howWon, valueKey} from '../../format/hand.js';
import {closed} from '../../parts/access.js';
import {previewParts} from '../../parts/changes.js';
import {against} from '../../parts/conflict.js';
import {breakdown, editTitle, handContext, houseMarks, quickEvents, recordHand} from '../../parts/entry.js';
import {diceProblem, extrasBody, shanghaiExtras} from '../../parts/extras.js';
import {busy, choices, clearErrors, describeError, errorSlot, showError} from '../../parts/form.js';
import {paymentChips, paymentLines} from '../../parts/payments.js';
import {emptyHand, handBody, picker} from '../../parts/picker.js';

/** How a winner's hand is entered: its 台 or points typed (quick), or its tiles. */
const ENTRY_MODES = ['quick', 'full'];
let draft = null;
/** The house rules' marks for the breakdown (`houseMarks`), for the session on screen. */
let marks = {};

function newDraft(key, editing) {
  return {key, winners: [], by: null, discarder: null, mode: 'quick', quick: {}, events: {}, hands: {},
          falseWin: false, offender: null,
          collapsed: Boolean(editing),
          previews: {}, active: null, extras: {dice: [null, null], threeMouth: [], discarderReady: false},
          ...(editing?.draft || {})};
}

export async function render(root, app) {
  if (!app.data) await app.loadSession();
  await app.loadRulesets();
  const editing = app.editing?.kind === 'win' ? app.editing : null;
  const key = `${app.session.id}:${editing ? editing.number || editing.draftKey : 'new'}`;
  if (draft?.key !== key) draft = newDraft(key, editing);
  draft.base = editing?.base || against(app); // what the table showed when the form was opened
  const context = handContext(app, editing);
  marks = houseMarks(app);
  const form = h('form', {class: 'entry', testid: 'win-form', novalidate: true});
  const title = h('h1', {});
  const paint = () => {
    title.textContent = editing ? editTitle(editing) : t(draft.falseWin ? 'false_win' : 'enter_win');
    replace(form, ...sections(app, context, paint, form));
  };
  paint();
  replace(root, title, form);
}

function sections(app, context, paint, form) {
  const ruleset = app.ruleset();
  const ready = draft.winners.length && draft.by;
  if (draft.falseWin) {
    return [falseWinSection(app, context, paint), draft.offender && previewed(app) ? paymentPreview(app, ruleset) : null,
      submitSection(app, ruleset, context, paint, form)];
  }
  return [
    ...(ready && draft.collapsed ? [chosenSummary(paint)]
      : [winnerSection(app, context, paint), draft.winners.length ? bySection(app, context, paint) : null]),
    ready ? valueSection(app, ruleset, context, paint) : null,
    ready && ruleset.id === 'shanghai' ? shanghaiExtras(draft.extras, context.seats, draft.by, paint) : null,
    ready && previewed(app) ? paymentPreview(app, ruleset) : null,
    submitSection(app, ruleset, context, paint, form),
  ];
}

// -- the preview of the money (POST …/hands/preview) ---------------------------------------------------------
// The server works the hand out in memory with the code that records it, so the
// page shows the very payments Record will store (dealer extra, caps, 荒番, 三口)
// instead of a second copy of the rules in JavaScript that could drift from it.
// A correction shows, as it is typed, what its confirmation will show (POST
// …/hands/<n>/preview): the hands that change, their payments, the totals after.

/** Whether the form previews the money: a new hand or a correction, not a refused waiting hand, nor once ended. */
function previewed(app) {
  return !closed(app) && (!app.editing || Boolean(app.editing.number));
}

let previewTimer = null;
/** The last preview the server gave, as data: drawn again in the page's language now (the switch may have moved). */
let lastPreview = {key: null, preview: null};

/** The box under the value: what each player pays or gets, and why; refreshed as the form changes. */
function paymentPreview(app, ruleset) {
  const box = h('section', {class: 'step win-preview', testid: 'win-preview', 'aria-live': 'polite'});
  schedulePreview(app, ruleset, box, 0);
  return box;
}

function schedulePreview(app, ruleset, box = document.querySelector('[data-testid="win-preview"]'), delay = 300) {
  clearTimeout(previewTimer);
  if (!box) return;
  const body = draft && !missing(ruleset) && !needsCount() ? buildBody(ruleset) : null;
  if (!body) {
    replace(box, previewHead(ruleset, app), h('p', {class: 'hint'}, t(draft?.mode === 'full' ? 'count_first' : 'need_value')));
    return;
  }
  const number = app.editing?.number || null;
  const key = JSON.stringify([number, body]);
  if (lastPreview.key === key) {
    replace(box, previewHead(ruleset, app), moneyView(app, lastPreview.preview));
    return;
  }
  previewTimer = setTimeout(() => showPreview(app, ruleset, box, body, key, number), delay);
}

async function showPreview(app, ruleset, box, body, key, number) {
  let view;
  if (outbox.pending(app.session.id).length) { // the server would preview it before those hands
    view = h('p', {class: 'note warn'}, t('preview_waiting'));
  } else {
    try {
      const preview = number ? await api.previewChange(app.session, number, {body})
        : await api.previewHand(app.session, body);
      view = moneyView(app, preview);
      lastPreview = {key, preview};
    } catch (error) {
      view = h('p', {class: 'note warn'}, error instanceof OfflineError ? t('preview_offline')
        : t('preview_failed', {message: describeError(error)}));
    }
  }
  if (box.isConnected && app.data) replace(box, previewHead(ruleset, app), view); // not once the hand is recorded
}

/** A new hand's payments and why; a correction's changes (`preview.changes`) as its confirmation shows them. */
function moneyView(app, preview) {
  if (preview.changes) return h('div', {testid: 'correction-preview'}, ...previewParts(app, preview, false));
  return h('div', {}, paymentChips(preview.payments, preview.state?.seats, 'preview-payments'),
    paymentLines(preview.lines, 'preview-lines'));
}

function previewHead(ruleset, app) {
  const formula = dealerFormula(ruleset, app);
  return [h('h2', {}, t(app.editing ? 'change_preview' : 'preview')),
    formula && draft?.mode === 'quick' && !draft.falseWin
      ? h('p', {class: 'hint', testid: 'quick-tai-hint'}, t('quick_tai_hint', {formula})) : null];
}

/** The dealer extra the next hand is paid with, as the table writes it ("1 + n"); null when there is none. */
function dealerFormula(ruleset, app) {
  if (ruleset.id === 'shanghai' || app.data.options?.dealer_bonus === false) return null;
  const formula = app.data.house_rules?.dealer_extra || '1+2n';
  return formula === 'none' ? null : formula.replace('+', ' + ');
}

/** Once the winner and the discarder are tapped, they fold into one line to keep the value in reach. */
function chosenSummary(paint) {
  return h('section', {class: 'step chosen', testid: 'chosen'},
    h('span', {class: 'chosen-text'}, h('strong', {}, draft.winners.join(', ')), ` · ${howWon(draft)}`),
    h('button', {type: 'button', class: 'btn small', testid: 'change-chosen',
      onClick: () => { draft.collapsed = false; paint(); }}, t('change')),
    draft.discarder ? robbingToggle(paint) : null,
    errorSlot('winners'), errorSlot('by'), errorSlot('discarder'));
}

function multipleAllowed(app) {
  return app.data.ruleset === 'shanghai' || Boolean(app.data.options?.multiple_winners);
}

function winnerSection(app, context, paint) {
  return h('section', {class: 'step'}, h('h2', {}, t('who_won')),
    choices(seatChoices(context), {selected: draft.winners, testid: 'pick-winner', onPick: (player) => {
      pickWinner(app, player);
      paint();
    }}),
    multipleAllowed(app) ? h('p', {class: 'hint'}, t('several_winners_hint')) : null,
    errorSlot('winners'),
    h('button', {type: 'button', class: 'btn small ghost', testid: 'false-win-toggle',
      onClick: () => { draft.falseWin = true; paint(); }}, t('false_win')));
}

/** 詐胡: who declared a win that was not one; they pay the penalty, the hand is played again. */
function falseWinSection(app, context, paint) {
  return h('section', {class: 'step', testid: 'false-win'}, h('h2', {}, t('who_false_win')),
    choices(seatChoices(context), {selected: [draft.offender], testid: 'pick-false-win',
      onPick: (player) => { draft.offender = player; paint(); }}),
    h('p', {class: 'hint'}, t('false_win_hint')),
    h('p', {class: 'hint', testid: 'false-win-penalty'}, t('false_win_pays', {penalty: penaltyText(app)})),
    errorSlot('false_win'),
    h('button', {type: 'button', class: 'btn small ghost', testid: 'not-false-win',
      onClick: () => { draft.falseWin = false; paint(); }}, t('not_false_win')));
}

/** The penalty in force: the house rules', else a self-drawn max_tai (or the rule set's default). */
function penaltyText(app) {
  const shanghai = app.data.ruleset === 'shanghai';
  const fallback = (!shanghai && app.data.options?.max_tai) || app.ruleset().house_rules?.false_win?.default?.as_self_draw;
  const rule = app.data.house_rules?.false_win || {as_self_draw: fallback};
  return 'amount' in rule ? word('reason.false_win_amount', {amount: rule.amount})
    : t('penalty_self_draw', {n: rule.as_self_draw, unit: t(shanghai ? 'unit_points' : 'unit_tai')});
}

function seatChoices(context, exclude = []) {
  return context.seats.map((player, index) => ({value: player, label: player,
    sub: windName(context.winds[index]), disabled: exclude.includes(player)}));
}

function pickWinner(app, player) {
  if (draft.winners.includes(player)) {
    draft.winners = draft.winners.filter((name) => name !== player);
  } else if (multipleAllowed(app) && draft.by !== 'self_draw') {
    draft.winners = [...draft.winners, player];
  } else {
    draft.winners = [player];
  }
  if (draft.winners.includes(draft.discarder)) draft.discarder = null;
  draft.active = draft.winners.includes(draft.active) ? draft.active : draft.winners[0] || null;
  draft.previews = {};
}

function bySection(app, context, paint) {
  const robbed = draft.by === 'robbing_kong';
  return h('section', {class: 'step'}, h('h2', {}, robbed ? t('who_was_robbed') : t('who_discarded')),
    choices([...seatChoices(context, draft.winners), ...(draft.winners.length === 1
      ? [{value: '__self__', label: t('self_draw')}] : [])], {
      selected: draft.by === 'self_draw' ? ['__self__'] : [draft.discarder], testid: 'pick-discarder',
      onPick: (value) => {
        pickBy(value);
        draft.collapsed = !multipleAllowed(app);
        paint();
        focusValue();
      },
    }),
    robbingToggle(paint),
    errorSlot('by'), errorSlot('discarder'));
}

/** 搶槓: the tapped "discarder" is the player whose kong was robbed. */
function robbingToggle(paint) {
  return h('label', {class: 'toggle'}, h('input', {type: 'checkbox', checked: draft.by === 'robbing_kong',
    testid: 'robbing-kong', onChange: (event) => {
      draft.by = event.target.checked ? 'robbing_kong' : (draft.discarder ? 'discard' : null);
      draft.previews = {};
      paint();
    }}), h('span', {}, t('robbing_kong')));
}

/** Bring the value (the quick 台/points box) into view after the taps above it. */
function focusValue() {
  const box = document.querySelector('[data-testid="quick-0"]');
  if (box) {
    box.scrollIntoView({block: 'center'});
    box.focus({preventScroll: true});
  }
}

function pickBy(value) {
  if (value === '__self__') {
    draft.by = 'self_draw';
    draft.discarder = null;
  } else {
    draft.discarder = value;
    draft.by = draft.by === 'robbing_kong' ? 'robbing_kong' : 'discard';
  }
  draft.previews = {};
}

function valueSection(app, ruleset, context, paint) {
  return h('section', {class: 'step'}, h('h2', {}, t('how_much')),
    h('div', {class: 'segmented', testid: 'entry-mode'}, ENTRY_MODES.map((mode) => h('button', {
      type: 'button', class: draft.mode === mode ? 'on' : '', dataset: {value: mode},
      onClick: () => { draft.mode = mode; paint(); },
    }, t(`mode_${mode}`)))),
    draft.mode === 'quick'
      ? draft.winners.map((player) => quickValue(app, ruleset, player))
      : fullEntry(app, ruleset, context, paint));
}

function quickValue(app, ruleset, player) {
  const index = draft.winners.indexOf(player);
  const name = valueKey(ruleset.id);
  const inputBox = h('input', {type: 'number', inputmode: 'numeric', min: ruleset.id === 'shanghai' ? 1 : 0,
    step: 1, value: draft.quick[player] ?? '', testid: `quick-${index}`, 'aria-label': `${player} ${t(`unit_${name}`)}`,
    onInput: (event) => { draft.quick[player] = event.target.value; schedulePreview(app, ruleset); }});
  const step = (delta) => () => {
    const next = Math.max(0, (Number(draft.quick[player]) || 0) + delta);
    draft.quick[player] = String(next);
    inputBox.value = draft.quick[player];
    schedulePreview(app, ruleset);
  };
  const events = quickEvents(ruleset.id);
  return h('div', {class: 'quick'},
    draft.winners.length > 1 ? h('span', {class: 'field-label'}, player) : null,
    h('div', {class: 'stepper'},
      h('button', {type: 'button', class: 'btn', onClick: step(-1), 'aria-label': '−1'}, '−'),
      inputBox,
      h('span', {class: 'unit'}, t(`unit_${name}`)),
      h('button', {type: 'button', class: 'btn', onClick: step(1), 'aria-label': '+1'}, '+')),
    events.length ? h('select', {testid: `quick-event-${index}`, 'aria-label': t('special_event'),
      onChange: (event) => { draft.events[player] = event.target.value || null; schedulePreview(app, ruleset); }},
    h('option', {value: ''}, t('no_special_event')),
    events.map((id) => h('option', {value: id, selected: draft.events[player] === id}, eventLabel(id)))) : null,
    errorSlot(`winners.${index}.${name}`), errorSlot(`winners.${index}.event`), errorSlot(`winners.${index}`));
}

function fullEntry(app, ruleset, context, paint) {
  const player = draft.active || draft.winners[0];
  const index = draft.winners.indexOf(player);
  draft.hands[player] = draft.hands[player] || emptyHand();
  return [
    draft.winners.length > 1 ? choices(draft.winners.map((name) => ({value: name, label: name})), {
      selected: [player], testid: 'active-winner', onPick: (name) => { draft.active = name; paint(); }}) : null,
    picker(draft.hands[player], {
      handSize: ruleset.hand_size, events: ruleset.events || [], field: `winners.${index}`,
      onChange: () => { delete draft.previews[player]; paintPreview(player); schedulePreview(app, ruleset); },
    }),
    h('div', {class: 'preview', testid: 'preview', id: `preview-${index}`}, previewView(player, ruleset)),
  ];
}

function paintPreview(player) {
  const box = document.getElementById(`preview-${draft.winners.indexOf(player)}`);
  if (box) replace(box, previewView(player));
  const submit = document.querySelector('[data-testid="win-submit"]');
  if (submit) submit.textContent = submitLabel();
}

function previewView(player) {
  const score = draft.previews[player];
  return score ? breakdown(score, marks) : h('p', {class: 'hint'}, t('count_first'));
}

function needsCount() {
  return !draft.falseWin && draft.mode === 'full' && draft.winners.some((player) => !draft.previews[player]);
}

function submitLabel() {
  return needsCount() ? t('count') : t('record');
}

function submitSection(app, ruleset, context, paint, form) {
  const button = h('button', {type: 'submit', class: 'btn primary big', testid: 'win-submit'}, submitLabel());
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(button, () => submit(app, ruleset, context, paint, form));
  };
  return h('div', {class: 'submit-row'}, errorSlot(''),
    h('button', {type: 'button', class: 'btn ghost', testid: 'win-cancel', onClick: () => cancel(app)}, t('cancel')),
    button);
}

function cancel(app) {
  const back = app.editing ? 'history' : 'table';
  draft = null;
  app.editing = null;
  app.go(back);
}

async function submit(app, ruleset, context, paint, form) {
  clearErrors(form);
  const problem = missing(ruleset) || (ruleset.id === 'shanghai' ? diceProblem(draft.extras) : null);
  if (problem) return showError(form, problem);
  if (needsCount()) return count(ruleset, context, paint, form);
  const done = await recordHand(app, form, buildBody(ruleset), draft.base);
  if (done) draft = null;
  return done;
}

/** A client-side check so an incomplete hand never waits in the outbox. */
function missing(ruleset) {
  if (draft.falseWin) return draft.offender ? null : {message: t('need_false_win'), field: 'false_win'};
  if (!draft.winners.length) return {message: t('need_winner'), field: 'winners'};
  if (!draft.by) return {message: t('need_discarder'), field: 'discarder'};
  if (draft.by !== 'self_draw' && !draft.discarder) return {message: t('need_discarder'), field: 'discarder'};
  if (draft.mode === 'full') return handProblem(ruleset);
  const name = valueKey(ruleset.id);
  const index = draft.winners.findIndex((player) => !/^\d+$/.test(String(draft.quick[player] ?? '').trim()));
  return index < 0 ? null : {message: t('need_value'), field: `winners.${index}.${name}`};
}

/** A tile-entered hand that cannot be counted yet: too few or too many tiles, or no winning tile. */
function handProblem(ruleset) {
  for (const [index, player] of draft.winners.entries()) {
    const hand = draft.hands[player] || emptyHand();
    if (hand.flags.event) continue; // 八仙過海 / 八花 / 七搶一 need only the flowers
    const needed = ruleset.hand_size - 1 - 3 * hand.melds.length;
    if (hand.concealed.length !== needed) {
      return {message: t('need_tiles', {needed, n: hand.concealed.length}), field: `winners.${index}.hand`};
    }
    if (!hand.winning) return {message: t('need_winning_tile'), field: `winners.${index}.hand`};
  }
  return null;
}

async function count(ruleset, context, paint, form) {
  for (const [index, player] of draft.winners.entries()) {
    try {
      draft.previews[player] = await scoreOne(ruleset, context, player);
    } catch (error) {
      if (error instanceof OfflineError) {
        draft.previews[player] = {offline: true};
        continue;
      }
      draft.active = player;
      paint();
      error.field = `winners.${index}.${error.field || 'hand'}`;
      showError(form, error);
      return;
    }
  }
  paint();
  document.querySelector('[data-testid="preview"]')?.scrollIntoView({block: 'center'});
}


function scoreOne(ruleset, context, player) {
  const hand = draft.hands[player] || emptyHand();
  const seat = context.seats.indexOf(player);
  return api.score({
    ruleset: ruleset.id, hand: handBody(hand), win: winBody(hand),
    seat_wind: context.winds[seat], round_wind: context.round_wind, hand_wind: context.hand_wind,
    dealer: player === context.dealer, options: context.options, house_rules: context.house_rules,
  });
}

function winBody(hand) {
  return {by: draft.by, ...hand.flags};
}

function buildBody(ruleset) {
  if (draft.falseWin) return {false_win: draft.offender};
  const name = valueKey(ruleset.id);
  const winners = draft.winners.map((player) => (draft.mode === 'quick'
    ? {player, [name]: Number(draft.quick[player]), ...(draft.events[player] ? {event: draft.events[player]} : {})}
    : {player, hand: handBody(draft.hands[player]), win: winBody(draft.hands[player])}));
  const body = {winners, by: draft.by};
  if (draft.discarder) body.discarder = draft.discarder;
  return ruleset.id === 'shanghai' ? {...body, ...extrasBody(draft.extras, draft.by)} : body;
}
