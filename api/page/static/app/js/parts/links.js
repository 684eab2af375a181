// A link that opens an evening or a group on another phone, as a card: its
// heading, QR code (drawn by the server from the link posted in a request
// body), the text, Copy (and Share… where the phone has it) and what the link
// allows. The Share screens of an evening and of a group show them.

import {api} from '../api.js';
import {h, replace} from '../dom.js';
import {t} from '../i18n.js';
import {describeError} from './form.js';

/**
 * One link: heading, QR code, the text, Copy (and Share… where the phone has
 * it), and what it allows; `qr()` draws the code.
 */
export function linkBlock(app, link, testid, title, warning, alt = t('qr_alt')) {
  const qr = h('div', {class: 'qr', testid: testid === 'share' ? 'qr' : `${testid}-qr`}, h('p', {class: 'hint'}, '…'));
  const text = h('input', {type: 'text', readonly: true, value: link, testid: `${testid}-link`, class: 'share-link', 'aria-label': title,
    onFocus: (event) => event.target.select()});
  const block = h('section', {class: 'card share-block', testid: `${testid}-block`}, h('h2', {}, title), qr, text,
    h('div', {class: 'row'},
      h('button', {type: 'button', class: 'btn', testid: testid === 'share' ? 'copy-link' : `${testid}-copy`,
        onClick: () => copy(app, text)}, t('copy_link')),
      navigator.share ? h('button', {type: 'button', class: 'btn', onClick: () => navigator.share({url: link})
        .catch(() => {})}, t('share_via')) : null),
    h('p', {class: 'note warn'}, warning));
  const draw = async () => {
    try {
      const {blob} = await api.shareQr(link);
      replace(qr, h('img', {src: URL.createObjectURL(blob), alt, width: 240, height: 240,
        testid: testid === 'share' ? 'qr-image' : `${testid}-qr-image`}));
    } catch (error) {
      replace(qr, h('p', {class: 'hint'}, describeError(error)));
    }
  };
  return {block, qr: draw};
}

async function copy(app, input) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand('copy');
  }
  app.toast(t('link_copied'), 'ok');
}
