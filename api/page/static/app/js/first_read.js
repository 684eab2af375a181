// The page's first script, inline in the HTML's head (api/page/release.py bundles it on its own): a share link's
// evening is asked for at once, while the page itself is still arriving (api.js, startFirstRead).

import {startFirstRead} from './api.js';

startFirstRead();
