// The route table: each route (#start, #table, … #member/<id>, #wall) and the screen module that draws it
// (#group-evening: screens/group/group_evening.js), imported when the route is first shown; and which routes
// belong to an evening, a group or a competition. The only module that imports screens.

export const VIEWS = {
  start: () => import('../screens/evening/start.js'), table: () => import('../screens/evening/table.js'),
  win: () => import('../screens/evening/win.js'), draw: () => import('../screens/evening/draw.js'),
  history: () => import('../screens/evening/history.js'), settle: () => import('../screens/evening/settle.js'),
  seat: () => import('../screens/evening/seat.js'), rules: () => import('../screens/evening/rules.js'),
  share: () => import('../screens/evening/share.js'),
  group: () => import('../screens/group/group.js'),
  'group-evening': () => import('../screens/group/group_evening.js'),
  standings: () => import('../screens/group/standings.js'), balances: () => import('../screens/group/balances.js'),
  member: () => import('../screens/group/member.js'), 'group-share': () => import('../screens/group/group_share.js'),
  'competition-new': () => import('../screens/competition/competition_new.js'),
  competition: () => import('../screens/competition/competition.js'),
  'competition-standings': () => import('../screens/competition/competition_standings.js'),
  wall: () => import('../screens/competition/wall.js'),
};
/** A competition's views read the server each time, as a group's do. */
export const COMPETITION_VIEWS = new Set(['competition', 'competition-standings', 'wall']);
/** A group's views read the server each time (nothing of a group is kept for offline use). */
export const GROUP_VIEWS = new Set(['group', 'group-evening', 'standings', 'balances', 'member', 'group-share']);
export const EDITORS = new Set(['win', 'draw']);
/** The views of the evening's figures: drawn again when it changes. */
export const REFRESHED = new Set(['table', 'history', 'settle']);
/** The screens a table goes to with no Wi-Fi (胡, 流局, History). */
export const TABLE_FORMS = ['win', 'draw', 'history'];
export const NEEDS_SESSION = new Set(['table', 'win', 'draw', 'history', 'settle', 'seat', 'rules', 'share']);
export const CHANGING = new Set(['win', 'draw', 'seat', 'rules']); // not on a read-only link
export const OWNERS = new Set(['seat', 'rules']); // nor on a competition's table's own link: its organiser's

/** The route on screen (the router writes it on the body). */
export function shown() {
  return document.body.dataset.view;
}
