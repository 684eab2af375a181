// A picture for the chat (an evening's settlement card, a group's standings or
// balances): handed to the phone's share sheet as a file, so that it lands in
// LINE or WeChat as a picture; a phone whose share sheet takes no files (most
// desktops) downloads it instead. Also how any fetched file is saved.

import {h} from '../dom.js';
import {t} from '../i18n.js';

/** Share `blob` (a PNG fetched with the token) titled `title`, or save it as `filename` and say so. */
export async function sharePicture(app, {blob, filename}, title) {
  const file = new File([blob], filename || 'taizhang.png', {type: 'image/png'});
  if (navigator.canShare?.({files: [file]})) {
    await navigator.share({files: [file], title}).catch((error) => {
      if (error.name !== 'AbortError') throw error; // AbortError: the person closed the share sheet
    });
  } else {
    save(blob, file.name);
    app.toast(t('card_saved'), 'ok');
  }
}

/** Save a fetched file (it needed the bearer token, so no plain link) from a blob URL. */
export function save(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = h('a', {href: url, download: filename, hidden: true});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}
