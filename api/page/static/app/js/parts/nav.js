// A button that goes to another screen through the router (app.go): a screen
// never imports another.

import {h} from '../dom.js';

/** A button to `route` (test id `nav-<route>`); `extra` adds classes (wide). */
export function navButton(app, route, label, extra = '') {
  return h('button', {type: 'button', class: `btn ${extra}`, testid: `nav-${route}`, onClick: () => app.go(route)},
    label);
}
