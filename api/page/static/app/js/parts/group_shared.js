// What a group's screens share: the words for a group request that failed (a
// group lives on the server, so offline is said plainly), and the buttons that
// download a report of the group or share it as a picture.

import {ApiError, OfflineError, api} from '../api.js';
import {h} from '../dom.js';
import {languageTag, serverSpeaks, t} from '../i18n.js';
import {busy, canonicalField, describeError, fieldWords, plainServerText, showError} from './form.js';
import {save, sharePicture} from './picture.js';

/**
 * A button that downloads a report of the group: the file needs the bearer
 * token, so it is fetched, then saved from a blob URL (as an evening's sheet).
 */
export function groupDownload(app, name, label, testid, kind = '') {
  const slot = h('p', {class: 'field-error', role: 'alert', hidden: true});
  const button = h('button', {type: 'button', class: `btn wide ${kind}`, testid, onClick: () => busy(button, async () => {
    slot.hidden = true;
    try {
      const {blob, filename} = await api.groupFile(app.group, name());
      save(blob, filename || name().split('?')[0]);
    } catch (error) {
      slot.textContent = groupError(error);
      slot.hidden = false;
    }
  })}, label);
  return h('div', {class: 'download'}, button, slot);
}

/**
 * "Share as a picture" of the group's standings or balances, exactly as Settle
 * shares an evening's card: `name()` is the picture with its query
 * (standings.png?from=&to=), asked in the page's language.
 */
export function groupPicture(app, name, testid) {
  const slot = h('p', {class: 'field-error', role: 'alert', hidden: true});
  const button = h('button', {type: 'button', class: 'btn big primary', testid, onClick: () => busy(button, async () => {
    slot.hidden = true;
    try {
      const asked = name();
      const picture = await api.groupFile(app.group, `${asked}${asked.includes('?') ? '&' : '?'}lang=${languageTag()}`);
      await sharePicture(app, picture, app.groupData?.name || app.group.name);
    } catch (error) {
      slot.textContent = groupError(error);
      slot.hidden = false;
    }
  })}, t('share_card'));
  return h('div', {class: 'download'}, button, slot);
}

/** The fields a group request names, in words. */
const GROUP_FIELDS = {from: 'group_field_from', to: 'group_field_to', amount: 'group_field_amount',
  note: 'group_field_note', name: 'group_field_name', session: 'group_field_session', payments: 'group_field_payments'};

/**
 * A failed group request in the page's language: offline (a group needs the
 * server), unknown group, replaced link, a link that may not do this, or a
 * refused field named in words (the server's own message for a reader of English).
 */
export function groupError(error) {
  if (error instanceof OfflineError) return t('group_offline');
  if (!(error instanceof ApiError)) return describeError(error);
  if (error.status === 404) return t('group_not_found');
  if (error.status === 401) return t('group_link_replaced');
  if (error.status === 403) return t('group_forbidden');
  const path = canonicalField(error.field);
  const key = GROUP_FIELDS[path.split('.')[0]];
  if (error.status !== 422 && error.status !== 400) return describeError(error);
  const words = path.startsWith('players') ? fieldWords(path) : key ? t(key) : '';
  if (!serverSpeaks()) return t('check_field', {field: words || t('group_field_request')});
  const text = plainServerText(error.message);
  return words ? `${words[0].toUpperCase()}${words.slice(1)}: ${text}` : text;
}

/** Show a failed group request next to the field it names. */
export function showGroupError(form, error) {
  showError(form, {field: error.field, message: groupError(error)});
}
