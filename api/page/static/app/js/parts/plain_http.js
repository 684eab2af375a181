// Opened over plain http (the Wi-Fi address make run prints, http://192.168.…:5000),
// the page is not a "secure context": the browser registers no service worker
// (so a phone whose browser dropped the tab cannot reopen the page without the
// Wi-Fi), will not install it, and has no Web Share nor clipboard API (the
// page falls back to a download and to selecting the text). Everything else
// works; hands wait on the phone as on https. The page says what the phone
// loses, in a sentence, once, on the first visit of this address, and never
// again; how to serve https is for whoever runs the server (docs/server.md).

import {h} from '../dom.js';
import {t} from '../i18n.js';
import * as storage from '../storage.js';

const TOLD = 'plain_http_told';
let shown = null;

/** Whether the page opens on a competition's wall (a projector's: no phone's note there, app.css hides it). */
function onWall() {
  return /^#(?:wall\b|(?:.*&)?v=wall\b)/.test(location.hash);
}

/** On plain http, the first time only: the note above `view`, with OK to close it; on the wall, at the next view. */
export function tellOnce(view) {
  if (window.isSecureContext || storage.read(TOLD, false)) return;
  if (onWall()) {
    window.addEventListener('hashchange', function later() {
      if (onWall()) return;
      window.removeEventListener('hashchange', later);
      tellOnce(view);
    });
    return;
  }
  storage.write(TOLD, true); // told once: a reload, or the next evening, does not repeat it
  const text = h('p', {}, t('plain_http_notice'));
  const ok = h('button', {type: 'button', class: 'btn', testid: 'plain-http-ok', onClick: () => {
    shown.remove();
    shown = null;
  }}, t('plain_http_ok'));
  shown = h('div', {class: 'note warn plain-http', role: 'note', testid: 'plain-http'}, text, ok);
  view.before(shown);
}

/** The note in the page's language again (after the language switch). */
export function reword() {
  if (!shown) return;
  shown.querySelector('p').textContent = t('plain_http_notice');
  shown.querySelector('button').textContent = t('plain_http_ok');
}
