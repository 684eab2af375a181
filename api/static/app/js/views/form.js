// Form pieces shared by the views: labelled fields, API errors shown next to the
// field they concern, big choice buttons, and a confirmation dialog.

import {ApiError, OfflineError} from '../api.js';
import {h} from '../dom.js';
import {t} from '../i18n.js';

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

/** Plain words for a failed request. */
export function describeError(error) {
  if (error instanceof OfflineError) return t('error_offline');
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 403) return t('error_token');
    if (error.status === 404) return t('error_not_found');
    if (error.status === 413) return t('error_too_large');
    if (error.status >= 500) return t('error_server');
    return error.message;
  }
  return error.message || String(error);
}

/**
 * Show `error` in `form`: next to the field it names (the longest matching
 * data-error-for), else in the form's general slot (data-error-for="").
 */
export function showError(form, error) {
  clearErrors(form);
  const wanted = canonicalField(error.field);
  const slots = [...form.querySelectorAll('[data-error-for]')];
  const slot = slots
    .filter((candidate) => matches(candidate.dataset.errorFor, wanted))
    .sort((a, b) => b.dataset.errorFor.length - a.dataset.errorFor.length)[0];
  const target = slot || slots.find((candidate) => candidate.dataset.errorFor === '');
  if (!target) return;
  target.textContent = describeError(error);
  target.hidden = false;
  target.closest('.field, fieldset, section')?.classList.add('has-error');
  target.scrollIntoView({block: 'center', behavior: 'smooth'});
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

/** Ask before something that cannot be undone silently; resolves true on "yes". */
export function confirmDialog(message, yesLabel) {
  return new Promise((resolve) => {
    const dialog = h('dialog', {class: 'confirm', testid: 'confirm-dialog'});
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    dialog.append(h('p', {}, message), h('div', {class: 'row'},
      h('button', {type: 'button', class: 'btn ghost', testid: 'confirm-no', onClick: () => close(false)}, t('cancel')),
      h('button', {type: 'button', class: 'btn danger', testid: 'confirm-yes', onClick: () => close(true)}, yesLabel)));
    dialog.addEventListener('cancel', () => close(false));
    document.body.append(dialog);
    dialog.showModal();
  });
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
