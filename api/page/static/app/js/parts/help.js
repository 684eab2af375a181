// The top bar's help link (?): the guide's section about the screen on show, in the page's language
// (/guide/<topic>?lang=…#<section>, served by the app from docs/guide). One map here, not a link per screen.

import {languageTag, t} from '../i18n.js';

/** Route -> the guide's topic and section (the anchors of docs/guide/<lang>/<topic>.md). */
export const SECTIONS = {
  start: 'evening#start', share: 'evening#share', table: 'evening#table', win: 'evening#win',
  draw: 'evening#draw', history: 'evening#history', settle: 'evening#settle', seat: 'evening#seats',
  rules: 'house-rules#change',
  group: 'group#members', 'group-share': 'group#make', 'group-evening': 'group#evenings',
  standings: 'group#standings', balances: 'group#balances', member: 'group#standings',
  'competition-new': 'competition#make', competition: 'competition#entrants',
  'competition-standings': 'competition#results', wall: 'competition#wall',
};

/** Points the help link at the section of `route` (the guide's contents for a route it has none for). */
export function pointHelp(route) {
  const link = document.getElementById('help');
  if (!link) return;
  const [topic, section] = (SECTIONS[route] || 'index').split('#');
  link.href = `/guide${topic === 'index' ? '' : `/${topic}`}?lang=${languageTag()}${section ? `#${section}` : ''}`;
  link.textContent = t('help');
  link.setAttribute('aria-label', t('help_label'));
  link.title = t('help_label');
}
