// The page: routes (#start, #table, #win, #draw, #history, #settle, #seat, #share),
// the session in use, the outbox sender and the top bar.

import {api, OfflineError} from './api.js';
import {h, replace} from './dom.js';
import {applyLanguage, otherLanguage, setLanguage, t} from './i18n.js';
import * as outbox from './outbox.js';
import * as storage from './storage.js';
import * as draw from './views/draw.js';
import * as history from './views/history.js';
import * as seat from './views/seat.js';
import * as settle from './views/settle.js';
import * as share from './views/share.js';
import * as start from './views/start.js';
import {describeError} from './views/form.js';
import * as table from './views/table.js';
import * as win from './views/win.js';

const VIEWS = {start, table, win, draw, history, settle, seat, share};
const EDITORS = new Set(['win', 'draw']);
const REFRESHED = new Set(['table', 'history', 'settle']);
const NEEDS_SESSION = new Set(['table', 'win', 'draw', 'history', 'settle', 'seat', 'share']);
const view = document.getElementById('view');
let toastTimer = null;
const TOAST_MS = 4000;
const TOAST_WITH_ACTION_MS = 8000; // time to reach for Undo

export const app = {
  session: null,
  data: null,
  editing: null,
  offline: false,
  rulesets: storage.read('rulesets', null),

  go(route) {
    if (location.hash === `#${route}`) show();
    else location.hash = route;
  },

  /** Fetch the session (cached for offline use); while offline the cached copy is used. */
  async loadSession() {
    try {
      this.data = await api.session(this.session);
      storage.cacheSession(this.session.id, this.data);
      this.offline = false;
    } catch (error) {
      if (!(error instanceof OfflineError)) throw error;
      this.data = storage.cachedSession(this.session.id);
      this.offline = true;
      if (!this.data) throw error;
    }
    storage.rememberSession({...this.session, name: this.data.name, ruleset: this.data.ruleset});
    updateTopBar();
    return this.data;
  },

  async loadRulesets() {
    if (!this.rulesets) {
      this.rulesets = await api.rulesets();
      storage.write('rulesets', this.rulesets);
    }
    return this.rulesets;
  },

  /** The rule set of the session in use (patterns, options, events). */
  ruleset() {
    return (this.rulesets || []).find((r) => r.id === this.data?.ruleset) || {id: this.data?.ruleset, events: []};
  },

  open(session) {
    this.session = storage.rememberSession(session);
    this.data = storage.cachedSession(session.id);
  },

  close() {
    storage.clearCurrent();
    this.session = null;
    this.data = null;
  },

  /**
   * A short message under the top bar, in the page's flow so that it never
   * covers a control; `action` ({label, run}) adds a button (Undo) and keeps
   * the message a little longer.
   */
  toast(message, kind = 'info', action = null) {
    const box = document.getElementById('toast');
    const hide = () => { box.hidden = true; };
    replace(box, h('span', {class: 'toast-text'}, message), action ? h('button', {
      type: 'button', class: 'btn small toast-action', testid: 'toast-action',
      onClick: () => { clearTimeout(toastTimer); hide(); action.run(); }}, action.label) : null);
    box.className = `toast ${kind}`;
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(hide, action ? TOAST_WITH_ACTION_MS : TOAST_MS);
  },

  /** Send waiting hands now; reports what happened, and says so when the phone is still offline. */
  async sendOutbox() {
    const result = await outbox.flush(storage.knownSessions());
    report(result);
    if (result.offline || !navigator.onLine) app.toast(t('still_offline'), 'warn');
  },
};

/** `#s=<id>&t=<token>` opens a shared session; the token is then wiped from the address bar. */
function joinFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get('s');
  const token = params.get('t');
  if (!id || !token) return false;
  app.open({id, token});
  window.history.replaceState(null, '', `${location.pathname}#table`);
  return true;
}

function routeName() {
  const name = location.hash.slice(1).split('/')[0];
  if (name in VIEWS && (!NEEDS_SESSION.has(name) || app.session)) return name;
  return app.session ? 'table' : 'start';
}

async function show() {
  joinFromFragment();
  const name = routeName();
  if (!EDITORS.has(name)) app.editing = null;
  document.body.dataset.view = name;
  updateTopBar();
  try {
    await VIEWS[name].render(view, app);
  } catch (error) {
    replace(view, h('section', {class: 'card error-card', testid: 'view-error'},
      h('p', {}, describeError(error)),
      h('button', {type: 'button', class: 'btn', onClick: show}, t('retry')),
      h('button', {type: 'button', class: 'btn ghost', onClick: () => { app.close(); app.go('start'); }},
        t('other_session'))));
  }
  window.scrollTo(0, 0);
}

/** The evening's name, the network badge and the language switch; again once a session is loaded. */
function updateTopBar() {
  document.getElementById('title').textContent = app.session ? (app.data?.name || app.session.name || '') : '';
  const net = document.getElementById('net');
  const waiting = app.session ? outbox.pending(app.session.id).length : 0;
  const offline = !navigator.onLine;
  net.hidden = !offline && !waiting;
  net.textContent = offline ? t('offline') : t('waiting_count', {count: waiting});
  net.className = `net ${offline ? 'off' : 'waiting'}`;
  const toggle = document.getElementById('lang');
  toggle.textContent = t('switch_language');
}

function report({sent, rejected}) {
  if (sent.length) app.toast(t('sent_count', {count: sent.length}), 'ok');
  if (rejected.length) app.toast(t('rejected_count', {count: rejected.length}), 'error');
  updateTopBar();
  if (sent.length || rejected.length) {
    if (['table', 'history'].includes(document.body.dataset.view)) show();
  }
}

function boot() {
  applyLanguage();
  const current = storage.currentSession();
  if (current) app.open(current);
  document.getElementById('lang').addEventListener('click', () => {
    setLanguage(otherLanguage());
    show();
  });
  window.addEventListener('hashchange', show);
  // Back from another app (or the lock screen): show what other phones recorded meanwhile.
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && REFRESHED.has(document.body.dataset.view)) show();
  });
  window.addEventListener('online', updateTopBar);
  window.addEventListener('offline', updateTopBar);
  outbox.onChange(updateTopBar);
  outbox.keepSending(() => storage.knownSessions(), report);
  // Service workers exist only on https or localhost; elsewhere the page simply needs the network to open.
  navigator.serviceWorker?.register('/sw.js').catch(() => {});
  show();
}

boot();
