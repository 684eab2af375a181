// Share (分享): the link that opens this session on another phone, as text and
// as a QR code. The token travels only in the link's fragment (#s=…&t=…),
// which browsers never send to a server; the QR image is drawn from the link
// posted in a request body.

import {api} from '../api.js';
import {h, replace} from '../dom.js';
import {t} from '../i18n.js';
import {describeError} from './form.js';

export function shareLink(session) {
  return `${location.origin}/#s=${encodeURIComponent(session.id)}&t=${encodeURIComponent(session.token)}`;
}

export async function render(root, app) {
  const link = shareLink(app.session);
  const qr = h('div', {class: 'qr', testid: 'qr'}, h('p', {class: 'hint'}, '…'));
  const text = h('input', {type: 'text', readonly: true, value: link, testid: 'share-link', class: 'share-link',
    onFocus: (event) => event.target.select()});
  replace(root, h('h1', {}, t('share')), h('p', {class: 'hint'}, t('share_hint')), qr, text,
    h('div', {class: 'row'},
      h('button', {type: 'button', class: 'btn', testid: 'copy-link', onClick: () => copy(app, text)}, t('copy_link')),
      navigator.share ? h('button', {type: 'button', class: 'btn', onClick: () => navigator.share({url: link})
        .catch(() => {})}, t('share_via')) : null),
    h('p', {class: 'note warn'}, t('share_warning')),
    h('button', {type: 'button', class: 'btn primary big wide', testid: 'go-table', onClick: () => app.go('table')},
      t('to_table')));
  try {
    const {blob} = await api.shareQr(link);
    const url = URL.createObjectURL(blob);
    replace(qr, h('img', {src: url, alt: t('qr_alt'), width: 240, height: 240, testid: 'qr-image'}));
  } catch (error) {
    replace(qr, h('p', {class: 'hint'}, describeError(error)));
  }
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
