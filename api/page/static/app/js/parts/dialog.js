// A dialog over the page: what to decide, then a row of buttons, each an
// answer. A confirmation (Cancel / yes) and the choice after a conflict with
// another phone (drop / keep, conflict.js) are both drawn here.

import {append, h} from '../dom.js';
import {t} from '../i18n.js';

/**
 * Show a modal dialog (class `cls`, `testid`) of `content` and a row of
 * `buttons` ([{label, kind, testid, answer}]); resolves with the answer of
 * the button tapped. Escape answers `escape`, or does nothing when there is
 * no `escape` (a choice the person has to make).
 */
export function modal({cls, testid, escape}, content, buttons) {
  return new Promise((resolve) => {
    const dialog = h('dialog', {class: cls, testid});
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    append(dialog, [content, h('div', {class: 'row'}, buttons.map((button) => h('button', {
      type: 'button', class: `btn ${button.kind}`, testid: button.testid, onClick: () => close(button.answer)},
    button.label)))]);
    dialog.addEventListener('cancel', (event) => (escape === undefined ? event.preventDefault() : close(escape)));
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** Ask before something that cannot be undone silently (with `extra`, e.g. a preview); resolves true on "yes". */
export function confirmDialog(message, yesLabel, extra = null) {
  return modal({cls: 'confirm', testid: 'confirm-dialog', escape: false}, [h('p', {}, message), extra || ''], [
    {label: t('cancel'), kind: 'ghost', testid: 'confirm-no', answer: false},
    {label: yesLabel, kind: 'danger', testid: 'confirm-yes', answer: true}]);
}
