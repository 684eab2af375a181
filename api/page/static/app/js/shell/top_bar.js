// The top bar: the name of the evening, group or competition on screen, the network badge (offline, hands
// waiting), the language switch with its menu, and big text.

import {h} from '../dom.js';
import {languageChoices, t} from '../i18n.js';
import * as outbox from '../outbox.js';
import * as storage from '../storage.js';
import {eveningName} from '../format/names.js';
import {pointHelp} from '../parts/help.js';
import * as plainHttp from '../parts/plain_http.js';
import {rewordOffer} from './new_release.js';
import {COMPETITION_VIEWS, GROUP_VIEWS, shown as shownView} from './routes.js';
import {app} from './state.js';

/**
 * The switches' taps: `choose(id)` takes the language chosen in the menu; big text is kept on this phone.
 */
export function wireTopBar(choose) {
  document.getElementById('lang').addEventListener('click', () => toggleLanguageMenu(choose));
  document.getElementById('big-text').addEventListener('click', () => {
    storage.write('big_text', !bigText());
    applyTextSize();
    updateTopBar();
  });
}

/** The evening's name, the network badge, big text and the language switch; again once a session is loaded. */
export function updateTopBar() {
  const shown = shownView();
  const title = GROUP_VIEWS.has(shown) ? app.groupData?.name || app.group?.name
    : COMPETITION_VIEWS.has(shown) ? app.competitionData?.name || app.competition?.name
      : shown === 'competition-new' ? '' // a competition not made yet: not the last evening's name
        : app.session ? eveningName(app.data) || app.session.name : '';
  document.getElementById('title').textContent = title || '';
  const net = document.getElementById('net');
  const waiting = app.session ? outbox.pending(app.session.id).length : 0;
  const offline = !navigator.onLine;
  net.hidden = !offline && !waiting;
  net.textContent = offline ? t('offline') : t('waiting_count', {count: waiting});
  net.className = `net ${offline ? 'off' : 'waiting'}`;
  const toggle = document.getElementById('lang');
  toggle.textContent = t('switch_language');
  toggle.setAttribute('aria-label', `${t('language')}: ${t('switch_language')}`);
  toggle.title = t('choose_language');
  const big = document.getElementById('big-text');
  // Its short label at 320 px, where "?" beside it would otherwise leave the evening's date no room (app.css).
  big.replaceChildren(h('span', {class: 'full'}, t('big_text')), h('span', {class: 'short'}, t('big_text_short')));
  big.setAttribute('aria-label', t('big_text'));
  big.setAttribute('aria-pressed', String(bigText()));
  plainHttp.reword();
  rewordOffer();
  pointHelp(shown);
}

/**
 * The language switch: a menu of the three languages under the top bar, each named in itself, the one in
 * use marked; one tap chooses (issue 29 item 12). Escape, a tap elsewhere or the switch again close it.
 */
async function toggleLanguageMenu(choose) {
  const toggle = document.getElementById('lang');
  const open = document.getElementById('lang-menu');
  if (open) {
    closeLanguageMenu();
    return;
  }
  const choices = await languageChoices();
  const menu = h('div', {class: 'lang-menu', id: 'lang-menu', role: 'menu', testid: 'lang-menu',
    'aria-label': t('choose_language')},
  choices.map((choice) => h('button', {type: 'button', role: 'menuitemradio', lang: choice.tag,
    'aria-checked': String(choice.current), class: `btn lang-choice${choice.current ? ' current' : ''}`,
    testid: `lang-${choice.id}`, dataset: {short: choice.short}, onClick: () => {
      closeLanguageMenu();
      if (!choice.current) choose(choice.id);
    }}, choice.name)));
  document.querySelector('.topbar').after(menu);
  toggle.setAttribute('aria-expanded', 'true');
  menu.querySelector('[aria-checked=true]')?.focus();
  setTimeout(() => document.addEventListener('click', outside), 0);
  document.addEventListener('keydown', escape);
}

function outside(event) {
  if (!event.target.closest('#lang-menu, #lang')) closeLanguageMenu();
}

function escape(event) {
  if (event.key === 'Escape') closeLanguageMenu();
}

function closeLanguageMenu() {
  document.getElementById('lang-menu')?.remove();
  document.getElementById('lang').setAttribute('aria-expanded', 'false');
  document.removeEventListener('click', outside);
  document.removeEventListener('keydown', escape);
}

/** Big text (larger type and tap targets), remembered on this phone. */
function bigText() {
  return storage.read('big_text', false) === true;
}

export function applyTextSize() {
  document.documentElement.classList.toggle('big', bigText());
}
