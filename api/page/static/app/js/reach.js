// Where other phones can open this server (issue 26): the origin that share
// links and their QR codes carry. In order: the server's public address
// (TAIZHANG_PUBLIC_URL, a server on the internet); else, when this page was
// opened on a loopback address (127.0.0.1, localhost: the computer running
// the server), the server's own address on the network (taizhang serve /
// make run knows it); else this page's own origin, which the other phones
// can open as this one did. Opened on loopback with neither known: null, and
// the Share views say so instead of a link that opens nothing elsewhere.
// The server's answer (GET /api/address) is kept: for when the Wi-Fi is gone, and to draw at once.

import {api} from './api.js';
import * as storage from './storage.js';

const KEPT = 'address';

/** Whether `hostname` (as location.hostname gives it) is this computer only. */
export function isLoopback(hostname) {
  const name = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * The origin share links start with, or null when no address another phone can open is known.
 * What the server said last time answers at once (the Share view draws without waiting), and the
 * question is asked again for next time; the first time, or offline with nothing kept, it waits.
 */
export async function shareOrigin() {
  const kept = storage.read(KEPT, null);
  const asked = api.address().then((known) => {
    storage.write(KEPT, known);
    return known;
  }).catch(() => kept);
  const known = kept || await asked;
  if (known?.public_url) return known.public_url;
  if (!isLoopback(location.hostname)) return location.origin;
  return known?.network_url || null;
}
