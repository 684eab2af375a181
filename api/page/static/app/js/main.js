// The page starts here (index.html's module, and esbuild's entry: api/page/release.py): the words, the evening,
// group and competition this phone was last in, the top bar, the router following the address and the
// state's events, the outbox sending by itself, and the service worker. The parts are in shell/: routes.js
// (the route table, which imports the screens when first shown), router.js, state.js (the `app` every screen
// is handed), top_bar.js and new_release.js.

import {applyLanguage, loadWords, setLanguage} from './i18n.js';
import * as outbox from './outbox.js';
import * as storage from './storage.js';
import * as plainHttp from './parts/plain_http.js';
import {keepRelease} from './shell/new_release.js';
import {GROUP_VIEWS, REFRESHED, shown} from './shell/routes.js';
import {paintChange, redraw, show} from './shell/router.js';
import {app, languageChanged, on, report, saveNow} from './shell/state.js';
import {applyTextSize, updateTopBar, wireTopBar} from './shell/top_bar.js';

const view = document.getElementById('view');

/**
 * Sets the page up once its words are loaded (from the service worker's copy when offline), then draws it. A new
 * phone's first view, the start form, needs the rule sets too: asked for beside the words, not after them (a
 * round trip less on a cold load, issue 32).
 */
async function boot() {
  on('updated', updateTopBar);
  on('redraw', redraw);
  on('change', paintChange);
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
  wireTopBar((id) => {
    switching = switching.then(async () => {
      await setLanguage(id);
      languageChanged();
      show();
    });
  });
  window.addEventListener('hashchange', show);
  // Back from another app (or the lock screen): show what other phones recorded meanwhile.
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) redraw(REFRESHED);
  });
  // Back online: read the evening again, which also follows its live updates once more.
  window.addEventListener('online', () => {
    updateTopBar();
    const name = shown();
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

boot();
