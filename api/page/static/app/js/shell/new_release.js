// A new release of the page: the service worker keeps the release in use for the next opening, and when a new
// one is ready the page offers to reload into it (sw.js; tests/e2e/test_page_release.py).

import {h} from '../dom.js';
import {t} from '../i18n.js';

/**
 * The service worker keeps this release for the next opening (registered once the first view is drawn: its copy
 * of the assets comes from the browser's cache then, not from the network a second time). A new release
 * installs beside it and waits: the page offers to reload into it, and reloads once it has taken over, so a
 * page never runs half of each release (issue 32, tests/e2e/test_page_release.py). Service workers exist only on
 * https or localhost; elsewhere the page simply needs the network to open.
 */
export async function keepRelease() {
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
export function rewordOffer() {
  const offer = document.getElementById('update-offer');
  if (!offer) return;
  offer.querySelector('span').textContent = t('update_ready');
  offer.querySelector('button').textContent = t('update_reload');
}
