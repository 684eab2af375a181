// The app's state, handed to every screen as `app`: the evening, group and competition in use (their last
// reading, kept for offline use where an evening's is), the rule sets, the evening's copy kept up to date by
// its live stream, the outbox's sending and the toast. It knows no view: the router draws them, told by the
// events below ('redraw', 'change') when the state asks for a view again; the top bar follows 'updated'.

import {api, ApiError, OfflineError} from '../api.js';
import {h, replace} from '../dom.js';
import {inlineData, languageTag, t} from '../i18n.js';
import * as live from '../live.js';
import * as outbox from '../outbox.js';
import * as storage from '../storage.js';
import {eveningName} from '../format/names.js';
import {NEEDS_SESSION, REFRESHED, TABLE_FORMS, VIEWS} from './routes.js';

/**
 * Ask about a waiting hand another phone got ahead of (parts/entry.js, with the conflict dialog): its modules
 * are loaded when a conflict is met, not before the first view.
 */
async function keepStale(...args) {
  return (await import('../parts/entry.js')).keepStale(...args);
}

/** The views that show the evening's hands: drawn again once a waiting hand is sent or dropped. */
const HANDS_SHOWN = new Set(['table', 'history']);
const END_RETRY_MS = 3000;
let toastTimer = null;
/** The rule sets being read ({key, rulesets: a promise}), so that two screens asking at once make one request. */
let reading = null;
const TOAST_MS = 4000;
const TOAST_WITH_ACTION_MS = 8000; // time to reach for Undo
const listeners = {updated: new Set(), redraw: new Set(), change: new Set()};

/**
 * Call `listener` on `kind`: 'updated' (a name or the waiting count the top bar shows may have changed),
 * 'redraw' (`views`: draw the view on screen again if it is one of them, whichever when null), 'change'
 * ({change, hands}: the live stream changed the evening's copy, which the view on screen may paint).
 */
export function on(kind, listener) {
  listeners[kind].add(listener);
}

function tell(kind, detail = null) {
  for (const listener of listeners[kind]) listener(detail);
}

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
    tell('updated');
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
    tell('updated');
    return this.groupData;
  },

  go(route) {
    if (location.hash === `#${route}`) tell('redraw');
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
    tell('updated');
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
      else tell('redraw', HANDS_SHOWN);
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

export function saveNow() {
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

/** After a language switch: the rule sets kept in it, and read in it when an evening is open online. */
export function languageChanged() {
  app.rulesets = storage.read(rulesetsKey(), null);
  if (app.session && navigator.onLine) keepForOffline();
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

/** What the outbox sent or could not (its sender's report): said, and the hands on screen drawn again. */
export async function report({sent, rejected}) {
  const stale = rejected.filter((item) => outbox.isStale(item.error));
  if (sent.length) app.toast(t('sent_count', {count: sent.length}), 'ok');
  if (rejected.length > stale.length) app.toast(t('rejected_count', {count: rejected.length - stale.length}), 'error');
  tell('updated');
  if (sent.length || rejected.length) tell('redraw', HANDS_SHOWN);
  // A hand that waited on this phone while another phone recorded: never dropped silently, the person chooses.
  for (const {entry, error} of stale) {
    if (await keepStale(app, entry, error)) await app.sendOutbox();
    else tell('redraw', HANDS_SHOWN);
  }
}

/**
 * A change came from the live stream (another phone, or this one): the page's copy of the evening follows it,
 * and the view on screen is told ('change'), or drawn again when the change needs the evening read again.
 */
function applyChange(change) {
  if (!app.data || !app.session || change.revision <= (app.data.revision ?? -1)) return;
  saveNow();
  app.data = live.applied(app.data, change);
  // New rules (a correction re-priced every hand), or a competition's round started or ended: read the evening
  // again (its house rules, its round's clock).
  if (change.kind === 'house_rules' || change.kind === 'round'
      || (app.data.competition && ['close', 'reopen'].includes(change.kind))) {
    tell('redraw', REFRESHED);
    return;
  }
  storage.cacheSession(app.session.id, app.data);
  const hands = live.appliedToHands(storage.read(`hands.${app.session.id}`, {}), change);
  storage.write(`hands.${app.session.id}`, hands);
  tell('updated');
  tell('change', {change, hands});
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
    if (app.session) tell('redraw', REFRESHED);
  }, END_RETRY_MS);
}

/** This phone's link to the evening was replaced ("New links" on another phone): stop following, say so. */
function linkReplaced() {
  if (!app.session || app.session.replaced) return;
  live.stop();
  app.session = storage.markReplaced(app.session.id, app.session.token) || {...app.session, replaced: true};
  tell('redraw', NEEDS_SESSION);
}

