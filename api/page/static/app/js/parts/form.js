// Form pieces shared by the views: labelled fields, API errors shown next to the
// field they concern, big choice buttons, and a button kept busy while it works.

import {ApiError, OfflineError} from '../api.js';
import {h} from '../dom.js';
import {serverSpeaks, t} from '../i18n.js';

/** "winners[0].tai" and "winners.0.tai" both become "winners.0.tai". */
export function canonicalField(field) {
  return String(field || '').replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
}

/** A block that shows the errors of `field` (and of any field below it, e.g. players.2). */
export function errorSlot(field) {
  return h('p', {class: 'field-error', role: 'alert', hidden: true, dataset: {errorFor: canonicalField(field)}});
}

export function field(label, control, name, hint) {
  return h('label', {class: 'field'}, h('span', {class: 'field-label'}, label), control,
    hint ? h('span', {class: 'hint'}, hint) : null, errorSlot(name));
}

/** The words for a field path: "players.2" -> "player 3", "winners.0.hand.winning_tile" -> "winning tile". */
export function fieldWords(field) {
  const path = canonicalField(field).split('.');
  const [head, index] = path;
  if (head === 'players' && /^\d+$/.test(index ?? '')) return t('field_player', {n: Number(index) + 1});
  if (path.length === 1 && head === 'player') return t('field_substitute'); // 換人's "who sits down", not a winner
  const last = [...path].reverse().find((part) => !/^\d+$/.test(part)) || '';
  const words = {name: 'field_name', players: 'field_players', stakes: 'field_stakes', base: 'field_base',
    per_tai: 'field_per_tai', max_tai: 'field_max_tai', winners: 'field_winners', player: 'field_winners',
    discarder: 'field_discarder', by: 'field_discarder', tai: 'field_value', points: 'field_value',
    hand: 'field_hand', concealed: 'field_hand', melds: 'field_hand', flowers: 'field_hand', win: 'field_hand',
    winning_tile: 'field_winning_tile', dice: 'field_dice', three_mouth: 'field_three_mouth',
    round_to: 'field_round_to', seat: 'field_seat', event: 'field_event'};
  return words[last] ? t(words[last]) : '';
}

/** A server message without its leading field path ("hand.winning_tile: required" -> "required"). */
export function plainServerText(message) {
  return String(message).replace(/^(Invalid request: )?[\w.[\]]+: /, '');
}

/**
 * Plain words for a failed request, in the page's language. The server's own
 * message (English) is shown only to a reader of English, after the field in
 * words; in another language the field is named and the reader asked to check it.
 */
export function describeError(error) {
  if (error instanceof OfflineError) return t('error_offline');
  if (error instanceof ApiError || error?.status) { // or an error kept with a waiting hand
    if (error.status === 401) return t('error_link_replaced'); // the page always sends its token
    // A hand kept waiting on the phone was a change (POST) too.
    // A change refused (403, 409) in the server's own words: why it was refused ("only the organiser can reopen
    // it"), where the page's could only guess (issue 38 item 11).
    const change = error.change ?? true;
    if ((error.status === 409 || (error.status === 403 && change)) && error.said) return error.said;
    if (error.status === 403) return t(change ? 'error_read_only' : 'error_token');
    if (error.status === 409) return t('error_closed');
    if (error.status === 412) return t('error_stale');
    if (error.status === 404) return t('error_not_found');
    if (error.status === 413) return t('error_too_large');
    if (error.status >= 500) return t('error_server');
    const field = fieldWords(error.field);
    if (!serverSpeaks()) return t('check_field', {field: field || t('field_hand')});
    const text = plainServerText(error.message);
    return field ? `${field[0].toUpperCase()}${field.slice(1)}: ${text}` : text;
  }
  return error.message || String(error);
}

/** Show every error of `errors` ([{field, message}]) at once, each next to its field. */
export function showErrors(form, errors) {
  clearErrors(form);
  for (const [index, error] of errors.entries()) show(form, error, index === 0);
}

/**
 * Show `error` in `form`: next to the field it names (the longest matching
 * data-error-for), else in the form's general slot (data-error-for="").
 */
export function showError(form, error) {
  clearErrors(form);
  show(form, error, true);
}

function show(form, error, scroll) {
  const wanted = canonicalField(error.field);
  const slots = [...form.querySelectorAll('[data-error-for]')];
  const slot = slots
    .filter((candidate) => matches(candidate.dataset.errorFor, wanted))
    .sort((a, b) => b.dataset.errorFor.length - a.dataset.errorFor.length)[0];
  const target = slot || slots.find((candidate) => candidate.dataset.errorFor === '');
  if (!target) return;
  target.textContent = target.hidden ? describeError(error) : `${target.textContent} ${describeError(error)}`;
  target.hidden = false;
  target.closest('.field, fieldset, section')?.classList.add('has-error');
  if (scroll) target.scrollIntoView({block: 'center', behavior: 'smooth'});
}

function matches(slotField, wanted) {
  if (slotField === '') return false;
  return wanted === slotField || wanted.startsWith(`${slotField}.`);
}

export function clearErrors(form) {
  for (const slot of form.querySelectorAll('[data-error-for]')) {
    slot.hidden = true;
    slot.textContent = '';
  }
  form.querySelectorAll('.has-error').forEach((node) => node.classList.remove('has-error'));
}

/** A row of large toggle buttons; `onPick(value)` on tap. */
export function choices(items, {selected = [], onPick, testid, cls = ''}) {
  return h('div', {class: `choices ${cls}`, role: 'group', testid},
    items.map(({value, label, sub, disabled}) => h('button', {
      type: 'button', class: `choice${selected.includes(value) ? ' on' : ''}`, disabled: Boolean(disabled),
      'aria-pressed': selected.includes(value) ? 'true' : 'false', dataset: {value: String(value)},
      onClick: () => onPick(value),
    }, label, sub !== undefined && sub !== null ? h('small', {}, sub) : null)));
}

/** A form's big submit button under the form's own error: `work()` runs on submit, the button disabled meanwhile. */
export function submitRow(form, testid, label, work) {
  const button = h('button', {type: 'submit', class: 'btn primary big', testid}, label);
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(button, work);
  };
  return h('div', {}, errorSlot(''), button);
}

/** Disable `button` while `work()` runs (no double submissions). */
export async function busy(button, work) {
  button.disabled = true;
  button.classList.add('busy');
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.classList.remove('busy');
  }
}
