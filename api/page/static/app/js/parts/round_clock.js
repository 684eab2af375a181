// What a competition's table shows of its round (GET /api/sessions/<id>'s `competition`): which competition,
// round and table; the time left, counting down; that its time is up or its first 將 complete (finish the hand
// in play); that the organiser has not started the clock yet; and once the round has ended, until when the hand
// in play may still be entered. Imported by the table only for an evening that is a competition's table.

import {h} from '../dom.js';
import {t} from '../i18n.js';
import {clock} from '../format/dates.js';
import {minutesSeconds} from './competition_shared.js';

/**
 * The note, or null for an evening of no competition. The clock counts from `seconds_left` as of `round.read_at`
 * (when the page read the evening: the server's clock, whatever this phone's says), else from `ends_at`.
 */
export function roundNote(round) {
  if (!round) return null;
  const where = h('strong', {}, t('comp_table_where', {name: round.name, round: round.round, table: round.table}));
  const line = h('span', {testid: 'round-line'});
  const note = h('p', {class: 'note round-note', testid: 'round-note', role: 'status'}, where, line);
  if (round.ended_at) {
    note.classList.add('warn');
    line.textContent = round.grace_open && Date.now() < Date.parse(round.grace_until)
      ? t('comp_table_grace', {time: clock(round.grace_until)}) : t('comp_table_ended');
    return note;
  }
  const done = round.until === 'jiang' && round.jiang_done;
  if (!round.started_at) {
    line.textContent = t('comp_table_not_started');
    return note;
  }
  if (round.seconds_left === null || round.seconds_left === undefined) {
    line.textContent = done ? t('comp_table_jiang_done') : t('comp_table_started');
    return note;
  }
  const deadline = round.read_at ? round.read_at + round.seconds_left * 1000 : Date.parse(round.ends_at);
  const tick = () => {
    const left = (deadline - Date.now()) / 1000;
    if (left <= 0 || round.time_up) {
      line.textContent = t('comp_table_time_up');
      note.classList.add('warn');
      return false;
    }
    line.textContent = done ? `${t('comp_table_jiang_done')} ${t('comp_table_left', {left: minutesSeconds(left)})}`
      : t('comp_table_left', {left: minutesSeconds(left)});
    return true;
  };
  if (tick()) {
    let drawn = false;  // on the page after the first second: once it has left it, the timer stops
    const timer = setInterval(() => {
      drawn = drawn || note.isConnected;
      if ((drawn && !note.isConnected) || !tick()) clearInterval(timer);
    }, 1000);
  }
  if (done) note.classList.add('warn');
  return note;
}
