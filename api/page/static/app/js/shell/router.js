// The router: draws the view the address asks for (#table, #group, #wall, …; the route table is routes.js) with
// its screen, reading a share link's evening, group or competition from the address first. A screen goes to
// another through app.go, never by importing it; the state asks for a view again through its events.

import {h, replace} from '../dom.js';
import {t} from '../i18n.js';
import * as storage from '../storage.js';
import {closed, closedNote, tableOnly} from '../parts/access.js';
import {describeError} from '../parts/form.js';
import {groupError} from '../parts/group_shared.js';
import {CHANGING, COMPETITION_VIEWS, EDITORS, GROUP_VIEWS, NEEDS_SESSION, OWNERS, VIEWS, shown} from './routes.js';
import {app, saveNow} from './state.js';
import {updateTopBar} from './top_bar.js';

const view = document.getElementById('view');

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
export async function show() {
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

/** Draw the view on screen again if it is one of `views` (any when null): the state's 'redraw'. */
export function redraw(views) {
  if (!views || views.has(shown())) show();
}

/**
 * The live stream changed the evening (the state's 'change'): the table, History or Settle on screen is drawn
 * again from its copy. A form being filled in is left alone.
 */
export function paintChange({change, hands}) {
  const name = shown();
  // The screen's module may still be loading: by then the page may have left the view or dropped its copy
  // (a hand just recorded reads the evening again), and the view that follows draws itself.
  const still = () => app.data && shown() === name;
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
