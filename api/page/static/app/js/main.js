// The page: routes (#start, #table, #win, #draw, #history, #settle, #seat, #share,
// a group's #group, #group-evening, #standings, #balances, #member/<id>,
// #group-share, a competition's #competition-new, #competition, #competition-standings
// and #wall), the session, the group and the competition in use, the outbox sender and the top bar.
// Each route is drawn by its module in screens/ (#group-evening: screens/group/group_evening.js),
// imported when the route is first shown. The server bundles this module and all it imports, these screens
// too, into the page's HTML (esbuild, api/page/release.py): a cold load is one file (issue 32); unbundled,
// a cold load fetches the screens of the first view only (the HTML preloads #start's and #table's).
// A screen goes to another through the router (app.go), never by importing it.

import {api, ApiError, OfflineError} from './api.js';
import {h, replace} from './dom.js';
import {applyLanguage, inlineData, languageChoices, languageTag, loadWords, setLanguage, t} from './i18n.js';
import * as live from './live.js';
import * as outbox from './outbox.js';
import * as storage from './storage.js';
import {eveningName} from './format/names.js';
import {closed, closedNote, tableOnly} from './parts/access.js';
import {describeError} from './parts/form.js';
import {groupError} from './parts/group_shared.js';
import * as plainHttp from './parts/plain_http.js';
/**
 * Ask about a waiting hand another phone got ahead of (parts/entry.js, with the conflict dialog): its modules
 * are loaded when a conflict is met, not before the first view.
 */
async function keepStale(...args) {
  return (await import('./parts/entry.js')).keepStale(...args);
}

const VIEWS = {
  start: () => import('./screens/evening/start.js'), table: () => import('./screens/evening/table.js'),
  win: () => import('./screens/evening/win.js'), draw: () => import('./screens/evening/draw.js'),
  history: () => import('./screens/evening/history.js'), settle: () => import('./screens/evening/settle.js'),
  seat: () => import('./screens/evening/seat.js'), rules: () => import('./screens/evening/rules.js'),
  share: () => import('./screens/evening/share.js'), group: () => import('./screens/group/group.js'),
  'group-evening': () => import('./screens/group/group_evening.js'), standings: () => import('./screens/group/standings.js'),
  balances: () => import('./screens/group/balances.js'), member: () => import('./screens/group/member.js'),
  'group-share': () => import('./screens/group/group_share.js'),
  'competition-new': () => import('./screens/competition/competition_new.js'),
  competition: () => import('./screens/competition/competition.js'),
  'competition-standings': () => import('./screens/competition/competition_standings.js'), wall: () => import('./screens/competition/wall.js'),
};
/** A competition's views read the server each time, as a group's do. */
const COMPETITION_VIEWS = new Set(['competition', 'competition-standings', 'wall']);
/** A group's views read the server each time (nothing of a group is kept for offline use). */
const GROUP_VIEWS = new Set(['group', 'group-evening', 'standings', 'balances', 'member', 'group-share']);
const EDITORS = new Set(['win', 'draw']);
const REFRESHED = new Set(['table', 'history', 'settle']);
const TABLE_FORMS = ['win', 'draw', 'history'];
const NEEDS_SESSION = new Set(['table', 'win', 'draw', 'history', 'settle', 'seat', 'rules', 'share']);
const CHANGING = new Set(['win', 'draw', 'seat', 'rules']); // not on a read-only link
const OWNERS = new Set(['seat', 'rules']); // nor on a competition's table's own link: its organiser's
const END_RETRY_MS = 3000;
const view = document.getElementById('view');
let toastTimer = null;
/** The rule sets being read ({key, rulesets: a promise}), so that two screens asking at once make one request. */
let reading = null;
const TOAST_MS = 4000;
const TOAST_WITH_ACTION_MS = 8000; // time to reach for Undo

export const app = {
  session: null,
  data: null,
  editing: null,
  offline: false,
  rulesets: storage.read(rulesetsKey(), null),
  group: null, // the group in use: {id, token, member_token, read_token, name, access}
  groupData: null, // its last GET /api/groups/<id>
  competition: null, // the competition in use: {id, token, read_token, name, access}
  competitionData: null, // its last GET /api/competitions/<id>

  /** The competition as it is now (its settings, entrants, rounds, tables). */
  async loadCompetition() {
    this.competitionData = await api.competition(this.competition);
    const {access, name} = this.competitionData;
    this.competition = storage.rememberCompetition({...this.competition, name, access});
    updateTopBar();
    return this.competitionData;
  },

  openGroup(known) {
    if (this.group?.id !== known.id) this.groupData = null;
    this.group = storage.rememberGroup(known);
  },

  /** The group with its roster, evenings and seasons (the server's copy: group views need the network). */
  async loadGroup() {
    this.groupData = await api.group(this.group);
    const {access, name} = this.groupData;
    this.group = storage.rememberGroup({...this.group, name, access,
                                        member_token: access === 'member' ? this.group.token : undefined});
    updateTopBar();
    return this.groupData;
  },

  go(route) {
    if (location.hash === `#${route}`) show();
    else location.hash = route;
  },

  /** Fetch the session (cached for offline use); while offline the cached copy is used. */
  async loadSession() {
    saveNow();
    try {
      const read = await api.session(this.session);
      // A change the stream brought while this read was on its way is newer than the read's answer: the copy
      // it made stays (the answer would take the totals back before it, and no later event would mend them).
      const newer = this.data?.id === read.id && (this.data.revision ?? -1) > read.revision;
      if (!newer) this.data = read;
      storage.cacheSession(this.session.id, this.data);
      this.offline = false;
      live.follow(this.session, this.data.revision, applyChange, streamEnded);
      keepForOffline();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) linkReplaced();
      if (!(error instanceof OfflineError)) throw error;
      this.data = storage.cachedSession(this.session.id);
      this.offline = true;
      if (!this.data) throw error;
    }
    storage.rememberSession({...this.session, name: eveningName(this.data), ruleset: this.data.ruleset});
    updateTopBar();
    return this.data;
  },

  /**
   * The screens a table goes to with no Wi-Fi (胡, 流局, History), imported beside the evening's first reading:
   * the table is drawn once they are in, so the Wi-Fi may go the moment it shows (issue 29 item 2; they are no
   * longer loaded before the first view, issue 32).
   */
  tableForms() {
    return Promise.all(TABLE_FORMS.map((name) => VIEWS[name]())).catch(() => {});
  },

  /** The evening's other screens, imported once the table is on screen (not competing with it): the Wi-Fi may
   * go before the service worker has kept them. */
  keepEveningScreens() {
    Promise.all([...NEEDS_SESSION].map((name) => VIEWS[name]())).catch(() => {});
  },

  /** The evening is `app.data` as it is now: the table may paint it without reading it again (once). */
  current: false,

  /**
   * The answer to this phone's Record (POST …/hands: the hand, the evening's `revision`, `state` and `totals`
   * after it) brings the page's copy of the evening up to date when it is the very next change, so the table
   * paints the new totals without a second request (issue 32). The live stream may have brought the hand first
   * (it is sent once committed, beside the answer): the copy is current then as it is. True when the copy is
   * current; false when another phone's change came between, and the table reads the evening again.
   */
  applyRecorded(result) {
    if (!this.data || !this.session || !Number.isInteger(result?.revision) || !result.totals) return false;
    const shown = this.data.revision ?? -1;
    if (result.revision > shown + 1) return false;
    // A competition's table that recorded its hand after its round ended: read again for the round's note (the
    // answer has no round, and an end the stream brought on the form was not read: issue 38 item 10).
    if (this.data.competition && this.data.state?.closed) return false;
    if (result.revision === shown + 1) {
      const {revision, totals, ...entry} = result;
      // The hand's state is the table's; whether the evening is ended is the evening's, which a hand keeps.
      const state = {...result.state, closed: this.data.state?.closed, closed_at: this.data.state?.closed_at};
      const change = {revision, kind: 'hand', entry, state, totals};
      saveNow();
      this.data = live.applied(this.data, change);
      const {id} = this.session;
      const data = this.data;
      saveAfterPaint(() => {
        storage.cacheSession(id, data);
        storage.write(`hands.${id}`, live.appliedToHands(storage.read(`hands.${id}`, {}), change));
      });
    }
    this.offline = false;
    this.current = true;
    return true;
  },

  /** The rule sets in the page's language: kept on the phone, else read once (one request however many ask). */
  async loadRulesets() {
    if (!this.rulesets) this.rulesets = inlineRulesets();
    if (!this.rulesets) {
      const key = rulesetsKey();
      if (reading?.key !== key) reading = {key, rulesets: api.rulesets().finally(() => { reading = null; })};
      const rulesets = await reading.rulesets;
      if (key === rulesetsKey()) {
        this.rulesets = rulesets;
        storage.write(key, rulesets);
      }
      return rulesets;
    }
    return this.rulesets;
  },

  /** The rule set of the session in use (patterns, options, events). */
  ruleset() {
    return (this.rulesets || []).find((r) => r.id === this.data?.ruleset) || {id: this.data?.ruleset, events: []};
  },

  open(session) {
    if (this.session && (this.session.id !== session.id || this.session.token !== session.token)) live.stop();
    this.session = storage.rememberSession(session);
    this.data = storage.cachedSession(session.id);
  },

  close() {
    live.stop();
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

  /**
   * Ask again about the hands of this evening that met another phone's (412) and wait for a choice: after
   * a reload, or from the table's note. Kept ones are sent (issue 29 item 7).
   */
  async chooseStale() {
    if (!this.session) return;
    for (const entry of outbox.pending(this.session.id).filter((item) => outbox.isStale(item.error))) {
      if (await keepStale(app, entry, entry.error)) await app.sendOutbox();
      else if (['table', 'history'].includes(document.body.dataset.view)) show();
    }
  },

  /** Send waiting hands now; reports what happened, and says so when the phone is still offline. */
  async sendOutbox() {
    const result = await outbox.flush(storage.knownSessions());
    report(result);
    if (result.offline || !navigator.onLine) app.toast(t('still_offline'), 'warn');
  },
};

/** The copy of the evening a Record brought, not yet written to the phone's storage (saveAfterPaint). */
let unsaved = null;

/**
 * Writes the page's copy of the evening to storage once the table has painted the new totals: writing 40 hands'
 * JSON to localStorage on a slow phone came before the paint (benchmarks/page_load.py row 4). Any other change
 * to the copy writes this one first (saveNow), so the stored copy never goes back a hand; and so does leaving.
 */
function saveAfterPaint(save) {
  unsaved = save;
  requestAnimationFrame(() => setTimeout(saveNow, 0));
}

function saveNow() {
  const save = unsaved;
  unsaved = null;
  save?.();
}

/**
 * Everything a form needs, kept the moment an evening is read online: the rule sets (patterns, options,
 * presets, house rules' limits) in the page's language; the evening's own house rules come with it, and the
 * table keeps its screens (app.tableForms, app.keepEveningScreens). So the win form works offline from the first
 * minute on every phone, the ones that joined by a link included (issue 29 item 2,
 * tests/e2e/test_group_and_table_meet.py::test_02_...). Not awaited: the table is drawn without waiting for it.
 */
function keepForOffline() {
  if (!app.rulesets?.[0]?.house_rules) app.rulesets = null;  // a copy from before house rules: read again
  app.loadRulesets().catch(() => {});
}

/** The rule sets the HTML carries when they are in the page's language (kept on the phone then, as if read). */
function inlineRulesets() {
  const rulesets = inlineData('page-rulesets', languageTag());
  if (rulesets) storage.write(rulesetsKey(), rulesets);
  return rulesets;
}

/** Rule sets are kept per language: their pattern names come from the server in the page's language. */
function rulesetsKey() {
  return `rulesets.${languageTag()}`;
}

/**
 * `#s=<id>&t=<token>` opens a shared session, `#g=<id>&t=<token>` (or the
 * contract's `#/group/<id>?token=<token>`) a group; the token is then wiped
 * from the address bar.
 */
function joinFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  // A competition: #c=<id>&t=<token> (the organiser's carries the read-only token as &r=), its wall with &v=wall.
  if (params.get('c') && params.get('t')) {
    app.competition = storage.rememberCompetition({id: params.get('c'), token: params.get('t'),
                                                   read_token: params.get('r') || undefined});
    app.competitionData = null;
    window.history.replaceState(null, '', `${location.pathname}#${params.get('v') === 'wall' ? 'wall' : 'competition'}`);
    return true;
  }
  const group = params.get('g') ? {id: params.get('g'), token: params.get('t')} : groupPathLink();
  if (group?.id && group.token) {
    app.openGroup({...group, read_token: params.get('r') || undefined});
    window.history.replaceState(null, '', `${location.pathname}#group`);
    return true;
  }
  const id = params.get('s');
  const token = params.get('t');
  if (!id || !token) return false;
  app.open({id, token, read_token: params.get('r') || undefined});
  window.history.replaceState(null, '', `${location.pathname}#table`);
  return true;
}

/** `#/group/<id>?token=<token>`: {id, token}, else null. */
function groupPathLink() {
  const match = /^#\/group\/([^?]+)\?(.*)$/.exec(location.hash);
  return match ? {id: decodeURIComponent(match[1]), token: new URLSearchParams(match[2]).get('token')} : null;
}

function routeName() {
  const name = location.hash.slice(1).split('/')[0];
  if (CHANGING.has(name) && app.data?.access === 'read') return 'table';
  if (OWNERS.has(name) && tableOnly(app)) return 'table';
  if (GROUP_VIEWS.has(name)) return app.group ? name : 'start';
  if (COMPETITION_VIEWS.has(name)) return app.competition ? name : 'start';
  if (name in VIEWS && (!NEEDS_SESSION.has(name) || app.session)) return name;
  return app.session ? 'table' : 'start';
}

/** How many times show() has begun: only the latest may put its view on screen. */
let showing = 0;

/**
 * Draw the view the address asks for. It draws into a box of its own, put on
 * screen at its first drawing unless a later show() began meanwhile: a slow
 * answer (History read again on going back online, say) never covers the view
 * the person has gone to since, and a view still loading (Settle's sums, a QR
 * code) shows what it has already drawn.
 */
async function show() {
  joinFromFragment();
  const name = routeName();
  if (name !== 'table') saveNow();  // the other views of an evening may read its stored hands
  if (!EDITORS.has(name)) app.editing = null;
  document.body.dataset.view = name;
  updateTopBar();
  const mine = ++showing;
  const stage = h('div', {class: 'stage'});
  const mount = new MutationObserver(() => {
    mount.disconnect();
    if (mine !== showing) return;
    // The page's first view is at the top already: no scroll, which would lay the page out before its first frame
    // (176 ms of a cold load at a 4× slower CPU, benchmarks/page_load.py row 1).
    const first = !view.querySelector('.stage');
    view.replaceChildren(stage);
    if (!first) window.scrollTo(0, 0);
  });
  mount.observe(stage, {childList: true});
  try {
    if (app.session?.replaced && NEEDS_SESSION.has(name)) replacedView(stage);
    else await (await VIEWS[name]()).render(stage, app);
    if (CHANGING.has(name) && mine === showing && closed(app)) lockClosed(stage);
  } catch (error) {
    replace(stage, h('section', {class: 'card error-card', testid: 'view-error'},
      h('p', {}, GROUP_VIEWS.has(name) ? groupError(error) : describeError(error)),
      h('button', {type: 'button', class: 'btn', onClick: show}, t('retry')),
      h('button', {type: 'button', class: 'btn ghost', onClick: () => {
        if (!GROUP_VIEWS.has(name) && !COMPETITION_VIEWS.has(name)) app.close(); // the evening in use stays
        app.go('start');
      }},
        t('other_session'))));
  }
}

/** The evening's name, the network badge, big text and the language switch; again once a session is loaded. */
function updateTopBar() {
  const shown = document.body.dataset.view;
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
  big.textContent = t('big_text');
  big.setAttribute('aria-pressed', String(bigText()));
  plainHttp.reword();
  rewordOffer();
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

function applyTextSize() {
  document.documentElement.classList.toggle('big', bigText());
}

async function report({sent, rejected}) {
  const stale = rejected.filter((item) => outbox.isStale(item.error));
  if (sent.length) app.toast(t('sent_count', {count: sent.length}), 'ok');
  if (rejected.length > stale.length) app.toast(t('rejected_count', {count: rejected.length - stale.length}), 'error');
  updateTopBar();
  if (sent.length || rejected.length) {
    if (['table', 'history'].includes(document.body.dataset.view)) show();
  }
  // A hand that waited on this phone while another phone recorded: never dropped silently, the person chooses.
  for (const {entry, error} of stale) {
    if (await keepStale(app, entry, error)) await app.sendOutbox();
    else if (['table', 'history'].includes(document.body.dataset.view)) show();
  }
}

/**
 * A change came from the live stream (another phone, or this one): the page's
 * copy of the evening follows it, and the table, History or Settle on screen is
 * drawn again from it. A form being filled in is left alone.
 */
function applyChange(change) {
  if (!app.data || !app.session || change.revision <= (app.data.revision ?? -1)) return;
  saveNow();
  app.data = live.applied(app.data, change);
  // New rules (a correction re-priced every hand), or a competition's round started or ended: read the evening
  // again (its house rules, its round's clock).
  if (change.kind === 'house_rules' || change.kind === 'round'
      || (app.data.competition && ['close', 'reopen'].includes(change.kind))) {
    if (REFRESHED.has(document.body.dataset.view)) show();
    return;
  }
  storage.cacheSession(app.session.id, app.data);
  const hands = live.appliedToHands(storage.read(`hands.${app.session.id}`, {}), change);
  storage.write(`hands.${app.session.id}`, hands);
  updateTopBar();
  const name = document.body.dataset.view;
  // The screen's module may still be loading: by then the page may have left the view or dropped its copy
  // (a hand just recorded reads the evening again), and the view that follows draws itself.
  const still = () => app.data && document.body.dataset.view === name;
  if (name === 'table') VIEWS.table().then((table) => still() && table.paint(view, app));
  else if (name === 'history') {
    VIEWS.history().then((history) => still() && history.paint(view, app, {...hands, offline: false}));
  } else if (name === 'settle') {
    VIEWS.settle().then((settle) => still() && settle.render(view, app, {live: true})).catch(() => {});
  }
  else if (CHANGING.has(name) && ['close', 'reopen'].includes(change.kind)) show(); // its draft is kept
}

/**
 * A form that would change an ended evening (胡, 流局, 換人, a correction): why it cannot, on top, and every
 * control of it disabled but the way back (issue 29 item 5); drawn again as it was when the evening reopens.
 */
function lockClosed(stage) {
  stage.prepend(closedNote(app));
  for (const control of stage.querySelectorAll('form button, form input, form select, form textarea')) {
    if (!(control.type === 'button' && control.classList.contains('ghost'))) control.disabled = true;
  }
}

/**
 * The server ended the stream (a replaced link, a lost session): ask at once why. A replaced link (401) is
 * said on every view of the evening at once, and its totals are no longer shown as if current (issue 29
 * item 3); anything else is shown again a little later.
 */
async function streamEnded() {
  const session = app.session;
  if (!session) return;
  try {
    await api.session(session);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && app.session === session) {
      linkReplaced();
      return;
    }
  }
  setTimeout(() => {
    if (app.session && REFRESHED.has(document.body.dataset.view)) show();
  }, END_RETRY_MS);
}

/** This phone's link to the evening was replaced ("New links" on another phone): stop following, say so. */
function linkReplaced() {
  if (!app.session || app.session.replaced) return;
  live.stop();
  app.session = storage.markReplaced(app.session.id, app.session.token) || {...app.session, replaced: true};
  if (NEEDS_SESSION.has(document.body.dataset.view)) show();
}

/** Every view of an evening whose link was replaced: why, what to do, and no totals that look current. */
function replacedView(stage) {
  replace(stage, h('section', {class: 'card error-card', testid: 'link-replaced', role: 'alert'},
    h('h1', {}, t('link_replaced_title')),
    h('p', {}, t('error_link_replaced')),
    h('p', {class: 'hint'}, t('link_replaced_hint')),
    h('button', {type: 'button', class: 'btn wide', testid: 'link-replaced-other', onClick: () => {
      app.close();
      app.go('start');
    }}, t('other_session'))));
}

/**
 * Sets the page up once its words are loaded (from the service worker's copy when offline), then draws it. A new
 * phone's first view, the start form, needs the rule sets too: asked for beside the words, not after them (a
 * round trip less on a cold load, issue 32).
 */
async function boot() {
  const joining = /^#(?:.*&)?[sg]=|^#\/group\//.test(location.hash);  // a link opens an evening or a group
  if (!app.rulesets && !storage.currentSession() && !joining && navigator.onLine) app.loadRulesets().catch(() => {});
  await loadWords();
  applyLanguage();
  applyTextSize();
  const current = storage.currentSession();
  if (current) app.open(current);
  app.group = storage.currentGroup();
  app.competition = storage.currentCompetition();
  // Choices are queued: each waits for the words of the one before.
  let switching = Promise.resolve();
  const choose = (id) => {
    switching = switching.then(async () => {
      await setLanguage(id);
      app.rulesets = storage.read(rulesetsKey(), null);
      if (app.session && navigator.onLine) keepForOffline();  // the rule sets in this language too
      show();
    });
  };
  document.getElementById('lang').addEventListener('click', () => toggleLanguageMenu(choose));
  document.getElementById('big-text').addEventListener('click', () => {
    storage.write('big_text', !bigText());
    applyTextSize();
    updateTopBar();
  });
  window.addEventListener('hashchange', show);
  // Back from another app (or the lock screen): show what other phones recorded meanwhile.
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && REFRESHED.has(document.body.dataset.view)) show();
  });
  // Back online: read the evening again, which also follows its live updates once more.
  window.addEventListener('online', () => {
    updateTopBar();
    const name = document.body.dataset.view;
    if (REFRESHED.has(name) || (GROUP_VIEWS.has(name) && view.querySelector('[data-testid=view-error]'))) show();
  });
  window.addEventListener('offline', updateTopBar);
  window.addEventListener('pagehide', saveNow);
  outbox.onChange(updateTopBar);
  outbox.keepSending(() => storage.knownSessions(), report);
  plainHttp.tellOnce(view);
  await show();
  keepRelease();
  app.chooseStale(); // a choice left open when the page was closed comes back by itself
}

/**
 * The service worker keeps this release for the next opening (registered once the first view is drawn: its copy
 * of the assets comes from the browser's cache then, not from the network a second time). A new release
 * installs beside it and waits: the page offers to reload into it, and reloads once it has taken over, so a
 * page never runs half of each release (issue 32, tests/e2e/test_page_release.py). Service workers exist only on
 * https or localhost; elsewhere the page simply needs the network to open.
 */
async function keepRelease() {
  const workers = navigator.serviceWorker;
  if (!workers) return;
  let registration;
  try {
    registration = await workers.register('/sw.js');
  } catch {
    return;
  }
  const offer = (worker) => {
    if (worker && workers.controller) offerNewRelease(worker);
  };
  offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed') offer(worker);
    });
  });
  // Back to a page left open for hours: look for a new release then.
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) registration.update().catch(() => {});
  });
}

/** "A new version is ready" under the top bar, with the button that reloads into it. */
function offerNewRelease(worker) {
  if (document.getElementById('update-offer')) return;
  const reload = () => {
    navigator.serviceWorker.addEventListener('controllerchange', () => location.reload());
    worker.postMessage('take-over');
  };
  document.querySelector('.topbar').after(h('div', {class: 'update-offer', id: 'update-offer', role: 'status',
    testid: 'update-offer'}, h('span', {}),
  h('button', {type: 'button', class: 'btn small primary', testid: 'update-reload', onClick: reload})));
  rewordOffer();
}

/** The offer in the language in use (again after a switch). */
function rewordOffer() {
  const offer = document.getElementById('update-offer');
  if (!offer) return;
  offer.querySelector('span').textContent = t('update_ready');
  offer.querySelector('button').textContent = t('update_reload');
}

boot();
